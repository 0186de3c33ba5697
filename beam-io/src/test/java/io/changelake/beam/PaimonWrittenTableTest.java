package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.changelake.schema.TableSchema;
import io.changelake.table.Orders;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonTables;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.values.Row;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A table written by Paimon 1.3.1 itself reads, through Beam, as Paimon's own streaming read. */
class PaimonWrittenTableTest {

  @TempDir java.nio.file.Path warehouse;

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction"})
  void changelogOfAPaimonWrittenTableIsPaimonsOwnStreamingRead(String producer) throws Exception {
    TableSchema schema =
        Orders.schema(Map.of("bucket", "2", "changelog-producer", producer, "lookup-wait", "true"));
    FileStoreTable paimon =
        PaimonTables.create(warehouse.resolve(SeedTables.ORDERS.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(paimon, schema, warehouse.resolve("io"))) {
      PaimonStreams.writeRandomChanges(writer, producer.hashCode(), 6);
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
