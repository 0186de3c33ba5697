package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class EventPositionTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static String position(String change, Long offset) throws Exception {
    return EventPosition.of(JSON.readTree(change), offset);
  }

  private static String mysql(String file, long pos, int row) throws Exception {
    return position(
        "{\"op\":\"u\",\"source\":{\"connector\":\"mysql\",\"file\":\""
            + file
            + "\",\"pos\":"
            + pos
            + ",\"row\":"
            + row
            + ",\"snapshot\":\"false\"}}",
        null);
  }

  @Test
  void mysqlOrdersByBinlogFileIndexThenPositionThenRow() throws Exception {
    assertEquals("1m:00000009:00000000000f423f:00000000", mysql("mysql-bin.000009", 999_999, 0));
    // A new binlog file starts at a small position: its index keeps the order.
    assertTrue(
        mysql("mysql-bin.000009", 999_999, 0).compareTo(mysql("mysql-bin.000010", 4, 0)) < 0);
    assertTrue(mysql("mysql-bin.999999", 4, 0).compareTo(mysql("mysql-bin.1000000", 4, 0)) < 0);
    assertTrue(mysql("mysql-bin.000010", 4, 1).compareTo(mysql("mysql-bin.000010", 4, 2)) < 0);
  }

  @Test
  void mysqlWithoutAFileOrdersByGtidTransaction() throws Exception {
    String a =
        position(
            "{\"op\":\"c\",\"source\":{\"gtid\":\"3e11fa47-71ca-11e1-9e33-c80aa9429562:9\"}}",
            null);
    String b =
        position(
            "{\"op\":\"c\",\"source\":{\"gtid\":\"3e11fa47-71ca-11e1-9e33-c80aa9429562:1-10\"}}",
            null);
    assertEquals("1g:0000000000000009:00000000", a);
    assertTrue(a.compareTo(b) < 0);
  }

  @Test
  void postgresOrdersByLsnSqlServerByChangeLsnMongoByClusterTime() throws Exception {
    assertTrue(
        position("{\"op\":\"u\",\"source\":{\"lsn\":24023128}}", null)
                .compareTo(position("{\"op\":\"u\",\"source\":{\"lsn\":124023128}}", null))
            < 0);
    assertEquals(
        "1s:0000002d00000370000a:00000002",
        position(
            "{\"op\":\"u\",\"source\":{\"change_lsn\":\"0000002d:00000370:000a\",\"event_serial_no\":2}}",
            null));
    assertTrue(
        position("{\"op\":\"u\",\"source\":{\"ts_ms\":1000,\"ord\":7}}", null)
                .compareTo(position("{\"op\":\"u\",\"source\":{\"ts_ms\":2000,\"ord\":1}}", null))
            < 0);
  }

  @Test
  void snapshotReadsOrderBeforeEveryStreamedChangeButIncrementalOnesDoNot() throws Exception {
    String snapshot =
        position("{\"op\":\"r\",\"source\":{\"lsn\":900,\"snapshot\":\"last\"}}", null);
    String change =
        position("{\"op\":\"u\",\"source\":{\"lsn\":100,\"snapshot\":\"false\"}}", null);
    String incremental =
        position("{\"op\":\"r\",\"source\":{\"lsn\":50,\"snapshot\":\"incremental\"}}", null);
    assertTrue(snapshot.compareTo(change) < 0);
    assertTrue(incremental.compareTo(change) < 0);
    assertTrue(incremental.startsWith("1"));
  }

  @Test
  void withoutASourcePositionTheKafkaOffsetThenTsMsIsUsed() throws Exception {
    assertEquals("1k:0000000000000005", position("{\"op\":\"u\",\"ts_ms\":77}", 5L));
    assertEquals("1t:000000000000004d", position("{\"op\":\"u\",\"ts_ms\":77}", null));
    assertEquals(
        "1t:0000000000000010",
        position("{\"op\":\"u\",\"ts_ms\":77,\"source\":{\"ts_ms\":16}}", null));
    assertNull(position("{\"op\":\"u\"}", null));
  }

  @Test
  void aMalformedPositionIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> position("{\"op\":\"u\",\"source\":{\"file\":\"binlog\",\"pos\":4}}", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> position("{\"op\":\"u\",\"source\":{\"change_lsn\":\"12:34\"}}", null));
  }
}
