package io.changelake.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changelake.templates.ColumnType.Kind;
import io.changelake.templates.TableColumns.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The columns of a table read from a Debezium event's schema envelope ({@code {"schema": ...,
 * "payload": ...}}, the JSON converter with {@code schemas.enable=true}), so that {@code --columns}
 * is not needed: the fields of the {@code after} (else {@code before}) struct, in order.
 *
 * <table>
 *   <caption>Connect schema to column type</caption>
 *   <tr><th>type, name</th><th>column</th></tr>
 *   <tr><td>boolean</td><td>BOOLEAN</td></tr>
 *   <tr><td>int8, int16, int32</td><td>INT; DATE for {@code io.debezium.time.Date} and Connect's
 *       Date; TIME for {@code io.debezium.time.Time} and Connect's Time</td></tr>
 *   <tr><td>int64</td><td>BIGINT; TIMESTAMP for {@code io.debezium.time.Timestamp}, {@code
 *       MicroTimestamp}, {@code NanoTimestamp} and Connect's Timestamp; TIME for {@code MicroTime},
 *       {@code NanoTime}</td></tr>
 *   <tr><td>float32, float64</td><td>DOUBLE</td></tr>
 *   <tr><td>string</td><td>STRING; TIMESTAMP_LTZ for {@code io.debezium.time.ZonedTimestamp}</td></tr>
 *   <tr><td>bytes</td><td>BYTES; DECIMAL(p, s) for Connect's Decimal (p from {@code
 *       connect.decimal.precision}, else 38; s from {@code scale})</td></tr>
 *   <tr><td>struct {@code io.debezium.data.VariableScaleDecimal}</td><td>DECIMAL(38, 18)</td></tr>
 * </table>
 *
 * <p>The primary key comes the same way from the record key ({@link #keyOf}), so that neither
 * {@code --columns} nor {@code --primaryKeys} is needed for a Kafka topic.
 *
 * <p>Other types (arrays, maps, other structs) are refused, naming the field: give {@code
 * --columns} without them.
 */
final class EnvelopeColumns {
  private static final ObjectMapper JSON = new ObjectMapper();

  private EnvelopeColumns() {}

  /**
   * The columns of the event's envelope, with these primary keys.
   *
   * @throws IllegalArgumentException if the event has no envelope, or a field has no column type
   */
  static TableColumns of(String event, List<String> primaryKeys) {
    JsonNode root;
    try {
      root = JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the first event is not JSON: " + e.getOriginalMessage());
    }
    JsonNode image = null;
    for (JsonNode part : root.path("schema").path("fields")) {
      String field = part.path("field").asText();
      if (field.equals("after") || (field.equals("before") && image == null)) {
        image = part;
      }
    }
    if (image == null) {
      throw new IllegalArgumentException(
          "the first event has no schema envelope with an after or before struct");
    }
    List<Column> columns = new ArrayList<>();
    for (JsonNode field : image.path("fields")) {
      String name = field.path("field").asText();
      columns.add(new Column(name, typeOf(name, field), primaryKeys.contains(name)));
    }
    return TableColumns.of(columns, primaryKeys);
  }

  /**
   * The primary-key columns of a Debezium record key, in key order: the fields of its schema
   * envelope's struct ({@code {"schema": {"fields": [...]}, "payload": {...}}}), else the fields of
   * its payload, else, without an envelope ({@code {"order_id": 1001}}), the key object's fields.
   *
   * @throws IllegalArgumentException if the record has no key, or the key is no JSON object with
   *     fields
   */
  static List<String> keyOf(String key) {
    if (key == null) {
      throw new IllegalArgumentException("the record has no key");
    }
    JsonNode root;
    try {
      root = JSON.readTree(key);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the key is not JSON: " + e.getOriginalMessage());
    }
    List<String> columns = new ArrayList<>();
    for (JsonNode field : root.path("schema").path("fields")) {
      columns.add(field.path("field").asText());
    }
    if (columns.isEmpty()) {
      JsonNode fields = root.has("schema") && root.has("payload") ? root.get("payload") : root;
      if (fields.isObject()) {
        fields.fieldNames().forEachRemaining(columns::add);
      }
    }
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("the key " + shape(root) + " names no column");
    }
    return columns;
  }

  /** What a key is, without its values (they are data, which messages do not repeat). */
  private static String shape(JsonNode node) {
    return node.isObject() ? "object" : node.getNodeType().toString().toLowerCase(Locale.ROOT);
  }

  static ColumnType typeOf(String column, JsonNode field) {
    String type = field.path("type").asText();
    String name = field.path("name").asText("");
    switch (type) {
      case "boolean":
        return ColumnType.of(Kind.BOOLEAN);
      case "int8":
      case "int16":
      case "int32":
        if (name.equals("io.debezium.time.Date")
            || name.equals("org.apache.kafka.connect.data.Date")) {
          return ColumnType.of(Kind.DATE);
        }
        if (name.equals("io.debezium.time.Time")
            || name.equals("org.apache.kafka.connect.data.Time")) {
          return ColumnType.of(Kind.TIME);
        }
        return ColumnType.of(Kind.INT);
      case "int64":
        if (name.endsWith("Timestamp")) {
          return ColumnType.of(Kind.TIMESTAMP);
        }
        if (name.equals("io.debezium.time.MicroTime") || name.equals("io.debezium.time.NanoTime")) {
          return ColumnType.of(Kind.TIME);
        }
        return ColumnType.of(Kind.BIGINT);
      case "float":
      case "float32":
      case "double":
      case "float64":
        return ColumnType.of(Kind.DOUBLE);
      case "string":
        return name.equals("io.debezium.time.ZonedTimestamp")
            ? ColumnType.of(Kind.TIMESTAMP_LTZ)
            : ColumnType.of(Kind.STRING);
      case "bytes":
        if (name.equals("org.apache.kafka.connect.data.Decimal")) {
          JsonNode parameters = field.path("parameters");
          return ColumnType.decimal(
              parameters.path("connect.decimal.precision").asInt(38),
              parameters.path("scale").asInt(0));
        }
        return ColumnType.of(Kind.BYTES);
      case "struct":
        if (name.equals("io.debezium.data.VariableScaleDecimal")) {
          return ColumnType.decimal(38, 18);
        }
        break;
      default:
        break;
    }
    throw new IllegalArgumentException(
        "field '"
            + column
            + "' of type "
            + type
            + (name.isEmpty() ? "" : " (" + name + ")")
            + " has no column type: give --columns without it");
  }
}
