package io.changelake.it.bench;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * changelake next to Apache Paimon 1.3.1 on the same upsert workload, producer by producer, in one
 * JVM: prints write, changelog-read and batch-read rates and ours/Paimon ratios, per second and per
 * CPU-second of the JVM (steadier on a shared machine: see {@link io.changelake.bench.ProcessCpu}).
 * It measures and prints; it asserts nothing about time.
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
    for (String producer : producers) {
      UpsertBenchmark.Result paimon =
          PaimonUpsertRun.run(producer, workload, folder.resolve("paimon-" + producer));
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
    }
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
