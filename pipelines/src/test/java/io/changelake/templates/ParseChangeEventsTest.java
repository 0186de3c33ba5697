package io.changelake.templates;

import io.changelake.beam.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Kafka event's change rows are the rows Beam's own builder makes of what its Debezium event
 * holds, with the event's position appended, through the RowCoder the runner encodes them with:
 * whether they went through the builder or took the values as parsed.
 */
class ParseChangeEventsTest {

  /** Columns of every kind: rows that go through Beam's builder, which converts. */
  private static final String EVERY_KIND =
      "order_id:BIGINT,amount:DECIMAL(12,2),note:STRING,at:TIMESTAMP,day:DATE,"
          + "seen:TIMESTAMP_LTZ,raw:BYTES,open:BOOLEAN,qty:INT,ratio:DOUBLE";

  /** Numbers, booleans and strings alone: rows that take the values as parsed. */
  private static final String PLAIN =
      "order_id:BIGINT,note:STRING,open:BOOLEAN,qty:INT,ratio:DOUBLE";

  private static final String UPDATE =
      "{\"before\":{\"order_id\":1001,\"amount\":\"100.00\",\"note\":\"first\","
          + "\"at\":1700000000000001,\"day\":19000,\"seen\":\"2026-12-06T01:02:03.456789Z\","
          + "\"raw\":\"AQID\",\"open\":true,\"qty\":3,\"ratio\":0.5},"
          + "\"after\":{\"order_id\":1001,\"amount\":\"80.50\",\"note\":null,"
          + "\"at\":1700000000000002,\"day\":19001,\"seen\":\"2026-12-06T01:02:04Z\","
          + "\"raw\":\"BAU=\",\"open\":false,\"qty\":4,\"ratio\":0.25},\"op\":\"u\","
          + "\"source\":{\"connector\":\"postgresql\",\"lsn\":24023128}}";

  @ParameterizedTest
  @ValueSource(strings = {EVERY_KIND, PLAIN})
  void aKafkaEventsChangeRowsAreThoseBeamsBuilderMakesWithItsPositionAppended(String columns)
      throws Exception {
    DebeziumEvents debezium =
        new DebeziumEvents(
            TableColumns.parse(columns, List.of("order_id")), ColumnType.Unit.MICROS);
    ParseChangeEvents parse = new ParseChangeEvents(debezium, true, "shop.orders");
    Row position = SourcePosition.of("orders-0", 5L);
    List<Row> expected = new ArrayList<>();
    for (Row row : debezium.rows(UPDATE, 5L)) {
      expected.add(
          Row.withSchema(parse.changeSchema())
              .addValues(row.getValues())
              .addValue(position)
              .build());
    }

    Pipeline pipeline = Pipeline.create();
    PCollection<Row> changes =
        pipeline
            .apply(
                Create.of(KV.of(UPDATE, position))
                    .withCoder(
                        KvCoder.of(StringUtf8Coder.of(), RowCoder.of(SourcePosition.SCHEMA))))
            .apply(parse)
            .get(ParseChangeEvents.CHANGES);

    PAssert.that(changes).containsInAnyOrder(expected);
    pipeline.run().waitUntilFinish();
  }
}
