package io.changelake.cli;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The write-and-read benchmark of one changelog producer on local disk. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Writes N upserts over K uniformly random keys into a one-bucket table on local disk,"
          + " committing every C rows, then reads the changelog from snapshot 1.",
      "Ends with: RESULT producer=P rows=N write_rows_per_s=X read_rows_per_s=Y bytes=B files=F"
    })
final class BenchCommand implements Callable<Integer> {

  @Option(names = "--producer", required = true, paramLabel = "P",
      description = "none, input, lookup or full-compaction.")
  String producer;

  @Option(names = "--rows", paramLabel = "N", defaultValue = "2000000",
      description = "Upserts to write (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(names = "--keys", paramLabel = "K", defaultValue = "500000",
      description = "Distinct keys (default: ${DEFAULT-VALUE}).")
  long keys;

  @Option(names = "--commit-every", paramLabel = "C", defaultValue = "100000",
      description = "Rows per commit (default: ${DEFAULT-VALUE}).")
  long commitEvery;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--warehouse", paramLabel = "DIR",
      description = "Keep the table under DIR (else a temporary folder).")
  Path warehouse;

  @Override
  public Integer call() throws Exception {
    Path root = warehouse != null ? warehouse : Files.createTempDirectory("changelake-bench");
    try {
      UpsertBenchmark.Result result =
          UpsertBenchmark.run(producer, new UpsertWorkload(rows, keys, commitEvery, seed), root);
      System.out.printf(
          "producer=%s rows=%d keys=%d commit-every=%d: write %.1f s, changelog read %.1f s"
              + " (%d rows), %d files, %d bytes, peak heap %d MiB%n",
          producer, rows, keys, commitEvery, result.writeSeconds(), result.readSeconds(),
          result.changelogRows(), result.files(), result.bytes(), result.peakHeapBytes() >> 20);
      System.out.println(result.resultLine());
      return 0;
    } finally {
      if (warehouse == null) {
        TempFolders.delete(root);
      }
    }
  }
}
