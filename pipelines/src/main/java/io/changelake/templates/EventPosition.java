package io.changelake.templates;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Set;

/**
 * Where a change event stands in its source's history: the value of the {@code _sequence} column
 * ({@link TableColumns#SEQUENCE}), which the templates' tables use as {@code sequence.field}, so
 * that a key's changes merge in the order the database made them whatever order a runner delivers
 * them in.
 *
 * <p>The first of these that the event carries is used:
 *
 * <table>
 *   <caption>Positions, best first</caption>
 *   <tr><th>source</th><th>fields of {@code source}</th><th>kind</th><th>compared as</th></tr>
 *   <tr><td>MySQL</td><td>{@code file} (its numeric suffix), {@code pos}, {@code row}</td>
 *       <td>{@code m}</td><td>binlog file index, then position, then row within the event: the
 *       index keeps it growing across binlog files</td></tr>
 *   <tr><td>MySQL without file</td><td>{@code gtid} ({@code uuid:n}), {@code row}</td>
 *       <td>{@code g}</td><td>transaction number, then row; right only while one server (one
 *       uuid) writes</td></tr>
 *   <tr><td>PostgreSQL</td><td>{@code lsn}</td><td>{@code p}</td><td>log sequence number</td></tr>
 *   <tr><td>SQL Server</td><td>{@code change_lsn}, {@code event_serial_no}</td><td>{@code s}</td>
 *       <td>the 10-byte change LSN, then the serial number</td></tr>
 *   <tr><td>MongoDB</td><td>{@code ts_ms}, {@code ord}</td><td>{@code o}</td><td>cluster time,
 *       then ordinal within it: the resume token's order</td></tr>
 *   <tr><td>Kafka input, no source position</td><td>the record's partition offset</td>
 *       <td>{@code k}</td><td>offset: a key stays in one partition (Debezium keys records by primary
 *       key), so its offsets grow</td></tr>
 *   <tr><td>last resort</td><td>{@code source.ts_ms}, else the event's {@code ts_ms}</td>
 *       <td>{@code t}</td><td>milliseconds: two changes of a key in one millisecond tie, and a
 *       tie goes by arrival, which a distributed runner does not keep</td></tr>
 * </table>
 *
 * <p>Per key these grow with each change: a later change of a row waits for the earlier one's lock,
 * so it is logged after it. Debezium's initial snapshot reads ({@code op = r}, or {@code
 * source.snapshot} other than {@code false} and {@code incremental}) all order before every
 * streamed change, since the snapshot is the state streaming starts from.
 *
 * <p>The value is one STRING that compares, byte by byte, as the tuple: {@code <0 snapshot | 1
 * change><kind>:<fields in fixed-width hex>:<image>}, image 0 for a before-image, 1 for an
 * after-image, so that an update's -U orders before its +U. A STRING because the positions do not
 * fit one BIGINT (a SQL Server LSN has 80 bits, a binlog file index and position 96), and one
 * column keeps {@code sequence.field} the same for every source. One table is fed by one connector:
 * positions of different kinds do not compare meaningfully.
 */
final class EventPosition {

  private static final Set<String> NOT_SNAPSHOT = Set.of("false", "incremental");

  private EventPosition() {}

  /**
   * The position of {@code change} (the event's payload), or null when it carries none.
   *
   * @param offset the Kafka partition offset of the event, or null for other sources
   * @throws IllegalArgumentException when a position field is there but malformed
   */
  static String of(JsonNode change, Long offset) {
    JsonNode source = change.path("source");
    String rank = snapshot(change, source) ? "0" : "1";
    String position = sourcePosition(source);
    if (position == null && offset != null) {
      position = "k:" + hex(offset, 16);
    }
    if (position == null) {
      JsonNode ts = source.has("ts_ms") ? source.get("ts_ms") : change.get("ts_ms");
      if (ts != null && ts.canConvertToLong()) {
        position = "t:" + hex(ts.longValue(), 16);
      }
    }
    return position == null ? null : rank + position;
  }

  /** The sequence of one image of the event: before-images order before after-images. */
  static String ofImage(String position, boolean after) {
    return position + (after ? ":1" : ":0");
  }

  private static boolean snapshot(JsonNode change, JsonNode source) {
    JsonNode flag = source.get("snapshot");
    if (flag != null && !flag.isNull()) {
      return !NOT_SNAPSHOT.contains(flag.asText().toLowerCase(Locale.ROOT));
    }
    return "r".equals(change.path("op").asText());
  }

  private static String sourcePosition(JsonNode source) {
    if (!source.isObject()) {
      return null;
    }
    long row = source.path("row").asLong(0);
    if (text(source, "file") != null && source.path("pos").canConvertToLong()) {
      String file = text(source, "file");
      int dot = file.lastIndexOf('.');
      long index;
      try {
        index = Long.parseLong(file.substring(dot + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "source.file '" + file + "' has no numeric binlog index after its last '.'");
      }
      return "m:"
          + hex(index, 8)
          + ":"
          + hex(source.get("pos").longValue(), 16)
          + ":"
          + hex(row, 8);
    }
    if (text(source, "gtid") != null) {
      String gtid = text(source, "gtid");
      int colon = gtid.lastIndexOf(':');
      try {
        // A GTID set's last interval ends at the transaction's number: uuid:1-57 or uuid:57.
        String last = gtid.substring(colon + 1);
        long transaction = Long.parseLong(last.substring(last.lastIndexOf('-') + 1));
        return "g:" + hex(transaction, 16) + ":" + hex(row, 8);
      } catch (NumberFormatException | IndexOutOfBoundsException e) {
        throw new IllegalArgumentException("source.gtid '" + gtid + "' is not uuid:number");
      }
    }
    if (source.path("lsn").canConvertToLong()) {
      return "p:" + hex(source.get("lsn").longValue(), 16);
    }
    if (text(source, "change_lsn") != null) {
      String lsn = text(source, "change_lsn").replace(":", "").toLowerCase(Locale.ROOT);
      if (lsn.length() != 20 || !lsn.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
        throw new IllegalArgumentException(
            "source.change_lsn '" + text(source, "change_lsn") + "' is not xxxxxxxx:xxxxxxxx:xxxx");
      }
      return "s:" + lsn + ":" + hex(source.path("event_serial_no").asLong(0), 8);
    }
    if (source.path("ord").canConvertToLong() && source.path("ts_ms").canConvertToLong()) {
      return "o:"
          + hex(source.get("ts_ms").longValue(), 16)
          + ":"
          + hex(source.get("ord").longValue(), 8);
    }
    return null;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static String hex(long value, int width) {
    if (value < 0) {
      throw new IllegalArgumentException("a negative position " + value);
    }
    String digits = Long.toHexString(value);
    return "0".repeat(Math.max(0, width - digits.length())) + digits;
  }
}
