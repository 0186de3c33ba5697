package io.changelake.it.bench;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;

/**
 * One read or one write of a table by one engine in a JVM of its own, the first thing that JVM
 * does: what a worker that has just started pays, JIT compilation and class loading included, with
 * nothing an earlier write or read left compiled and no garbage of theirs to collect. {@link
 * ProducerBenchmark} runs it several times per engine and compares the medians; a write or a read
 * "once" inside the benchmark's JVM is a single sample, after whatever that JVM ran before.
 *
 * <p>Only the work is timed (from the opened table to its last row read, or from the created table
 * to the last commit), and printed as one line: {@code rows seconds cpu-seconds}.
 */
final class ColdStart {

  private ColdStart() {}

  /** The engine that works. */
  enum Engine {
    CHANGELAKE,
    PAIMON
  }

  /** What the new JVM does: read an existing table, or write the workload into a new one. */
  enum Work {
    BATCH_READ(ProducerBenchmark.WarmRead.BATCH),
    CHANGELOG_READ(ProducerBenchmark.WarmRead.CHANGELOG),
    WRITE(null);

    /** The read, or null for the write. */
    private final ProducerBenchmark.WarmRead read;

    Work(ProducerBenchmark.WarmRead read) {
      this.read = read;
    }

    /** The cold start of a read. */
    static Work of(ProducerBenchmark.WarmRead read) {
      for (Work work : values()) {
        if (work.read == read) {
          return work;
        }
      }
      throw new IllegalArgumentException("no cold start reads " + read);
    }
  }

  /**
   * One timed cold start, as the child JVM printed it.
   *
   * @param rows rows read or written
   * @param seconds wall-clock time of the work
   * @param cpuSeconds CPU time of the child JVM during the work, every thread
   */
  record Sample(long rows, double seconds, double cpuSeconds) {}

  /**
   * Arguments: the engine ({@link Engine}), the work ({@link Work}), the warehouse folder, the
   * table's producer, and the workload's rows, keys, commit interval and seed (read only by a
   * write). The table is the benchmark's table of that producer.
   */
  public static void main(String[] args) throws Exception {
    Engine engine = Engine.valueOf(args[0]);
    Work work = Work.valueOf(args[1]);
    Path warehouse = Path.of(args[2]);
    String producer = args[3];
    UpsertWorkload workload =
        new UpsertWorkload(
            Long.parseLong(args[4]),
            Long.parseLong(args[5]),
            Long.parseLong(args[6]),
            Long.parseLong(args[7]));
    TablePath path = ProducerBenchmark.table(producer);
    Path paimonTable = ProducerBenchmark.paimonTable(warehouse, path);
    Sample sample;
    if (work == Work.WRITE) {
      UpsertBenchmark.Timing timing =
          engine == Engine.CHANGELAKE
              ? UpsertBenchmark.write(producer, workload, warehouse)
              : PaimonUpsertRun.write(producer, workload, paimonTable);
      sample = new Sample(workload.rows(), timing.seconds(), timing.cpuSeconds());
    } else {
      ProducerBenchmark.WarmRead read = work.read;
      UpsertBenchmark.Counted counted;
      if (engine == Engine.CHANGELAKE) {
        try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
          Table table = Table.open(store, path);
          counted = UpsertBenchmark.count(() -> read.ours(table));
        }
      } else {
        FileStoreTable table =
            FileStoreTableFactory.create(
                LocalFileIO.create(), new org.apache.paimon.fs.Path(paimonTable.toUri()));
        counted = UpsertBenchmark.count(() -> read.paimon(table));
      }
      sample =
          new Sample(counted.rows(), counted.timing().seconds(), counted.timing().cpuSeconds());
    }
    System.out.printf(
        Locale.ROOT, "%d %.6f %.6f%n", sample.rows(), sample.seconds(), sample.cpuSeconds());
  }

  /**
   * Runs {@link #main} in a new JVM with this JVM's class path and the options in the property
   * {@code bench.coldJvmOptions}, and returns what it printed. A read runs with {@code -Xmx1g}, a
   * write with this JVM's maximum heap, as the writes inside the benchmark's JVM.
   *
   * @throws IOException if the child fails or prints no sample
   */
  static Sample inNewJvm(
      Engine engine, Work work, Path warehouse, String producer, UpsertWorkload workload)
      throws IOException, InterruptedException {
    // Surefire may start the test JVM on a manifest-only jar; the real class path is in this
    // property then.
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add(
        work == Work.WRITE ? "-Xmx" + (Runtime.getRuntime().maxMemory() >> 20) + "m" : "-Xmx1g");
    // Options for the child alone, to profile a cold start: -Dbench.coldJvmOptions="-XX:+..."
    String options = System.getProperty("bench.coldJvmOptions", "").strip();
    if (!options.isEmpty()) {
      command.addAll(List.of(options.split("\\s+")));
    }
    command.add("-cp");
    command.add(classPath);
    command.add(ColdStart.class.getName());
    command.add(engine.name());
    command.add(work.name());
    command.add(warehouse.toString());
    command.add(producer);
    command.add(Long.toString(workload.rows()));
    command.add(Long.toString(workload.keys()));
    command.add(Long.toString(workload.commitEvery()));
    command.add(Long.toString(workload.seed()));
    // The child's log (Paimon's threads log to stderr) goes to a file of its own: on one pipe with
    // the sample, a background thread's line could land in the middle of the sample's.
    Path log = Files.createTempFile("cold-start", ".log");
    try {
      Process child =
          new ProcessBuilder(command)
              .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
              .start();
      String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int exit = child.waitFor();
      if (exit == 0) {
        // The sample is the last line of three numbers on stdout.
        String[] lines = output.strip().split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
          if (SAMPLE.matcher(lines[i].strip()).matches()) {
            String[] fields = lines[i].strip().split(" ");
            return new Sample(
                Long.parseLong(fields[0]),
                Double.parseDouble(fields[1]),
                Double.parseDouble(fields[2]));
          }
        }
      }
      throw new IOException(
          "cold "
              + work
              + " by "
              + engine
              + " failed (exit "
              + exit
              + "): "
              + output
              + Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(log);
    }
  }

  private static final Pattern SAMPLE = Pattern.compile("\\d+ \\d+\\.\\d+ \\d+\\.\\d+");
}
