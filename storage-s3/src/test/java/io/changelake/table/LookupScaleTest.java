package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.bench.HeapPeak;
import io.changelake.mergetree.lookup.LookupCache;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lookup producer over millions of distinct keys in one bucket (or {@code lookup.buckets} of
 * them, one writer each in this JVM, as a worker hosts them), through {@link TableWriter} and with
 * default options: every commit looks up each of its keys in everything written before, so this is
 * where a lookup that held the bucket on the heap would run out of memory. Prints the time, rows/s,
 * peak heap (the most heap in use after a garbage collection, {@link HeapPeak}) and the peak local
 * disk of the lookup copies; asserts only that the changelog has one +I per key.
 *
 * <p>Skipped unless {@code lookup.keys} is set (empty means 10,000,000). To run it as the issue
 * asks, with a 1 GiB heap:
 *
 * <pre>
 * mvn -B -o test -pl storage-s3 -Dtest=LookupScaleTest -Dlookup.keys=50000000 -DargLine=-Xmx1g
 * mvn -B -o test -pl storage-s3 -Dtest=LookupScaleTest -Dlookup.keys=100000000 -Dlookup.buckets=16 -DargLine=-Xmx2g
 * </pre>
 */
class LookupScaleTest {

  private static final int ROWS_PER_COMMIT = 1_000_000;

  @TempDir Path warehouse;

  @Test
  @EnabledIfSystemProperty(named = "lookup.keys", matches = "\\d*")
  void lookupOverManyDistinctKeysFinishesWithinTheHeap() throws Exception {
    String property = System.getProperty("lookup.keys");
    long keys = property.isEmpty() ? 10_000_000L : Long.parseLong(property);
    String buckets = System.getProperty("lookup.buckets", "1");
    HeapPeak.reset();
    long start = System.nanoTime();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              new TablePath("db", "orders"),
              Orders.schema(Map.of("changelog-producer", "lookup", "bucket", buckets)));
      SnapshotCommit commit = table.newCommit("scale");
      long written = 0;
      try (TableWriter writer = table.newWriter()) {
        for (long id = 1; written < keys; id++) {
          long commitStart = System.nanoTime();
          long end = Math.min(keys, written + ROWS_PER_COMMIT);
          for (; written < end; written++) {
            writer.write(RowKind.INSERT, Orders.row(scatter(written), written % 100, written));
          }
          commit.commit(id, writer.prepareCommit(id));
          System.out.printf(
              "commit %d: %,d keys in total, %.1f s for this commit, heap peak so far %d MiB%n",
              id, written, (System.nanoTime() - commitStart) / 1e9, HeapPeak.bytes() >> 20);
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          "RESULT lookup keys=%d buckets=%s seconds=%.1f rows_per_s=%.0f heap_peak_mib=%d"
              + " max_heap_mib=%d lookup_disk_peak_mib=%d%n",
          keys,
          buckets,
          seconds,
          keys / seconds,
          HeapPeak.bytes() >> 20,
          Runtime.getRuntime().maxMemory() >> 20,
          LookupCache.sharedStats().peakDiskBytes() >> 20);
      System.out.println("  lookup cache: " + LookupCache.sharedStats());
      assertEquals(keys, insertsInChangelog(table));
    }
  }

  /**
   * Distinct keys in no particular order (multiplying by an odd constant is a bijection of the
   * longs), so every commit's keys fall among those already written, as real keys would.
   */
  private static long scatter(long index) {
    return (index + 1) * 0x9E3779B97F4A7C15L;
  }

  /** Counts the changelog's +I rows without keeping them. */
  private static long insertsInChangelog(Table table) throws Exception {
    ChangelogScan scan = table.newChangelogScan();
    long inserts = 0;
    List<ChangelogTask> tasks = scan.between(0, table.snapshots().latestId().orElseThrow());
    for (ChangelogTask task : tasks) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          inserts += reader.next().kind() == RowKind.INSERT ? 1 : 0;
        }
      }
    }
    return inserts;
  }
}
