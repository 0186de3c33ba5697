package io.changelake.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changelake.templates.TableColumns.Column;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Turns one Debezium-style JSON change event into the change rows it stands for.
 *
 * <p>An event is {@code {"before": {...}, "after": {...}, "op": "c|r|u|d", "ts_ms": ...}}, bare or
 * inside Debezium's envelope {@code {"schema": ..., "payload": {...}}}:
 *
 * <table>
 *   <caption>Events and rows</caption>
 *   <tr><th>op</th><th>rows</th></tr>
 *   <tr><td>c (create), r (snapshot read)</td><td>+I(after)</td></tr>
 *   <tr><td>u with a before-image</td><td>-U(before), +U(after)</td></tr>
 *   <tr><td>u without one (REPLICA IDENTITY DEFAULT, upsert sources)</td><td>+U(after)</td></tr>
 *   <tr><td>d</td><td>-D(before)</td></tr>
 * </table>
 *
 * <p>Image fields map to columns by name; fields that are not columns are ignored, absent or null
 * fields are null. An event that is not JSON, has no (known) op, lacks the image its op needs,
 * lacks a primary-key value, or carries a value of the wrong type for its column is a {@link
 * BadEvent}, and so is one with no position to order it by ({@link EventPosition}).
 *
 * <p>With an envelope, each value is read as its field's schema names it ({@code
 * io.debezium.time.MicroTimestamp}, {@code org.apache.kafka.connect.data.Decimal}, ...); without
 * one, epoch numbers of TIME and TIMESTAMP columns are taken in {@code --timeUnit}.
 */
final class DebeziumEvents implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableColumns columns;
  private final Schema schema;
  private final ColumnType.Unit timeUnit;

  DebeziumEvents(TableColumns columns, ColumnType.Unit timeUnit) {
    this.columns = columns;
    this.schema = columns.changeSchema();
    this.timeUnit = timeUnit;
  }

  /** A change event that cannot become rows, and why. */
  static final class BadEvent extends Exception {
    private static final long serialVersionUID = 1L;

    BadEvent(String reason) {
      super(reason);
    }
  }

  /**
   * The rows of a change row's schema ({@link TableColumns#changeSchema()}) this event makes.
   *
   * @param offset the event's Kafka partition offset, or null when it comes from elsewhere
   */
  List<Row> rows(String event, Long offset) throws BadEvent {
    JsonNode root;
    try {
      root = JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new BadEvent("unparsable JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadEvent("not a JSON object");
    }
    boolean enveloped = !root.has("op") && root.path("payload").isObject();
    JsonNode change = enveloped ? root.get("payload") : root;
    JsonNode op = change.get("op");
    if (op == null || !op.isTextual()) {
      throw new BadEvent("missing op: expected \"op\" with c, r, u or d");
    }
    String position;
    try {
      position = EventPosition.of(change, offset);
    } catch (IllegalArgumentException e) {
      throw new BadEvent("bad source position: " + e.getMessage());
    }
    // The images are read first, so that a wrong value is the reason given, not the position.
    Image image =
        new Image(
            change,
            position == null ? "" : position,
            enveloped ? fieldSchemas(root.get("schema")) : Map.of());
    List<Row> rows;
    switch (op.textValue()) {
      case "c":
      case "r":
        rows = List.of(image.row("after", "+I"));
        break;
      case "u":
        Row after = image.row("after", "+U");
        rows =
            hasImage(change, "before") ? List.of(image.row("before", "-U"), after) : List.of(after);
        break;
      case "d":
        rows = List.of(image.row("before", "-D"));
        break;
      default:
        throw new BadEvent("unknown op '" + op.textValue() + "': expected c, r, u or d");
    }
    if (position == null) {
      throw new BadEvent(
          "no position to order the change by: no source position (MySQL file and pos or gtid,"
              + " PostgreSQL lsn, SQL Server change_lsn, MongoDB ord), no Kafka offset, no ts_ms");
    }
    return rows;
  }

  /** The logical names of the image fields in an envelope's schema: field to name. */
  private static Map<String, String> fieldSchemas(JsonNode schema) {
    Map<String, String> names = new HashMap<>();
    if (schema == null) {
      return names;
    }
    for (JsonNode part : schema.path("fields")) {
      if (!"after".equals(part.path("field").asText())
          && !"before".equals(part.path("field").asText())) {
        continue;
      }
      for (JsonNode field : part.path("fields")) {
        if (field.hasNonNull("name")) {
          names.put(field.path("field").asText(), field.get("name").asText());
        }
      }
    }
    return names;
  }

  private static boolean hasImage(JsonNode change, String image) {
    JsonNode node = change.get(image);
    return node != null && !node.isNull();
  }

  /** One event's images, with its position and its fields' schema names. */
  private final class Image {
    private final JsonNode change;
    private final String position;
    private final Map<String, String> schemaNames;

    Image(JsonNode change, String position, Map<String, String> schemaNames) {
      this.change = change;
      this.position = position;
      this.schemaNames = schemaNames;
    }

    Row row(String image, String kind) throws BadEvent {
      JsonNode values = change.get(image);
      if (values == null || !values.isObject()) {
        throw new BadEvent(
            "op '" + change.get("op").textValue() + "' needs a \"" + image + "\" object");
      }
      Row.Builder row = Row.withSchema(schema);
      for (Column c : columns.columns()) {
        JsonNode value = values.get(c.name());
        if (value == null || value.isNull()) {
          if (c.key()) {
            throw new BadEvent("missing primary key '" + c.name() + "' in " + image);
          }
          row.addValue(null);
          continue;
        }
        try {
          row.addValue(c.type().fromJson(value, schemaNames.get(c.name()), timeUnit));
        } catch (IllegalArgumentException e) {
          throw new BadEvent(
              "wrong type of '" + c.name() + "' in " + image + ": " + e.getMessage());
        }
      }
      return row.addValue(EventPosition.ofImage(position, image.equals("after")))
          .addValue(kind)
          .build();
    }
  }
}
