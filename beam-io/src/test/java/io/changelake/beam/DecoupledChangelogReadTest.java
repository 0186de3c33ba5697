package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.SnapshotLog;
import io.changelake.table.Table;
import io.changelake.types.RowKind;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code readChangelog()} from the first snapshot of a table whose commits expired all but two
 * snapshots, with a longer changelog retention: the read goes on through the long-lived changelogs
 * and its changes add up to the final table.
 */
class DecoupledChangelogReadTest {

  @TempDir java.nio.file.Path warehouse;

  @Test
  void aReadFromAnExpiredSnapshotGoesOnThroughTheLongLivedChangelogs() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          SeedTables.create(
              store,
              Map.of(
                  "changelog-producer", "lookup",
                  "snapshot.num-retained.min", "1",
                  "snapshot.num-retained.max", "2",
                  "changelog.num-retained.max", "100"));
      SeedTables.writeRandomChanges(table, new TreeMap<>(), new Random(5), 1, 9);
      long latest = table.snapshots().latestId().orElseThrow();
      assertEquals(latest - 1, table.snapshots().earliestId().orElseThrow());
      SnapshotLog changelogs = SnapshotLog.changelogs(store, table.path());
      assertEquals(1, changelogs.earliestId().orElseThrow());

      Pipeline pipeline = Pipeline.create();
      CollectedRows<Row> rows = new CollectedRows<>();
      rows.collect(
          pipeline.apply(
              ChangelakeIO.readChangelog()
                  .from(
                      warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table())
                  .betweenSnapshots(0, latest)));
      pipeline.run().waitUntilFinish();
      Map<List<Object>, Integer> net = new HashMap<>();
      for (Row r : rows.elements()) {
        List<Object> values =
            Arrays.asList(r.getInt64("order_id"), r.getInt64("store_id"), r.getInt64("amount"));
        boolean adds = RowKind.fromShortString(r.getString("_row_kind")).isAdd();
        net.merge(values, adds ? 1 : -1, Integer::sum);
      }
      net.values().removeIf(count -> count == 0);
      Map<List<Object>, Integer> expected = new HashMap<>();
      for (Object[] row : table.newRead().readAll()) {
        expected.put(Arrays.asList(row), 1);
      }
      assertTrue(!expected.isEmpty());
      assertEquals(expected, net);
    }
  }
}
