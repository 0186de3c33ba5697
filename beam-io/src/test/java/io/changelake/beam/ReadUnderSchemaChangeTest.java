package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code read()} and {@code readChangelog()} emit when the table's schema changes under a
 * pipeline built before: the construction-time columns, followed by field id (a rename under the
 * old name, a widening its Beam type holds), the added columns only counted; a dropped or
 * out-of-type column fails the read naming it; a new pipeline sees the new schema.
 */
class ReadUnderSchemaChangeTest {

  private static final TablePath ITEMS = new TablePath("shop", "items");

  @TempDir java.nio.file.Path warehouse;

  private static TableSchema items() {
    return TableSchema.create(
        new RowType(
            List.of(
                new DataField(0, "id", DataType.bigint().notNull()),
                new DataField(1, "qty", DataType.intType()),
                new DataField(2, "price", DataType.decimal(10, 2)),
                new DataField(3, "note", DataType.varchar(10)))),
        List.of(),
        List.of("id"),
        Map.of("bucket", "1", "changelog-producer", "lookup"),
        null);
  }

  private static void write(Table table, long commit, RowKind kind, Object[]... rows)
      throws Exception {
    try (TableWriter writer = table.newWriter()) {
      for (Object[] row : rows) {
        writer.write(kind, row);
      }
      table.newCommit("items").commit(commit, writer.prepareCommit(commit));
    }
  }

  private ReadChangelog changelog() {
    return ChangelakeIO.readChangelog()
        .from(warehouse.toString(), ITEMS.database(), ITEMS.table())
        .withPollInterval(Duration.ofMillis(100));
  }

  private static String text(Row row) {
    return row.getSchema().getFieldNames().stream()
        .map(name -> name + "=" + row.getValue(name))
        .collect(Collectors.joining(" "));
  }

  private static void awaitRows(CollectedRows<Row> rows, int expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (rows.size() < expected) {
      if (System.nanoTime() > deadline) {
        fail("the reader emitted " + rows.size() + " of " + expected + ": " + rows.elements());
      }
      Thread.sleep(50);
    }
  }

  @Test
  void aRunningChangelogReadKeepsItsColumnsWhileTheTableIsAlteredAndWritten() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, ITEMS, items());
      write(table, 1, RowKind.INSERT, new Object[] {1L, 5, new BigDecimal("1.50"), "a"});

      DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
      options.setBlockOnRun(false);
      Pipeline pipeline = Pipeline.create(options);
      CollectedRows<Row> rows = new CollectedRows<>();
      rows.collect(pipeline.apply(changelog().fromSnapshot(1)));
      PipelineResult running = pipeline.run();
      try {
        awaitRows(rows, 1);
        Table altered =
            table.alter(
                List.of(
                    new SchemaChange.AddColumn(
                        "remark", DataType.string(), null, ColumnPosition.last()),
                    new SchemaChange.RenameColumn("note", "memo"),
                    new SchemaChange.UpdateColumnType("memo", DataType.varchar(20)),
                    new SchemaChange.UpdateColumnType("price", DataType.decimal(12, 2))));
        write(
            altered,
            2,
            RowKind.INSERT,
            new Object[] {2L, 6, new BigDecimal("1234567890.25"), "a longer memo", "r"},
            new Object[] {1L, 7, new BigDecimal("1.50"), "a", "x"});
        awaitRows(rows, 4);
        Thread.sleep(500);
      } finally {
        running.cancel();
      }
      assertEquals(
          List.of(
              "id=1 qty=5 price=1.50 note=a _row_kind=+I",
              "id=1 qty=5 price=1.50 note=a _row_kind=-U",
              "id=1 qty=7 price=1.50 note=a _row_kind=+U",
              "id=2 qty=6 price=1234567890.25 note=a longer memo _row_kind=+I"),
          rows.elements().stream().map(ReadUnderSchemaChangeTest::text).sorted().toList());
      assertEquals(1, BatchWriteTest.gauge(running, ReadMetrics.NAMESPACE, "columnsNotEmitted"));

      // A pipeline built now reads the new schema.
      Pipeline fresh = Pipeline.create();
      CollectedRows<Row> now = new CollectedRows<>();
      now.collect(
          fresh.apply(
              ChangelakeIO.read().from(warehouse.toString(), ITEMS.database(), ITEMS.table())));
      fresh.run().waitUntilFinish();
      assertEquals(
          List.of(
              "id=1 qty=7 price=1.50 memo=a remark=x",
              "id=2 qty=6 price=1234567890.25 memo=a longer memo remark=r"),
          now.elements().stream().map(ReadUnderSchemaChangeTest::text).sorted().toList());
    }
  }

  /** Builds a read of the table as it is, alters it and writes under the new schema, then runs. */
  private Throwable failureAfter(List<SchemaChange> changes, Object[] row) throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, ITEMS, items());
      write(table, 1, RowKind.INSERT, new Object[] {1L, 5, new BigDecimal("1.50"), "a"});
      Pipeline pipeline = Pipeline.create();
      pipeline.apply(changelog().betweenSnapshots(0, 2));
      write(table.alter(changes), 2, RowKind.INSERT, row);
      return assertThrows(RuntimeException.class, () -> pipeline.run().waitUntilFinish());
    }
  }

  private static String messages(Throwable failure) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }

  @Test
  void aDroppedColumnThePipelineReadsFailsTheReadNamingIt() throws Exception {
    String failure =
        messages(
            failureAfter(
                List.of(new SchemaChange.DropColumn("note")),
                new Object[] {2L, 6, new BigDecimal("2.00")}));
    assertTrue(
        failure.contains(
            "column 'note', which this pipeline reads, was dropped from shop.items in "
                + warehouse
                + " (schema 1, columns [id, qty, price]): rebuild the pipeline"),
        failure);
  }

  @Test
  void aColumnWidenedBeyondItsBeamTypeFailsTheReadNamingIt() throws Exception {
    String failure =
        messages(
            failureAfter(
                List.of(new SchemaChange.UpdateColumnType("qty", DataType.bigint())),
                new Object[] {2L, 5_000_000_000L, new BigDecimal("2.00"), "b"}));
    assertTrue(
        failure.contains(
            "column 'qty' of shop.items in "
                + warehouse
                + " is now qty BIGINT (schema 1), which the Beam field this pipeline emits it as"
                + " (INT32) cannot hold: rebuild the pipeline"),
        failure);
  }
}
