package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.changelake.table.Orders;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonTables;
import io.changelake.table.TableSchema;
import io.changelake.types.RowKind;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.Row;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A table written by Paimon 1.3.1 itself reads, through Beam, as Paimon's own streaming read. */
class PaimonWrittenTableTest {

  @TempDir java.nio.file.Path warehouse;

  /** Random upserts, updates (as -U, +U) and deletes over 30 keys, 12 per commit. */
  static void writeRandomChanges(PaimonStreams.Writer writer, long seed, int commits)
      throws Exception {
    Random random = new Random(seed);
    TreeMap<Long, Object[]> state = new TreeMap<>();
    for (int c = 0; c < commits; c++) {
      for (int i = 0; i < 12; i++) {
        long key = random.nextInt(30);
        Object[] old = state.get(key);
        Object[] row = Orders.row(key, (long) random.nextInt(4), (long) random.nextInt(1000));
        if (old == null) {
          writer.write(RowKind.INSERT, row);
          state.put(key, row);
        } else if (random.nextInt(4) == 0) {
          writer.write(RowKind.DELETE, old);
          state.remove(key);
        } else {
          writer.write(RowKind.UPDATE_BEFORE, old);
          writer.write(RowKind.UPDATE_AFTER, row);
          state.put(key, row);
        }
      }
      writer.commit();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction"})
  void changelogOfAPaimonWrittenTableIsPaimonsOwnStreamingRead(String producer) throws Exception {
    TableSchema schema =
        Orders.schema(Map.of("bucket", "2", "changelog-producer", producer, "lookup-wait", "true"));
    FileStoreTable paimon =
        PaimonTables.create(warehouse.resolve(SeedTables.ORDERS.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(paimon, schema, warehouse.resolve("io"))) {
      writeRandomChanges(writer, producer.hashCode(), 6);
    }
    long latest = paimon.snapshotManager().latestSnapshotId();
    List<String> expected =
        PaimonStreams.changelog(paimon, schema, 1).stream().map(Object::toString).sorted().toList();
    assertFalse(expected.isEmpty());

    Pipeline pipeline = Pipeline.create();
    CollectedRows<Row> rows = new CollectedRows<>();
    rows.collect(
        pipeline.apply(
            ChangelakeIO.readChangelog()
                .from(warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table())
                .betweenSnapshots(0, latest)
                .withSnapshotIdField("snapshot")));
    pipeline.run().waitUntilFinish();
    assertEquals(expected, rows.elements().stream().map(SeedTables::change).sorted().toList());
  }
}
