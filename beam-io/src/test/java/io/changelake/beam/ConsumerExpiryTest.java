package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshot expiry with a lagging consumer keeps every snapshot the consumer has yet to read, and
 * the consumer resumes through them; a read without a consumer from an expired snapshot fails
 * naming it.
 */
class ConsumerExpiryTest {

  @TempDir java.nio.file.Path warehouse;

  private List<String> read(ReadChangelog read) {
    Pipeline pipeline = Pipeline.create();
    CollectedRows<Row> rows = new CollectedRows<>();
    rows.collect(pipeline.apply(read.withSnapshotIdField("snapshot")));
    pipeline.run().waitUntilFinish();
    return rows.elements().stream().map(SeedTables::change).sorted().toList();
  }

  private ReadChangelog changelog() {
    return ChangelakeIO.readChangelog()
        .from(warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table());
  }

  @Test
  void expiryKeepsWhatALaggingConsumerNeedsAndAnExpiredStartFails() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          SeedTables.create(
              store,
              Map.of(
                  "changelog-producer", "input",
                  "snapshot.num-retained.min", "1",
                  "snapshot.num-retained.max", "2"));
      // The reader is registered before the writes: every commit expires snapshots, and keeps
      // those the consumer has yet to read.
      table.consumers().record("lagging", 1);
      TreeMap<Long, Object[]> state = new TreeMap<>();
      Random random = new Random(5);
      SeedTables.writeRandomChanges(table, state, random, 1, 8);

      read(changelog().betweenSnapshots(0, 3).withConsumerId("lagging"));
      assertEquals(OptionalLong.of(4), table.consumers().nextSnapshot("lagging"));

      SeedTables.writeRandomChanges(table, state, random, 9, 4);
      long latest = table.snapshots().latestId().orElseThrow();
      List<String> expected = ReadChangelogTest.storageChangelog(table, 3, latest);
      table.newSnapshotExpiry().expire();
      assertEquals(OptionalLong.of(4), table.snapshots().earliestId());

      // The consumer's progress wins over fromSnapshot(1): it resumes at 4, which expiry kept.
      ReadChangelog resumed =
          changelog().fromSnapshot(1).untilSnapshot(latest).withConsumerId("lagging");
      assertEquals(expected, read(resumed));
      assertEquals(OptionalLong.of(latest + 1), table.consumers().nextSnapshot("lagging"));

      Exception e =
          assertThrows(
              Exception.class, () -> read(changelog().fromSnapshot(1).untilSnapshot(latest)));
      assertTrue(Failures.messages(e).contains("snapshot 1 of"), Failures.messages(e));
      assertTrue(Failures.messages(e).contains("has expired"), Failures.messages(e));
    }
  }
}
