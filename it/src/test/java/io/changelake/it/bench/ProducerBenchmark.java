package io.changelake.it.bench;

import io.changelake.bench.Median;
import io.changelake.bench.ProcessCpu;
import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * changelake next to Apache Paimon 1.3.1 on the same upsert workload, producer by producer, in one
 * JVM: prints write, changelog-read and batch-read rates and ours/Paimon ratios, per second and per
 * CPU-second of the JVM (steadier on a shared machine: see {@link ProcessCpu}), then each table
 * read as a batch and as a changelog by both engines, warm, and the write repeated by both, warm;
 * then each engine's write and reads cold, each the first work of a JVM of its own ({@link
 * ColdStart}). It measures and prints; it asserts nothing about time.
 *
 * <p>Not part of the test run (its name ends in Benchmark). Run it with
 *
 * <pre>
 * mvn -B -pl it -am test -Dtest=ProducerBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     [-Dbench.rows=2000000 -Dbench.keys=500000 -Dbench.commitEvery=100000 -Dbench.producers=none,lookup \
 *      -Dbench.coldStarts=5]
 * </pre>
 */
class ProducerBenchmark {

  @TempDir Path folder;

  @Test
  void compareWithPaimon() throws Exception {
    UpsertWorkload workload =
        new UpsertWorkload(
            Long.getLong("bench.rows", 2_000_000),
            Long.getLong("bench.keys", 500_000),
            Long.getLong("bench.commitEvery", 100_000),
            42);
    List<String> producers =
        List.of(
            System.getProperty("bench.producers", "none,input,lookup,full-compaction").split(","));
    System.out.printf(
        "workload: %d upserts over %d keys, commit every %d, one bucket, local disk, %d cores, max heap %d MiB%n",
        workload.rows(),
        workload.keys(),
        workload.commitEvery(),
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20);
    System.out.println(
        "| producer | engine | write rows/s | changelog read rows/s | batch read rows/s | changelog rows | batch rows | bytes | files | peak heap MiB |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    List<String> warm = new ArrayList<>();
    List<String> warmWrites = new ArrayList<>();
    List<String> coldWrites = new ArrayList<>();
    List<String> cold = new ArrayList<>();
    for (String producer : producers) {
      Path paimonWarehouse = folder.resolve("paimon-" + producer);
      TablePath table = table(producer);
      UpsertBenchmark.Result paimon =
          PaimonUpsertRun.run(producer, workload, paimonTable(paimonWarehouse, table));
      UpsertBenchmark.Result ours =
          UpsertBenchmark.run(producer, workload, folder.resolve("changelake-" + producer));
      print("Paimon 1.3.1", paimon);
      print("changelake", ours);
      System.out.printf(
          "| %s | ours/Paimon | %.2fx | %.2fx | %.2fx | | | | | |%n",
          producer,
          rate(ours.rows(), ours.writeSeconds()) / rate(paimon.rows(), paimon.writeSeconds()),
          rate(ours.changelogRows(), ours.readSeconds())
              / rate(paimon.changelogRows(), paimon.readSeconds()),
          rate(ours.batchRows(), ours.batchSeconds())
              / rate(paimon.batchRows(), paimon.batchSeconds()));
      System.out.printf(
          "| %s | ours/Paimon per CPU-second | %.2fx | %.2fx | %.2fx | | | | | |%n",
          producer,
          rate(ours.rows(), ours.writeCpuSeconds()) / rate(paimon.rows(), paimon.writeCpuSeconds()),
          rate(ours.changelogRows(), ours.readCpuSeconds())
              / rate(paimon.changelogRows(), paimon.readCpuSeconds()),
          rate(ours.batchRows(), ours.batchCpuSeconds())
              / rate(paimon.batchRows(), paimon.batchCpuSeconds()));
      Path oursWarehouse = folder.resolve("changelake-" + producer);
      warm.add(warmReads(producer, paimonWarehouse, table, "Paimon's", WarmRead.BATCH));
      warm.add(warmReads(producer, oursWarehouse, table, "changelake's", WarmRead.BATCH));
      warm.add(warmReads(producer, paimonWarehouse, table, "Paimon's", WarmRead.CHANGELOG));
      warm.add(warmReads(producer, oursWarehouse, table, "changelake's", WarmRead.CHANGELOG));
      warmWrites.add(warmWrites(producer, workload, folder.resolve("warm-" + producer), table));
      coldWrites.add(coldWrites(producer, workload, folder.resolve("cold-" + producer)));
      for (WarmRead read : WarmRead.values()) {
        cold.add(coldReads(producer, workload, paimonWarehouse, oursWarehouse, read));
      }
    }
    printTable(
        "Warm reads, each table read by both engines "
            + WARM_READS
            + " times alternately (each read repeated to half a CPU-second), best rows per CPU-second of the JVM over the last half:",
        "| producer | read | table | changelake | Paimon 1.3.1 | ours/Paimon |",
        warm);
    printTable(
        "Warm writes, the workload written into a new table by both engines "
            + WARM_WRITES
            + " times alternately, best over the last half:",
        WRITES_HEADER,
        warmWrites);
    printTable(
        "Cold writes, the workload written into a new table by each engine, the first work of a JVM of its own, "
            + COLD_STARTS
            + " JVMs per engine alternately, medians:",
        WRITES_HEADER,
        coldWrites);
    printTable(
        "Cold reads, each engine its own table, each read the first of a JVM of its own, "
            + COLD_STARTS
            + " JVMs per engine alternately, medians:",
        "| producer | read | changelake s | Paimon 1.3.1 s | ours/Paimon"
            + " | changelake CPU-s | Paimon 1.3.1 CPU-s | ours/Paimon per CPU-second |",
        cold);
  }

  private static final String WRITES_HEADER =
      "| producer | changelake rows/s | Paimon 1.3.1 rows/s | ours/Paimon"
          + " | changelake rows/CPU-s | Paimon 1.3.1 rows/CPU-s | ours/Paimon per CPU-second |";

  /**
   * A row of a writes table ({@link #WRITES_HEADER}): each engine's rate per second and per CPU.
   */
  private static String writesRow(
      String producer, double ours, double theirs, double oursCpu, double theirsCpu) {
    return String.format(
        "| %s | %.0f | %.0f | %.2fx | %.0f | %.0f | %.2fx |",
        producer, ours, theirs, ours / theirs, oursCpu, theirsCpu, oursCpu / theirsCpu);
  }

  /** Prints a Markdown table after a blank line and its title. */
  private static void printTable(String title, String header, List<String> rows) {
    System.out.println();
    System.out.println(title);
    System.out.println(header);
    System.out.println("|---".repeat((int) header.chars().filter(c -> c == '|').count() - 1) + "|");
    rows.forEach(System.out::println);
  }

  /** The table a producer's workload is written into, by both engines. */
  static TablePath table(String producer) {
    return new TablePath("bench", "orders_" + producer.replace('-', '_'));
  }

  /** The folder of Paimon's table in {@code warehouse} (Paimon takes the table's own folder). */
  static Path paimonTable(Path warehouse, TablePath table) {
    return warehouse.resolve(table.root().replaceAll("/$", ""));
  }

  private static final int COLD_STARTS = Integer.getInteger("bench.coldStarts", 5);

  /**
   * Each engine's write of the workload into a new table, in a new JVM ({@link ColdStart}), {@link
   * #COLD_STARTS} times each, alternately: the median of several cold starts, where the write
   * "once" above is one sample after whatever the same JVM ran before (the other producers' writes
   * and reads, and Paimon's write, whose garbage may still be collected during ours).
   */
  private static String coldWrites(String producer, UpsertWorkload workload, Path folder)
      throws Exception {
    List<ColdStart.Sample> ours = new ArrayList<>();
    List<ColdStart.Sample> theirs = new ArrayList<>();
    for (int i = 0; i < COLD_STARTS; i++) {
      theirs.add(
          ColdStart.inNewJvm(
              ColdStart.Engine.PAIMON,
              ColdStart.Work.WRITE,
              folder.resolve("paimon-" + i),
              producer,
              workload));
      ours.add(
          ColdStart.inNewJvm(
              ColdStart.Engine.CHANGELAKE,
              ColdStart.Work.WRITE,
              folder.resolve("changelake-" + i),
              producer,
              workload));
    }
    return writesRow(
        producer,
        workload.rows() / median(ours, ColdStart.Sample::seconds),
        workload.rows() / median(theirs, ColdStart.Sample::seconds),
        workload.rows() / median(ours, ColdStart.Sample::cpuSeconds),
        workload.rows() / median(theirs, ColdStart.Sample::cpuSeconds));
  }

  /**
   * Each engine's first read of its own table in a new JVM ({@link ColdStart}), {@link
   * #COLD_STARTS} times each, alternately: the median of several cold starts, where the read "once"
   * above is one sample after the writes of the same JVM.
   */
  private static String coldReads(
      String producer,
      UpsertWorkload workload,
      Path paimonWarehouse,
      Path oursWarehouse,
      WarmRead read)
      throws Exception {
    List<ColdStart.Sample> ours = new ArrayList<>();
    List<ColdStart.Sample> theirs = new ArrayList<>();
    ColdStart.Work work = ColdStart.Work.of(read);
    for (int i = 0; i < COLD_STARTS; i++) {
      theirs.add(
          ColdStart.inNewJvm(ColdStart.Engine.PAIMON, work, paimonWarehouse, producer, workload));
      ours.add(
          ColdStart.inNewJvm(ColdStart.Engine.CHANGELAKE, work, oursWarehouse, producer, workload));
    }
    // Rates, not times: the two tables may hold different row counts (a batch read of Paimon's
    // lookup table skips its level 0).
    double oursSeconds = median(ours, ColdStart.Sample::seconds);
    double theirSeconds = median(theirs, ColdStart.Sample::seconds);
    double oursCpu = median(ours, ColdStart.Sample::cpuSeconds);
    double theirCpu = median(theirs, ColdStart.Sample::cpuSeconds);
    long oursRows = ours.get(0).rows();
    long theirRows = theirs.get(0).rows();
    return String.format(
        "| %s | %s | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |",
        producer,
        read.name().toLowerCase(Locale.ROOT),
        oursSeconds,
        theirSeconds,
        rate(oursRows, oursSeconds) / rate(theirRows, theirSeconds),
        oursCpu,
        theirCpu,
        rate(oursRows, oursCpu) / rate(theirRows, theirCpu));
  }

  private static double median(
      List<ColdStart.Sample> samples, ToDoubleFunction<ColdStart.Sample> value) {
    return Median.of(samples.stream().mapToDouble(value).toArray());
  }

  private static final int WARM_WRITES = 4;

  /**
   * The write alone, repeated by both engines alternately into new tables: the single writes above
   * are each engine's first in the JVM for the producer, so they carry the JIT's compilation of the
   * write path (a third of the CPU of a 2,000,000-row write, by a profile) and the first touch of
   * the heap. A job that runs for months pays neither after its first minutes.
   */
  private static String warmWrites(
      String producer, UpsertWorkload workload, Path folder, TablePath table) throws Exception {
    double ours = 0;
    double theirs = 0;
    double oursCpu = 0;
    double theirsCpu = 0;
    for (int i = 0; i < WARM_WRITES; i++) {
      UpsertBenchmark.Timing paimon =
          PaimonUpsertRun.write(
              producer, workload, paimonTable(folder.resolve("paimon-" + i), table));
      UpsertBenchmark.Timing changelake =
          UpsertBenchmark.write(producer, workload, folder.resolve("changelake-" + i));
      if (i >= WARM_WRITES / 2) {
        ours = Math.max(ours, rate(workload.rows(), changelake.seconds()));
        theirs = Math.max(theirs, rate(workload.rows(), paimon.seconds()));
        oursCpu = Math.max(oursCpu, rate(workload.rows(), changelake.cpuSeconds()));
        theirsCpu = Math.max(theirsCpu, rate(workload.rows(), paimon.cpuSeconds()));
      }
    }
    return writesRow(producer, ours, theirs, oursCpu, theirsCpu);
  }

  private static final int WARM_READS = 6;

  /** What a warm read reads: the latest snapshot as a batch, or the changelog from snapshot 1. */
  enum WarmRead {
    BATCH,
    CHANGELOG;

    long ours(Table table) throws Exception {
      return this == BATCH
          ? UpsertBenchmark.batchRows(table)
          : UpsertBenchmark.changelogRows(table);
    }

    long paimon(FileStoreTable table) throws Exception {
      return this == BATCH
          ? PaimonUpsertRun.batchRows(table)
          : PaimonUpsertRun.changelogRows(table);
    }
  }

  /**
   * One table read by both engines, alternately and warm: the single reads above are of each
   * engine's own table, once, so they mix the two tables' layouts with the JIT's warm-up and a
   * collection or two (a read of 3 million changes takes well under a second).
   */
  private static String warmReads(
      String producer, Path warehouse, TablePath path, String whose, WarmRead read)
      throws Exception {
    double ours = 0;
    double theirs = 0;
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, path);
      FileStoreTable paimon =
          FileStoreTableFactory.create(
              LocalFileIO.create(),
              new org.apache.paimon.fs.Path(warehouse.resolve(path.root()).toUri()));
      for (int i = 0; i < WARM_READS; i++) {
        double oursRate = timed(() -> read.ours(table));
        double theirRate = timed(() -> read.paimon(paimon));
        if (i >= WARM_READS / 2) {
          ours = Math.max(ours, oursRate);
          theirs = Math.max(theirs, theirRate);
        }
      }
    }
    return String.format(
        "| %s | %s | %s | %.0f | %.0f | %.2fx |",
        producer, read.name().toLowerCase(Locale.ROOT), whose, ours, theirs, ours / theirs);
  }

  /**
   * Rows per CPU-second of {@code read}, repeated until it has used at least {@link
   * #MIN_CPU_SECONDS}: the JVM's CPU clock ticks in hundredths of a second, and a warm read of a
   * few hundred thousand rows takes only a few ticks.
   */
  private static double timed(UpsertBenchmark.RowCount read) throws Exception {
    double start = ProcessCpu.seconds();
    long rows = 0;
    double used;
    do {
      rows += read.rows();
      used = ProcessCpu.seconds() - start;
    } while (used < MIN_CPU_SECONDS);
    return rate(rows, used);
  }

  private static final double MIN_CPU_SECONDS = 0.5;

  private static double rate(long rows, double seconds) {
    return rows / Math.max(seconds, 1e-9);
  }

  private static void print(String engine, UpsertBenchmark.Result r) {
    System.out.printf(
        "| %s | %s | %.0f | %.0f | %.0f | %d | %d | %d | %d | %d |%n",
        r.producer(),
        engine,
        rate(r.rows(), r.writeSeconds()),
        rate(r.changelogRows(), r.readSeconds()),
        rate(r.batchRows(), r.batchSeconds()),
        r.changelogRows(),
        r.batchRows(),
        r.bytes(),
        r.files(),
        r.peakHeapBytes() >> 20);
  }
}
