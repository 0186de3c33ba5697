package io.changelake.beam;

import static org.junit.Assert.assertEquals;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Rows;
import io.changelake.table.Table;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A stream with 1% bad rows (a null primary key, an unknown row kind, a value longer than its
 * VARCHAR(5) column of a table that exists before the write): all good rows are written, each bad
 * one is a dead letter with its reason, and the pipeline does not fail.
 */
public class DeadLetterTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final Schema SCHEMA =
      Schema.builder()
          .addNullableField("order_id", Schema.FieldType.INT64)
          .addNullableField("code", Schema.FieldType.STRING)
          .addStringField("op")
          .build();

  @Test
  public void badRowsBecomeDeadLettersWithTheirReason() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      RowType columns =
          RowType.of(
              new String[] {"order_id", "code"},
              new DataType[] {DataType.bigint().notNull(), DataType.varchar(5)});
      Table.create(
          store,
          OrderRows.PATH,
          TableSchema.create(columns, List.of(), List.of("order_id"), Map.of("bucket", "2"), null));
    }
    List<Row> rows = new ArrayList<>();
    List<Object[]> expected = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (long i = 0; i < 3000; i++) {
      if (i % 300 == 0) {
        rows.add(Row.withSchema(SCHEMA).addValues(null, "a", "+I").build());
        reasons.add("column 'order_id' is NOT NULL (primary key) but the row has null there");
      } else if (i % 300 == 100) {
        rows.add(Row.withSchema(SCHEMA).addValues(i, "a", "*U").build());
        reasons.add("'*U' is not a row kind: use +I, -U, +U or -D");
      } else if (i % 300 == 200) {
        rows.add(Row.withSchema(SCHEMA).addValues(i, "toolong", "+I").build());
        reasons.add(
            "column 'code' of type VARCHAR(5) takes at most 5, got a value of 7 characters");
      } else {
        rows.add(Row.withSchema(SCHEMA).addValues(i, "c" + i % 100, "+I").build());
        expected.add(new Object[] {i, "c" + i % 100});
      }
    }
    TestStream<Row> events =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(rows.get(0), rows.subList(1, 1500).toArray(new Row[0]))
            .advanceProcessingTime(Duration.standardSeconds(11))
            .addElements(rows.get(1500), rows.subList(1501, rows.size()).toArray(new Row[0]))
            .advanceProcessingTime(Duration.standardSeconds(11))
            .advanceWatermarkToInfinity();
    PCollection<BadRecord> deadLetters =
        pipeline
            .apply(events)
            .apply(
                ChangelakeIO.write()
                    .to(warehouse, OrderRows.PATH.database(), OrderRows.PATH.table())
                    .withRowKindField("op")
                    .withArrivalOrder())
            .getDeadLetters();
    PAssert.that(
            deadLetters.apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(d -> d.getFailure().getDescription())))
        .containsInAnyOrder(reasons);
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    assertEquals(reasons.size(), BatchWriteTest.counter(result, "deadLetters"));
    Rows.assertSameRows(expected, OrderRows.readAll(warehouse, S3Settings.defaults()));
  }

  @Test
  public void aSettingThatCannotWorkFailsWhenAppliedNamingIt() {
    PCollection<Row> input =
        pipeline.apply(
            TestStream.create(RowCoder.of(OrderRows.SCHEMA)).advanceWatermarkToInfinity());
    String warehouse = folder.getRoot().toString();
    assertMessage(
        "to(warehouse, database, table) is required",
        () -> input.apply(ChangelakeIO.write().withPrimaryKeys(List.of("order_id"))));
    assertMessage(
        "withRowKindField('kind')",
        () -> input.apply(OrderRows.write(warehouse, Map.of()).withRowKindField("kind")));
    assertMessage(
        "primary key 'id' is not a column",
        () -> input.apply(OrderRows.write(warehouse, Map.of()).withPrimaryKeys(List.of("id"))));
    assertMessage(
        "'bucket'", () -> input.apply(OrderRows.write(warehouse, Map.of("bucket", "many"))));
    assertMessage(
        "withBuckets(3) and table option 'bucket'=2 disagree",
        () -> input.apply(OrderRows.write(warehouse, Map.of("bucket", "2")).withBuckets(3)));
    assertMessage(
        "withCommitInterval",
        () -> input.apply(OrderRows.write(warehouse, Map.of()).withCommitInterval(Duration.ZERO)));
    pipeline.enableAbandonedNodeEnforcement(false);
  }

  static void assertMessage(String expected, Runnable apply) {
    try {
      apply.run();
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().contains(expected)
          || !e.getMessage().startsWith("ChangelakeIO.write()")) {
        throw new AssertionError(
            "expected a message with \"" + expected + "\", got: " + e.getMessage());
      }
      return;
    }
    throw new AssertionError("no error; expected one with \"" + expected + "\"");
  }
}
