package io.changelake.it.bench;

import io.changelake.bench.ProcessCpu;
import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * changelake next to Apache Paimon 1.3.1 on the same upsert workload, producer by producer, in one
 * JVM: prints write, changelog-read and batch-read rates and ours/Paimon ratios, per second and per
 * CPU-second of the JVM (steadier on a shared machine: see {@link ProcessCpu}), then each table
 * read as a batch by both engines, warm. It measures and prints; it asserts nothing about time.
 *
 * <p>Not part of the test run (its name ends in Benchmark). Run it with
 *
 * <pre>
 * mvn -B -pl it -am test -Dtest=ProducerBenchmark -Dsurefire.failIfNoSpecifiedTests=false \
 *     [-Dbench.rows=2000000 -Dbench.keys=500000 -Dbench.commitEvery=100000 -Dbench.producers=none,lookup]
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
    for (String producer : producers) {
      Path paimonWarehouse = folder.resolve("paimon-" + producer);
      TablePath table = new TablePath("bench", "orders_" + producer.replace('-', '_'));
      UpsertBenchmark.Result paimon =
          PaimonUpsertRun.run(
              producer, workload, paimonWarehouse.resolve(table.root().replaceAll("/$", "")));
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
      warm.add(warmBatchReads(producer, paimonWarehouse, table, "Paimon's"));
      warm.add(
          warmBatchReads(
              producer, folder.resolve("changelake-" + producer), table, "changelake's"));
    }
    System.out.println();
    System.out.println(
        "Warm batch reads, each table read by both engines "
            + WARM_READS
            + " times, best rows per CPU-second of the JVM over the last half:");
    System.out.println("| producer | table | changelake | Paimon 1.3.1 | ours/Paimon |");
    System.out.println("|---|---|---|---|---|");
    warm.forEach(System.out::println);
  }

  private static final int WARM_READS = 10;

  /**
   * One table read as a batch by both engines, alternately and warm: the single read above is of
   * each engine's own table, once, so it mixes the two tables' layouts with the JIT's warm-up.
   */
  private static String warmBatchReads(
      String producer, Path warehouse, TablePath path, String whose) throws Exception {
    double ours = 0;
    double theirs = 0;
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, path);
      FileStoreTable paimon =
          FileStoreTableFactory.create(
              LocalFileIO.create(),
              new org.apache.paimon.fs.Path(warehouse.resolve(path.root()).toUri()));
      for (int i = 0; i < WARM_READS; i++) {
        double cpu = ProcessCpu.seconds();
        long rows = UpsertBenchmark.batchRows(table);
        double oursCpu = ProcessCpu.seconds() - cpu;
        cpu = ProcessCpu.seconds();
        long paimonRows = PaimonUpsertRun.batchRows(paimon);
        double theirCpu = ProcessCpu.seconds() - cpu;
        if (i >= WARM_READS / 2) {
          ours = Math.max(ours, rate(rows, oursCpu));
          theirs = Math.max(theirs, rate(paimonRows, theirCpu));
        }
      }
    }
    return String.format(
        "| %s | %s | %.0f | %.0f | %.2fx |", producer, whose, ours, theirs, ours / theirs);
  }

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
