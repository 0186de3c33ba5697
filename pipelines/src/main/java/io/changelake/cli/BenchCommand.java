package io.changelake.cli;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The write-and-read benchmark of one changelog producer on local disk, in one JVM: with {@code
 * --buckets} and {@code --partitions}, one writer per bucket, as a worker hosts them.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Writes N upserts over K uniformly random keys into a table on local disk (one bucket"
          + " unless --buckets, unpartitioned unless --partitions), committing every C rows, then"
          + " reads the changelog from snapshot 1 and the latest snapshot as a batch.",
      "Ends with: RESULT producer=P rows=N write_rows_per_s=X read_rows_per_s=Y"
          + " write_rows_per_cpu_s=XC read_rows_per_cpu_s=YC bytes=B files=F changelog_rows=R"
          + " peak_heap_mb=H lookup_disk_peak_mb=D batch_read_rows_per_s=Z"
          + " batch_read_rows_per_cpu_s=ZC (per CPU-second: the JVM's CPU time, every thread)"
    })
final class BenchCommand implements Callable<Integer> {

  @Option(
      names = "--producer",
      required = true,
      paramLabel = "P",
      description = "none, input, lookup or full-compaction.")
  String producer;

  @Option(
      names = "--rows",
      paramLabel = "N",
      defaultValue = "2000000",
      description = "Upserts to write (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(
      names = "--keys",
      paramLabel = "K",
      defaultValue = "500000",
      description = "Distinct keys (default: ${DEFAULT-VALUE}).")
  long keys;

  @Option(
      names = "--commit-every",
      paramLabel = "C",
      defaultValue = "100000",
      description = "Rows per commit (default: ${DEFAULT-VALUE}).")
  long commitEvery;

  @Option(
      names = "--buckets",
      paramLabel = "B",
      defaultValue = "1",
      description = "Buckets per partition (default: ${DEFAULT-VALUE}).")
  int buckets;

  @Option(
      names = "--partitions",
      paramLabel = "P",
      defaultValue = "1",
      description = "Partitions, by order_id modulo P (default: ${DEFAULT-VALUE}: unpartitioned).")
  int partitions;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      description = "Keep the table under DIR (else a temporary folder).")
  Path warehouse;

  @Override
  public Integer call() throws Exception {
    Path root = warehouse != null ? warehouse : Files.createTempDirectory("changelake-bench");
    try {
      if (buckets < 1 || partitions < 1) {
        throw new IllegalArgumentException(
            "--buckets and --partitions must be at least 1, got " + buckets + " and " + partitions);
      }
      UpsertBenchmark.Result result =
          UpsertBenchmark.run(
              producer,
              new UpsertWorkload(rows, keys, commitEvery, seed),
              root,
              buckets,
              partitions);
      System.out.printf(
          "producer=%s rows=%d keys=%d commit-every=%d buckets=%d partitions=%d: write %.1f s,"
              + " changelog read %.1f s (%d rows), %d files, %d bytes, peak heap %d MiB,"
              + " lookup disk peak %d MiB%n",
          producer,
          rows,
          keys,
          commitEvery,
          buckets,
          partitions,
          result.writeSeconds(),
          result.readSeconds(),
          result.changelogRows(),
          result.files(),
          result.bytes(),
          result.peakHeapBytes() >> 20,
          result.lookupDiskPeakBytes() >> 20);
      System.out.println(result.resultLine());
      return 0;
    } finally {
      if (warehouse == null) {
        TempFolders.delete(root);
      }
    }
  }
}
