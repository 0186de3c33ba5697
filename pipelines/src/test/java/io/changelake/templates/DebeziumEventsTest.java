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

  private static final DebeziumEvents EVOLVING =
      new DebeziumEvents(
          TableColumns.parse("order_id:BIGINT,amount:DECIMAL(10,2),qty:INT", List.of("order_id"))
              .evolving()
              .withFixedTypes(java.util.Set.of("qty")),
          ColumnType.Unit.MICROS);

  /** The dynamic columns of the event's only row, as name:type=value, sorted by name. */
  private static String dynamic(String event) throws DebeziumEvents.BadEvent {
    List<Row> rows = EVOLVING.rows(event, 5L);
    assertEquals(1, rows.size());
    java.util.Map<String, Row> columns = rows.get(0).getMap(TableColumns.DYNAMIC);
    if (columns == null) {
      return "none";
    }
    return columns.entrySet().stream()
        .sorted(java.util.Map.Entry.comparingByKey())
        .map(
            e ->
                e.getKey()
                    + ":"
                    + e.getValue().getString("type")
                    + "="
                    + e.getValue().getString("value"))
        .collect(Collectors.joining(" "));
  }

  private static String enveloped(String fields, String after) {
    return "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"after\",\"type\":\"struct\","
        + "\"fields\":["
        + fields
        + "]}]},\"payload\":{\"after\":"
        + after
        + ",\"op\":\"c\",\"ts_ms\":1}}";
  }

  @Test
  void withSchemaEvolutionAFieldThatIsNoColumnTravelsWithTheTypeTheEnvelopeGives()
      throws Exception {
    assertEquals(
        "discount:DECIMAL(5, 2)=1.50 shipped:TIMESTAMP(9)=2026-12-01T10:00",
        dynamic(
            enveloped(
                "{\"field\":\"order_id\",\"type\":\"int64\"},"
                    + "{\"field\":\"shipped\",\"type\":\"int64\",\"name\":\"io.debezium.time.Timestamp\"},"
                    + "{\"field\":\"discount\",\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","
                    + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"5\"}}",
                "{\"order_id\":1,\"shipped\":1796119200000,\"discount\":\"AJY=\"}")));
  }

  @Test
  void withSchemaEvolutionAWiderDecimalOfTheSourceWidensTheColumn() throws Exception {
    assertEquals(
        "amount:DECIMAL(12, 2)=1234567890.25",
        dynamic(
            enveloped(
                "{\"field\":\"order_id\",\"type\":\"int64\"},"
                    + "{\"field\":\"amount\",\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","
                    + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"12\"}}",
                "{\"order_id\":1,\"amount\":\"HL6ZGiE=\"}")));
  }

  @Test
  void withSchemaEvolutionJsonValuesGiveTheTypesOfNewColumns() throws Exception {
    assertEquals(
        "n:BIGINT=3 ok:BOOLEAN=true ratio:DOUBLE=0.5 remark:STRING=gift",
        dynamic(
            "{\"after\":{\"order_id\":1,\"remark\":\"gift\",\"n\":3,\"ratio\":0.5,\"ok\":true,"
                + "\"gone\":null},\"op\":\"c\",\"ts_ms\":1}"));
    assertEquals(
        "none", dynamic("{\"after\":{\"order_id\":1,\"qty\":2},\"op\":\"c\",\"ts_ms\":1}"));
  }

  @Test
  void withSchemaEvolutionAKeyOfAnotherKindOrAWidenedFixedColumnIsABadEvent() {
    DebeziumEvents.BadEvent key =
        assertThrows(
            DebeziumEvents.BadEvent.class,
            () ->
                EVOLVING.rows(
                    enveloped(
                        "{\"field\":\"order_id\",\"type\":\"string\"}", "{\"order_id\":\"a1\"}"),
                    5L));
    assertEquals(
        "wrong type of 'order_id' in after: expected BIGINT, found \"a1\"", key.getMessage());
    DebeziumEvents.BadEvent fixed =
        assertThrows(
            DebeziumEvents.BadEvent.class,
            () ->
                EVOLVING.rows(
                    "{\"after\":{\"order_id\":1,\"qty\":5000000000},\"op\":\"c\",\"ts_ms\":1}",
                    5L));
    assertEquals(
        "column 'qty' is INT but the source gives BIGINT: the aggregate reads it, so its type"
            + " cannot change",
        fixed.getMessage());
  }
}
