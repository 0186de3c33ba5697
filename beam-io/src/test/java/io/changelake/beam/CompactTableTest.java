package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.ManifestEntry;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.DedicatedCompaction;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dedicated compaction pipeline compacts a write-only table and changes none of its rows. */
class CompactTableTest {

  @TempDir Path warehouse;

  @Test
  void aCompactionPipelineLiftsEveryFileOfAWriteOnlyTableAndKeepsItsRows() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          SeedTables.create(store, Map.of("write-only", "true", "changelog-producer", "lookup"));
      TreeMap<Long, Object[]> state = new TreeMap<>();
      SeedTables.writeRandomChanges(table, state, new Random(3), 1, 6);

      Pipeline pipeline = Pipeline.create();
      CollectedRows<Long> committed = new CollectedRows<>();
      committed.collect(
          pipeline.apply(
              ChangelakeIO.compact()
                  .from(
                      warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table())
                  .full()));
      pipeline.run().waitUntilFinish();

      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals(List.of(latest.id()), committed.elements());
      assertEquals(DedicatedCompaction.COMMIT_USER, latest.commitUser());
      int top = table.options().numLevels() - 1;
      for (ManifestEntry e : table.newScan().liveFiles(latest)) {
        assertEquals(top, e.file().level(), e.file().fileName());
      }
      assertEquals(
          state.values().stream().map(java.util.Arrays::toString).sorted().toList(),
          table.newRead().readAll().stream().map(java.util.Arrays::toString).sorted().toList());
    }
  }
}
