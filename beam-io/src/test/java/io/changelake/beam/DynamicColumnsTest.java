package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows that carry columns beyond their Beam schema: under {@code withSchemaEvolution()} the write
 * adds and widens the table's columns while it runs and writes the values; a kind change, and any
 * change without the option, is a dead letter with the reason.
 */
class DynamicColumnsTest {

  private static final TablePath ITEMS = new TablePath("shop", "items");

  private static final Schema INPUT =
      Schema.builder()
          .addInt64Field("id")
          .addNullableField("qty", FieldType.INT32)
          .addField("more", DynamicColumns.FIELD_TYPE)
          .build();

  @TempDir java.nio.file.Path warehouse;

  private static Row row(long id, Integer qty, Map<String, Row> more) {
    return Row.withSchema(INPUT).addValues(id, qty, more).build();
  }

  /** Writes the rows; returns the dead letters' reasons, sorted. */
  private List<String> write(boolean evolve, Row... rows) {
    Pipeline pipeline = Pipeline.create();
    ChangelakeWrite write =
        ChangelakeIO.write()
            .to(warehouse.toString(), ITEMS.database(), ITEMS.table())
            .withPrimaryKeys(List.of("id"))
            .withBuckets(2);
    CollectedRows<String> reasons = new CollectedRows<>();
    reasons.collect(
        pipeline
            .apply(Create.of(Arrays.asList(rows)).withRowSchema(INPUT))
            .apply(evolve ? write.withSchemaEvolution() : write)
            .getDeadLetters()
            .apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(d -> d.getFailure().getDescription())));
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
    return reasons.elements().stream().sorted().toList();
  }

  private List<String> table() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, ITEMS);
      return List.of(
          table.schema().rowType().fields().stream()
              .map(f -> f.name() + " " + f.type())
              .toList()
              .toString(),
          table.newRead().readAll().stream().map(Arrays::toString).sorted().toList().toString());
    }
  }

  @Test
  void withSchemaEvolutionTheRowsAddAndWidenColumnsAndAKindChangeIsADeadLetter() throws Exception {
    List<String> dead =
        write(
            true,
            row(1, 5, null),
            row(2, 6, Map.of("remark", DynamicColumns.value(FieldType.STRING, "gift"))),
            row(3, null, Map.of("qty", DynamicColumns.value(FieldType.INT64, 5_000_000_000L))),
            row(4, 8, Map.of("qty", DynamicColumns.value(FieldType.STRING, "eight"))));

    // The column is INT or BIGINT, as the worker saw it when the row came.
    assertEquals(1, dead.size(), dead.toString());
    assertTrue(
        dead.get(0)
            .matches(
                "dynamic column 'qty' is STRING but column 'qty' is (INT|BIGINT), which cannot widen"
                    + " to it: that would narrow the column or change its kind"),
        dead.get(0));
    assertEquals(
        List.of(
            "[id BIGINT NOT NULL, qty BIGINT, remark STRING]",
            "[[1, 5, null], [2, 6, gift], [3, 5000000000, null]]"),
        table());

    // A narrower value fills the wider column; an existing column takes its entry as it is.
    assertEquals(
        List.of(),
        write(
            false,
            row(5, null, Map.of("qty", DynamicColumns.value(FieldType.INT32, 9))),
            row(6, 1, Map.of("remark", DynamicColumns.value(FieldType.STRING, "late")))));
    assertEquals(
        "[[1, 5, null], [2, 6, gift], [3, 5000000000, null], [5, 9, null], [6, 1, late]]",
        table().get(1));
  }

  @Test
  void withoutSchemaEvolutionAnEntryTheTableCannotTakeIsADeadLetter() throws Exception {
    List<String> dead =
        write(
            false,
            row(1, 5, null),
            row(2, 6, Map.of("remark", DynamicColumns.value(FieldType.STRING, "gift"))));
    assertEquals(
        List.of(
            "the row's dynamic columns would need [add column remark STRING]: write with"
                + " withSchemaEvolution() to apply them"),
        dead);
    assertEquals("[[1, 5]]", table().get(1));
  }
}
