package io.changelake.beam;

import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The ordering contract checked when a write is applied: an unbounded write whose result depends on
 * arrival order is refused unless it names a sequence or states arrival order.
 */
public class UnorderedWriteTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private PCollection<Row> unbounded() {
    return pipeline.apply(
        TestStream.create(RowCoder.of(ShuffledWriteTest.SCHEMA)).advanceWatermarkToInfinity());
  }

  private ChangelakeWrite write(Map<String, String> options) {
    return ChangelakeIO.write()
        .to(folder.getRoot().toString(), "shop", "orders")
        .withPrimaryKeys(List.of("order_id"))
        .withTableOptions(options);
  }

  @Test
  public void anUnboundedWriteOfChangesWithoutASequenceIsRefusedNamingTheFix() {
    PCollection<Row> input = unbounded();
    DeadLetterTest.assertMessage(
        "call withSequenceField(", () -> input.apply(write(Map.of()).withRowKindField("op")));
    DeadLetterTest.assertMessage(
        "or withArrivalOrder()", () -> input.apply("Upserts", write(Map.of())));
    DeadLetterTest.assertMessage(
        "withSequenceField(",
        () ->
            input.apply(
                "LastValue",
                write(
                    Map.of(
                        "merge-engine",
                        "aggregation",
                        "fields.amount.aggregate-function",
                        "sum"))));
    DeadLetterTest.assertMessage(
        "withSequenceField('version'): the input has no such column",
        () -> input.apply("Unknown", write(Map.of()).withSequenceField("version")));
    DeadLetterTest.assertMessage(
        "withSequenceField(seq) and table option 'sequence.field'=amount disagree",
        () ->
            input.apply(
                "Disagree", write(Map.of("sequence.field", "amount")).withSequenceField("seq")));
    pipeline.enableAbandonedNodeEnforcement(false);
  }

  @Test
  public void aSequenceArrivalOrderOrAnOrderFreeAggregateIsAccepted() {
    PCollection<Row> input = unbounded();
    input.apply("Sequenced", write(Map.of()).withRowKindField("op").withSequenceField("seq"));
    input.apply("TableSequence", write(Map.of("sequence.field", "seq")).withRowKindField("op"));
    input.apply("Arrival", write(Map.of()).withRowKindField("op").withArrivalOrder());
    input.apply(
        "Sums",
        write(
            Map.of(
                "merge-engine", "aggregation",
                "fields.store_id.aggregate-function", "max",
                "fields.amount.aggregate-function", "sum",
                "fields.seq.aggregate-function", "sum",
                "fields.op.aggregate-function", "min")));
    pipeline
        .apply("Bounded", Create.empty(RowCoder.of(ShuffledWriteTest.SCHEMA)))
        .apply("BoundedWrite", write(Map.of()).withRowKindField("op"));
    pipeline.enableAbandonedNodeEnforcement(false);
  }

  @Test
  public void anExistingTableOrderedByOtherFieldsFailsWhenOpened() throws Exception {
    String warehouse = folder.getRoot().toString();
    Pipeline create = Pipeline.create(PipelineOptionsFactory.create());
    create
        .apply(
            Create.of(ShuffledWriteTest.row("+I", 1, 1L, 1L, 1))
                .withRowSchema(ShuffledWriteTest.SCHEMA))
        .apply(write(Map.of()).withRowKindField("op").withSequenceField("amount"));
    create.run().waitUntilFinish();

    Pipeline other = Pipeline.create(PipelineOptionsFactory.create());
    other
        .apply(
            Create.of(ShuffledWriteTest.row("+I", 1, 1L, 2L, 2))
                .withRowSchema(ShuffledWriteTest.SCHEMA))
        .apply(
            ChangelakeIO.write()
                .to(warehouse, "shop", "orders")
                .withRowKindField("op")
                .withSequenceField("seq"));
    try {
      other.run().waitUntilFinish();
    } catch (RuntimeException e) {
      Throwable cause = e;
      while (cause.getCause() != null && !(cause instanceof IllegalStateException)) {
        cause = cause.getCause();
      }
      assertTrue(
          String.valueOf(cause.getMessage()),
          cause.getMessage().contains("orders its keys' versions by sequence.field amount"));
      return;
    }
    throw new AssertionError("the write of a table ordered by 'amount' with 'seq' ran");
  }
}
