package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Orders;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonTables;
import io.changelake.table.Table;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.Count;
import org.apache.beam.sdk.values.PCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints the changelog read rate of the DirectRunner pipeline next to the storage-level scan it is
 * built on and Paimon 1.3.1's own streaming read of the same table. No timing is asserted: the
 * figures are for reading, and the DirectRunner (single process, checks every element's coder) is
 * far from a production runner. {@code -Dchangelake.benchmark.rows=N} sets the size.
 */
class ChangelogReadBenchmark {

  @TempDir java.nio.file.Path warehouse;

  @Test
  void printsChangelogReadRates() throws Exception {
    int rows = Integer.getInteger("changelake.benchmark.rows", 50_000);
    int commits = 10;
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "input", "bucket", "4"));
      try (TableWriter writer = table.newWriter()) {
        for (int c = 1; c <= commits; c++) {
          for (long i = 0; i < rows / commits; i++) {
            long key = (c - 1L) * (rows / commits) + i;
            writer.write(RowKind.INSERT, Orders.row(key, key % 100, key % 1000));
          }
          table.newCommit("bench").commit(c, writer.prepareCommit(c));
        }
      }
      long latest = table.snapshots().latestId().orElseThrow();

      long start = System.nanoTime();
      long storageRows = 0;
      ChangelogScan scan = table.newChangelogScan();
      for (ChangelogTask task : scan.between(0, latest)) {
        try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
          while (reader.hasNext()) {
            reader.next();
            storageRows++;
          }
        }
      }
      double storageSeconds = seconds(start);

      // What a reader does per record besides the runner's share: the scan, then the emitted Row.
      OutputShape shape =
          new OutputShape(table.schema().rowType(), List.of(), "_row_kind", null, null);
      shape.follow(table.schema(), "bench");
      start = System.nanoTime();
      long[] rowFields = {0};
      for (ChangelogTask task : scan.between(0, latest)) {
        scan.read(
            task, change -> rowFields[0] += shape.toRow(change, task.snapshotId()).getFieldCount());
      }
      double rowSeconds = seconds(start);

      start = System.nanoTime();
      int paimonRows =
          PaimonStreams.changelog(
                  PaimonTables.open(warehouse.resolve(SeedTables.ORDERS.root())), table.schema(), 1)
              .size();
      double paimonSeconds = seconds(start);

      start = System.nanoTime();
      Pipeline pipeline = Pipeline.create();
      PCollection<Long> count =
          pipeline
              .apply(
                  ChangelakeIO.readChangelog()
                      .from(
                          warehouse.toString(),
                          SeedTables.ORDERS.database(),
                          SeedTables.ORDERS.table())
                      .betweenSnapshots(0, latest))
              .apply(Count.globally());
      CollectedRows<Long> counted = new CollectedRows<>();
      counted.collect(count);
      pipeline.run().waitUntilFinish();
      double beamSeconds = seconds(start);

      assertEquals(rows, storageRows);
      assertEquals(4L * rows, rowFields[0]);
      assertEquals(rows, paimonRows);
      assertEquals(List.of((long) rows), counted.elements());
      System.out.printf(
          "changelog read of %d rows in %d snapshots, 4 buckets:%n"
              + "  storage-level ChangelogScan  %10.0f rows/s%n"
              + "  the scan and its Beam Rows   %10.0f rows/s (what ReadTaskFn does per record)%n"
              + "  Paimon 1.3.1 streaming read  %10.0f rows/s%n"
              + "  Beam DirectRunner pipeline   %10.0f rows/s (pipeline start included)%n",
          rows,
          latest,
          rows / storageSeconds,
          rows / rowSeconds,
          rows / paimonSeconds,
          rows / beamSeconds);
    }
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
