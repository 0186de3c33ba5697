package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DebeziumEventsTest {

  private final DebeziumEvents debezium =
      new DebeziumEvents(
          TableColumns.parse(
              "order_id:BIGINT,store_id:BIGINT,amount:BIGINT,note:STRING", List.of("order_id")),
          ColumnType.Unit.MICROS);

  /** The rows of an event read from Kafka at offset 5. */
  private String rows(String event) throws DebeziumEvents.BadEvent {
    return debezium.rows(event, 5L).stream()
        .map(r -> r.getString(TableColumns.ROW_KIND) + values(r))
        .collect(Collectors.joining(" "));
  }

  private static String values(Row row) {
    return "("
        + row.getValue("order_id")
        + ","
        + row.getValue("store_id")
        + ","
        + row.getValue("amount")
        + ","
        + row.getValue("note")
        + ")";
  }

  @Test
  void createAndSnapshotReadBecomeInserts() throws Exception {
    assertEquals(
        "+I(1001,10,100,null)",
        rows(
            "{\"before\":null,\"after\":{\"order_id\":1001,\"store_id\":10,\"amount\":100},\"op\":\"c\",\"ts_ms\":1}"));
    assertEquals(
        "+I(1001,10,100,x)",
        rows(
            "{\"after\":{\"order_id\":1001,\"store_id\":10,\"amount\":100,\"note\":\"x\",\"extra\":1},\"op\":\"r\"}"));
  }

  @Test
  void updateWithBeforeImageBecomesRetractionThenUpdate() throws Exception {
    assertEquals(
        "-U(1001,10,100,null) +U(1001,10,80,null)",
        rows(
            "{\"before\":{\"order_id\":1001,\"store_id\":10,\"amount\":100},"
                + "\"after\":{\"order_id\":1001,\"store_id\":10,\"amount\":80},\"op\":\"u\"}"));
  }

  @Test
  void updateWithoutBeforeImageBecomesUpdateAfterOnly() throws Exception {
    assertEquals(
        "+U(1001,10,80,null)",
        rows(
            "{\"before\":null,\"after\":{\"order_id\":1001,\"store_id\":10,\"amount\":80},\"op\":\"u\"}"));
  }

  @Test
  void deleteBecomesDeleteOfTheBeforeImage() throws Exception {
    assertEquals(
        "-D(1001,10,80,null)",
        rows(
            "{\"before\":{\"order_id\":1001,\"store_id\":10,\"amount\":80},\"after\":null,\"op\":\"d\"}"));
  }

  @Test
  void envelopeWithSchemaAndPayloadIsUnwrapped() throws Exception {
    assertEquals(
        "+I(7,1,2,null)",
        rows(
            "{\"schema\":{\"type\":\"struct\"},\"payload\":{\"after\":{\"order_id\":7,\"store_id\":1,\"amount\":2},\"op\":\"c\"}}"));
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"op\":\"c\",\"after\":{\"order_id\":1 | unparsable JSON",
        "[1,2] | not a JSON object",
        "{\"after\":{\"order_id\":1}} | missing op",
        "{\"op\":\"x\",\"after\":{\"order_id\":1}} | unknown op 'x'",
        "{\"op\":\"c\",\"after\":{\"store_id\":1}} | missing primary key 'order_id' in after",
        "{\"op\":\"d\",\"after\":{\"order_id\":1}} | op 'd' needs a \"before\" object",
        "{\"op\":\"c\",\"after\":{\"order_id\":1,\"amount\":\"a lot\"}} | wrong type of 'amount' in after: expected BIGINT",
        "{\"op\":\"c\",\"after\":{\"order_id\":1.5}} | wrong type of 'order_id' in after: expected BIGINT",
        "{\"op\":\"c\",\"after\":{\"order_id\":1,\"note\":7}} | wrong type of 'note' in after: expected STRING"
      })
  void badEventsAreRefusedWithTheirReason(String event, String reason) {
    DebeziumEvents.BadEvent bad =
        assertThrows(DebeziumEvents.BadEvent.class, () -> debezium.rows(event, 5L));
    assertTrue(bad.getMessage().startsWith(reason), bad.getMessage());
  }

  @Test
  void eachRowCarriesTheEventsPositionBeforeImageFirst() throws Exception {
    List<Row> rows =
        debezium.rows(
            "{\"before\":{\"order_id\":1001,\"amount\":100},\"after\":{\"order_id\":1001,\"amount\":80},"
                + "\"op\":\"u\",\"source\":{\"connector\":\"postgresql\",\"lsn\":24023128}}",
            null);
    assertEquals("1p:00000000016e9058:0", rows.get(0).getString(TableColumns.SEQUENCE));
    assertEquals("1p:00000000016e9058:1", rows.get(1).getString(TableColumns.SEQUENCE));
  }

  @Test
  void anEventWithoutAnyPositionIsADeadLetter() {
    DebeziumEvents.BadEvent bad =
        assertThrows(
            DebeziumEvents.BadEvent.class,
            () -> debezium.rows("{\"after\":{\"order_id\":1},\"op\":\"c\"}", null));
    assertTrue(bad.getMessage().startsWith("no position to order the change by"), bad.getMessage());
  }

  @Test
  void deadLetterLineCarriesTheRawEventAndTheReason() {
    assertEquals(
        "{\"reason\":\"missing op\",\"event\":\"{\\\"a\\\":1}\"}",
        DeadLetterFiles.line("missing op", "{\"a\":1}"));
  }
}
