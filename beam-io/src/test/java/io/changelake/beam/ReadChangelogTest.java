package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bounded changelog read on the DirectRunner: the seed story gives the aggregate each producer
 * promises, and random streams read in several ranges replay to the final table.
 */
class ReadChangelogTest {

  @TempDir java.nio.file.Path warehouse;

  private ReadChangelog changelog() {
    return ChangelakeIO.readChangelog()
        .from(warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table());
  }

  private Map<Long, Long> sumPerStore(ReadChangelog read) {
    Pipeline pipeline = Pipeline.create();
    CollectedRows<KV<Long, Long>> sums = new CollectedRows<>();
    sums.collect(SeedTables.sumPerStore(pipeline.apply(read)));
    pipeline.run().waitUntilFinish();
    Map<Long, Long> byStore = new HashMap<>();
    sums.elements().forEach(kv -> byStore.put(kv.getKey(), kv.getValue()));
    return byStore;
  }

  @ParameterizedTest(name = "{0}, complete input {1}, normalize {2}: SUM {3}")
  @CsvSource({
    "lookup, false, false, 80",
    "full-compaction, false, false, 80",
    "input, true, false, 80",
    "none, false, false, 180",
    "none, false, true, 80"
  })
  void seedStorySumsPerStoreAsTheProducerPromises(
      String producer, boolean completeInput, boolean normalize, long expectedSum)
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", producer));
      SeedTables.writeSeedStory(table, completeInput);
      long latest = table.snapshots().latestId().orElseThrow();
      ReadChangelog read = changelog().betweenSnapshots(0, latest);
      assertEquals(Map.of(10L, expectedSum), sumPerStore(normalize ? read.withNormalize() : read));
    }
  }

  @Test
  void readMetricsCountTheLookupCorrectionAsOneRetractionAndOneUpdate() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "lookup"));
      SeedTables.writeSeedStory(table, false);
      long latest = table.snapshots().latestId().orElseThrow();
      Pipeline pipeline = Pipeline.create();
      pipeline.apply(changelog().betweenSnapshots(0, latest));
      PipelineResult result = pipeline.run();
      result.waitUntilFinish();
      // The story: order 1001 at 100, corrected to 80.
      assertEquals(1, readCounter(result, "rowsInsert"));
      assertEquals(1, readCounter(result, "rowsUpdateBefore"));
      assertEquals(1, readCounter(result, "rowsUpdateAfter"));
      assertEquals(0, readCounter(result, "rowsDelete"));
      assertEquals(latest, readCounter(result, "snapshotsSeen"));
    }
  }

  private static long readCounter(PipelineResult result, String name) {
    return BatchWriteTest.counter(result, ReadMetrics.NAMESPACE, name);
  }

  @Test
  void latestFullReadsTheStateAsInsertsThenLaterChanges() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "lookup"));
      SeedTables.writeSeedStory(table, false);
      long latest = table.snapshots().latestId().orElseThrow();
      // Nothing after the latest snapshot: only its state, one +I of 80.
      Pipeline pipeline = Pipeline.create();
      CollectedRows<Row> rows = new CollectedRows<>();
      rows.collect(pipeline.apply(changelog().latestFull().untilSnapshot(latest)));
      pipeline.run().waitUntilFinish();
      assertEquals(
          List.of("+I 1001 10 80"),
          rows.elements().stream()
              .map(
                  r ->
                      r.getString("_row_kind")
                          + " "
                          + r.getInt64("order_id")
                          + " "
                          + r.getInt64("store_id")
                          + " "
                          + r.getInt64("amount"))
              .toList());
    }
  }

  /**
   * Random change streams in 9 commits, read as three bounded ranges: adding every add and
   * subtracting every retraction leaves exactly the final table, row for row. The normalize step
   * keeps its state inside one pipeline, so that case reads all snapshots in one range.
   */
  @ParameterizedTest(name = "{0}, normalize {1}")
  @CsvSource({"lookup, false", "full-compaction, false", "input, false", "none, true"})
  void randomStreamsReadInRangesReplayToTheFinalTable(String producer, boolean normalize)
      throws Exception {
    for (long seed = 1; seed <= 2; seed++) {
      java.nio.file.Path folder = warehouse.resolve(producer + "-" + seed);
      try (LocalObjectStore store = new LocalObjectStore(folder)) {
        Table table = SeedTables.create(store, Map.of("changelog-producer", producer));
        TreeMap<Long, Object[]> state = new TreeMap<>();
        SeedTables.writeRandomChanges(table, state, new Random(seed), 1, 9);
        long latest = table.snapshots().latestId().orElseThrow();
        long third = latest / 3;
        long[][] ranges =
            normalize
                ? new long[][] {{0, latest}}
                : new long[][] {{0, third}, {third, 2 * third}, {2 * third, latest}};
        Map<List<Object>, Integer> net = new HashMap<>();
        for (long[] range : ranges) {
          ReadChangelog read =
              ChangelakeIO.readChangelog()
                  .from(folder.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table())
                  .betweenSnapshots(range[0], range[1]);
          Pipeline pipeline = Pipeline.create();
          CollectedRows<Row> rows = new CollectedRows<>();
          rows.collect(pipeline.apply(normalize ? read.withNormalize() : read));
          pipeline.run().waitUntilFinish();
          for (Row r : rows.elements()) {
            List<Object> values =
                Arrays.asList(r.getInt64("order_id"), r.getInt64("store_id"), r.getInt64("amount"));
            boolean adds = RowKind.fromShortString(r.getString("_row_kind")).isAdd();
            net.merge(values, adds ? 1 : -1, Integer::sum);
          }
        }
        net.values().removeIf(count -> count == 0);
        Map<List<Object>, Integer> expected = new HashMap<>();
        for (Object[] row : table.newRead().readAll()) {
          expected.put(Arrays.asList(row), 1);
        }
        assertFalse(expected.isEmpty());
        assertEquals(expected, net, producer + " seed " + seed);
      }
    }
  }

  /**
   * A read of some columns, in an order of their own and without the key, emits the changes of a
   * read of every column cut down to those columns, and no other field but the row kind.
   */
  @Test
  void aReadOfSomeColumnsEmitsEveryChangeCutDownToThem() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "lookup"));
      SeedTables.writeRandomChanges(table, new TreeMap<>(), new Random(3), 1, 6);
      long latest = table.snapshots().latestId().orElseThrow();
      List<Row> every = collect(changelog().betweenSnapshots(0, latest));
      List<Row> some =
          collect(changelog().betweenSnapshots(0, latest).withColumns("amount", "store_id"));
      assertEquals(
          List.of("amount", "store_id", "_row_kind"), some.get(0).getSchema().getFieldNames());
      assertEquals(amountsAndStores(every), amountsAndStores(some));
    }
  }

  private static List<Row> collect(ReadChangelog read) {
    Pipeline pipeline = Pipeline.create();
    CollectedRows<Row> rows = new CollectedRows<>();
    rows.collect(pipeline.apply(read));
    pipeline.run().waitUntilFinish();
    return rows.elements();
  }

  private static List<String> amountsAndStores(List<Row> rows) {
    List<String> changes = new ArrayList<>();
    for (Row r : rows) {
      changes.add(
          r.getString("_row_kind") + " " + r.getInt64("amount") + " " + r.getInt64("store_id"));
    }
    changes.sort(null);
    assertFalse(changes.isEmpty());
    return changes;
  }

  /** The changes the storage-level scan reads for snapshots after {@code from} to {@code to}. */
  static List<String> storageChangelog(Table table, long from, long to) throws Exception {
    ChangelogScan scan = table.newChangelogScan();
    List<String> changes = new ArrayList<>();
    for (ChangelogTask task : scan.between(from, to)) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          KeyValue kv = reader.next();
          changes.add(
              "s" + task.snapshotId() + " " + kv.kind().shortString() + Arrays.asList(kv.value()));
        }
      }
    }
    changes.sort(null);
    return changes;
  }
}
