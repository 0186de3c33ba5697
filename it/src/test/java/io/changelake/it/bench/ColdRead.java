package io.changelake.it.bench;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;

/**
 * One read of a table by one engine in a JVM of its own, the first thing that JVM reads: what a
 * worker that has just started pays, JIT compilation and class loading included, with nothing an
 * earlier write or read left compiled. {@link ProducerBenchmark} runs it several times per engine
 * and compares the medians; a read "once" inside the benchmark's JVM is a single sample of a few
 * CPU-clock ticks, after whatever that JVM ran before.
 *
 * <p>Only the read is timed, from the opened table to its last row, and printed as one line: {@code
 * rows seconds cpu-seconds}.
 */
final class ColdRead {

  private ColdRead() {}

  /** The engine that reads. */
  enum Engine {
    CHANGELAKE,
    PAIMON
  }

  /**
   * One timed cold read, as the child JVM printed it.
   *
   * @param rows rows read
   * @param seconds wall-clock time of the read
   * @param cpuSeconds CPU time of the child JVM during the read, every thread
   */
  record Sample(long rows, double seconds, double cpuSeconds) {}

  /**
   * Arguments: the engine ({@link Engine}), the read ({@code BATCH} or {@code CHANGELOG}), the
   * warehouse folder, the database and the table name.
   */
  public static void main(String[] args) throws Exception {
    Engine engine = Engine.valueOf(args[0]);
    ProducerBenchmark.WarmRead read = ProducerBenchmark.WarmRead.valueOf(args[1]);
    Path warehouse = Path.of(args[2]);
    TablePath path = new TablePath(args[3], args[4]);
    UpsertBenchmark.Counted counted;
    if (engine == Engine.CHANGELAKE) {
      try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
        Table table = Table.open(store, path);
        counted = UpsertBenchmark.count(() -> read.ours(table));
      }
    } else {
      FileStoreTable table =
          FileStoreTableFactory.create(
              LocalFileIO.create(),
              new org.apache.paimon.fs.Path(warehouse.resolve(path.root()).toUri()));
      counted = UpsertBenchmark.count(() -> read.paimon(table));
    }
    System.out.printf(
        Locale.ROOT,
        "%d %.6f %.6f%n",
        counted.rows(),
        counted.timing().seconds(),
        counted.timing().cpuSeconds());
  }

  /**
   * Runs {@link #main} in a new JVM with this JVM's class path, {@code -Xmx1g} and the options in
   * the property {@code bench.coldJvmOptions}, and returns what it printed.
   *
   * @throws IOException if the child fails or prints no sample
   */
  static Sample inNewJvm(
      Engine engine, ProducerBenchmark.WarmRead read, Path warehouse, TablePath path)
      throws IOException, InterruptedException {
    // Surefire may start the test JVM on a manifest-only jar; the real class path is in this
    // property then.
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    // Options for the child alone, to profile a cold read: -Dbench.coldJvmOptions="-XX:+..."
    String options = System.getProperty("bench.coldJvmOptions", "").strip();
    if (!options.isEmpty()) {
      command.addAll(List.of(options.split("\\s+")));
    }
    command.add("-cp");
    command.add(classPath);
    command.add(ColdRead.class.getName());
    command.add(engine.name());
    command.add(read.name());
    command.add(warehouse.toString());
    command.add(path.database());
    command.add(path.table());
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = child.waitFor();
    String[] lines = output.strip().split("\n");
    String[] last = lines[lines.length - 1].strip().split(" ");
    if (exit != 0 || last.length != 3) {
      throw new IOException("cold read " + engine + " " + read + " failed: " + output);
    }
    return new Sample(
        Long.parseLong(last[0]), Double.parseDouble(last[1]), Double.parseDouble(last[2]));
  }
}
