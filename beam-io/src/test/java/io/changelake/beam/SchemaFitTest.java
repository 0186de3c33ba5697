package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write into an existing table whose columns differ from the input's: refused at {@code expand}
 * naming the columns, or, with {@code withSchemaEvolution()}, the table gains the new columns and
 * widens types before the rows are written; what no alter can bridge is refused either way.
 */
class SchemaFitTest {

  private static final TablePath PATH = new TablePath("shop", "orders");

  @TempDir Path warehouse;

  private void createTableWithOneRow() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              PATH,
              TableSchema.create(
                  new RowType(
                      List.of(
                          new DataField(0, "order_id", DataType.bigint().notNull()),
                          new DataField(1, "store_id", DataType.intType()),
                          new DataField(2, "amount", DataType.bigint()))),
                  List.of(),
                  List.of("order_id"),
                  Map.of("bucket", "1"),
                  null));
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, new Object[] {1L, 10, 100L});
        table.newCommit("test").commit(1, writer.prepareCommit(1));
      }
    }
  }

  private static final Schema WIDER =
      Schema.builder()
          .addInt64Field("order_id")
          .addInt64Field("store_id")
          .addInt64Field("amount")
          .addNullableField("note", Schema.FieldType.STRING)
          .build();

  private ChangelakeWrite write() {
    return ChangelakeIO.write().to(warehouse.toString(), "shop", "orders");
  }

  @Test
  void anInputWithNewAndWiderFieldsIsRefusedAtExpandNamingThem() throws Exception {
    createTableWithOneRow();
    Pipeline pipeline = Upserts.fastPipeline();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                pipeline
                    .apply(Create.of(Row.withSchema(WIDER).addValues(2L, 20L, 5L, "x").build()))
                    .setRowSchema(WIDER)
                    .apply(write()));
    assertTrue(e.getMessage().contains("add column note STRING"), e.getMessage());
    assertTrue(e.getMessage().contains("alter column store_id type BIGINT"), e.getMessage());
    assertTrue(e.getMessage().contains("withSchemaEvolution()"), e.getMessage());
  }

  @Test
  void withSchemaEvolutionTheTableGainsTheColumnsAndWidensBeforeWriting() throws Exception {
    createTableWithOneRow();
    Pipeline pipeline = Upserts.fastPipeline();
    pipeline
        .apply(Create.of(Row.withSchema(WIDER).addValues(2L, 3_000_000_000L, 5L, "x").build()))
        .setRowSchema(WIDER)
        .apply(write().withSchemaEvolution());
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      assertEquals(1, table.schema().id());
      assertEquals(
          "[order_id BIGINT NOT NULL, store_id BIGINT, amount BIGINT, note STRING]",
          table.schema().rowType().fields().stream()
              .map(f -> f.name() + " " + f.type())
              .toList()
              .toString());
      List<Object[]> rows = table.newRead().readAll();
      rows.sort(Comparator.comparing(r -> (Long) r[0]));
      assertArrayEquals(new Object[] {1L, 10L, 100L, null}, rows.get(0));
      assertArrayEquals(new Object[] {2L, 3_000_000_000L, 5L, "x"}, rows.get(1));
    }
  }

  @Test
  void aNarrowingFieldOrAMissingKeyIsRefusedEvenWithSchemaEvolution() throws Exception {
    createTableWithOneRow();
    Schema narrowing =
        Schema.builder().addInt64Field("order_id").addStringField("store_id").build();
    Schema keyless = Schema.builder().addInt64Field("amount").build();
    for (Schema input : List.of(narrowing, keyless)) {
      Pipeline pipeline = Upserts.fastPipeline();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> pipeline.apply(Create.empty(input)).apply(write().withSchemaEvolution()));
      assertTrue(e.getMessage().contains("does not fit table"), e.getMessage());
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      assertEquals(0, Table.open(store, PATH).schema().id());
    }
  }
}
