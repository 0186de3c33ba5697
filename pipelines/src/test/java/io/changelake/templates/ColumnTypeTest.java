package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Every value shape Debezium's JSON converter gives, to the column types of the table. */
class ColumnTypeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Object value(String type, String json, String schemaName) throws Exception {
    JsonNode node = JSON.readTree(json);
    return ColumnType.named(type).fromJson(node, schemaName, ColumnType.Unit.MICROS);
  }

  @Test
  void decimalsFromBytesWithScaleStringsDoublesAndVariableScale() throws Exception {
    String bytes =
        "\""
            + Base64.getEncoder().encodeToString(new java.math.BigInteger("-12345").toByteArray())
            + "\"";
    assertEquals(
        new BigDecimal("-123.45"),
        value("DECIMAL(10,2)", bytes, "org.apache.kafka.connect.data.Decimal"));
    assertEquals(new BigDecimal("-123.45"), value("DECIMAL(10,2)", bytes, null));
    assertEquals(new BigDecimal("12.30"), value("DECIMAL(10,2)", "\"12.3\"", null));
    assertEquals(new BigDecimal("12.50"), value("NUMERIC(10,2)", "12.5", null));
    String variable =
        "{\"scale\":1,"
            + "\"value\":\""
            + Base64.getEncoder().encodeToString(new byte[] {0x7b})
            + "\"}";
    assertEquals(new BigDecimal("12.30"), value("DECIMAL(10,2)", variable, null));
    assertThrows(IllegalArgumentException.class, () -> value("DECIMAL(10,2)", "\"1.234\"", null));
    assertThrows(IllegalArgumentException.class, () -> value("DECIMAL(3,2)", "\"12.34\"", null));
  }

  @Test
  void datesTimesAndTimestampsInEveryDebeziumUnit() throws Exception {
    assertEquals(LocalDate.of(2026, 12, 1), value("DATE", "20788", "io.debezium.time.Date"));
    assertEquals(LocalDate.of(2026, 12, 1), value("DATE", "\"2026-12-01\"", null));
    long micros = ((13 * 60 + 45) * 60) * 1_000_000L + 500_000;
    assertEquals(micros, value("TIME", Long.toString(micros / 1000), "io.debezium.time.Time"));
    assertEquals(micros, value("TIME", Long.toString(micros), "io.debezium.time.MicroTime"));
    assertEquals(micros, value("TIME", Long.toString(micros * 1000), "io.debezium.time.NanoTime"));
    assertEquals(micros, value("TIME", "\"13:45:00.5\"", null));
    LocalDateTime at = LocalDateTime.of(2026, 12, 1, 13, 45, 0, 123_456_789);
    long nanos = at.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000_000L + at.getNano();
    assertEquals(
        at.withNano(123_000_000),
        value("TIMESTAMP", Long.toString(nanos / 1_000_000), "io.debezium.time.Timestamp"));
    assertEquals(
        at.withNano(123_456_000),
        value("TIMESTAMP", Long.toString(nanos / 1000), "io.debezium.time.MicroTimestamp"));
    assertEquals(at, value("TIMESTAMP", Long.toString(nanos), "io.debezium.time.NanoTimestamp"));
    assertEquals(at.withNano(123_456_000), value("TIMESTAMP", Long.toString(nanos / 1000), null));
    assertEquals(
        Instant.parse("2026-12-01T12:45:00Z"),
        value("TIMESTAMP_LTZ", "\"2026-12-01T13:45:00+01:00\"", "io.debezium.time.ZonedTimestamp"));
  }

  @Test
  void bytesFromBase64AndWrongShapesRefused() throws Exception {
    assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) value("BYTES", "\"AQID\"", null));
    assertThrows(IllegalArgumentException.class, () -> value("DATE", "true", null));
    assertThrows(
        IllegalArgumentException.class, () -> value("TIMESTAMP_LTZ", "\"yesterday\"", null));
    assertThrows(IllegalArgumentException.class, () -> ColumnType.named("MONEY"));
  }

  @Test
  void anEnvelopeGivesTheColumnsAndTheirTypes() {
    String event =
        "{\"schema\":{\"type\":\"struct\",\"fields\":["
            + "{\"type\":\"struct\",\"field\":\"before\",\"fields\":[]},"
            + "{\"type\":\"struct\",\"field\":\"after\",\"fields\":["
            + "{\"type\":\"int64\",\"optional\":false,\"field\":\"order_id\"},"
            + "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","
            + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},\"field\":\"amount\"},"
            + "{\"type\":\"int32\",\"name\":\"io.debezium.time.Date\",\"field\":\"day\"},"
            + "{\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\",\"field\":\"at\"},"
            + "{\"type\":\"string\",\"name\":\"io.debezium.time.ZonedTimestamp\",\"field\":\"zoned\"},"
            + "{\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTime\",\"field\":\"time\"},"
            + "{\"type\":\"bytes\",\"field\":\"blob\"},{\"type\":\"boolean\",\"field\":\"ok\"}]}]},"
            + "\"payload\":{}}";
    assertEquals(
        "order_id:BIGINT,amount:DECIMAL(10,2),day:DATE,at:TIMESTAMP,zoned:TIMESTAMP_LTZ,time:TIME,"
            + "blob:BYTES,ok:BOOLEAN",
        EnvelopeColumns.of(event, java.util.List.of("order_id")).toString());
  }

  @Test
  void thePrimaryKeyComesFromTheRecordKeyInKeyOrder() {
    assertEquals(
        java.util.List.of("region", "order_id"),
        EnvelopeColumns.keyOf(
            "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"field\":\"region\"},"
                + "{\"type\":\"int64\",\"field\":\"order_id\"}]},"
                + "\"payload\":{\"order_id\":1,\"region\":\"eu\"}}"));
    // An envelope whose schema lists no fields: the payload's fields.
    assertEquals(
        java.util.List.of("order_id"),
        EnvelopeColumns.keyOf("{\"schema\":{},\"payload\":{\"order_id\":1001}}"));
    // No envelope (schemas.enable=false): the key object's fields.
    assertEquals(
        java.util.List.of("order_id", "line"),
        EnvelopeColumns.keyOf("{\"order_id\":2001,\"line\":3}"));
  }

  @Test
  void aKeyThatNamesNoColumnIsRefusedWithoutItsValue() {
    assertEquals(
        "the record has no key",
        org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> EnvelopeColumns.keyOf(null))
            .getMessage());
    IllegalArgumentException plain =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> EnvelopeColumns.keyOf("\"secret-1001\""));
    assertEquals("the key string names no column", plain.getMessage());
  }
}
