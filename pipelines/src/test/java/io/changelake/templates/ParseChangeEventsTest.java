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
import org.junit.jupiter.api.Test;

/**
 * A Kafka event's change rows are the rows its Debezium event makes with the event's position
 * appended, as Beam's own builder makes them, through the RowCoder the runner encodes them with.
 */
class ParseChangeEventsTest {

  private static final DebeziumEvents DEBEZIUM =
      new DebeziumEvents(
          TableColumns.parse(
              "order_id:BIGINT,amount:DECIMAL(12,2),note:STRING,at:TIMESTAMP,day:DATE,"
                  + "seen:TIMESTAMP_LTZ,raw:BYTES,open:BOOLEAN,qty:INT,ratio:DOUBLE",
              List.of("order_id")),
          ColumnType.Unit.MICROS);

  private static final String UPDATE =
      "{\"before\":{\"order_id\":1001,\"amount\":\"100.00\",\"note\":\"first\","
          + "\"at\":1700000000000001,\"day\":19000,\"seen\":\"2026-12-06T01:02:03.456789Z\","
          + "\"raw\":\"AQID\",\"open\":true,\"qty\":3,\"ratio\":0.5},"
          + "\"after\":{\"order_id\":1001,\"amount\":\"80.50\",\"note\":null,"
          + "\"at\":1700000000000002,\"day\":19001,\"seen\":\"2026-12-06T01:02:04Z\","
          + "\"raw\":\"BAU=\",\"open\":false,\"qty\":4,\"ratio\":0.25},\"op\":\"u\","
          + "\"source\":{\"connector\":\"postgresql\",\"lsn\":24023128}}";

  @Test
  void aKafkaEventsChangeRowsAreItsParsedRowsWithItsPositionAppended() throws Exception {
    ParseChangeEvents parse = new ParseChangeEvents(DEBEZIUM, true, "shop.orders");
    Row position = SourcePosition.of("orders-0", 5L);
    List<Row> expected = new ArrayList<>();
    for (Row row : DEBEZIUM.rows(UPDATE, 5L)) {
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
