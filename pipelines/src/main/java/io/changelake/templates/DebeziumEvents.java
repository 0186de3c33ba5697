package io.changelake.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changelake.templates.TableColumns.Column;
import java.io.Serializable;
import java.util.List;
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
 * BadEvent}. {@code ts_ms} is not stored: the order of changes is the order the events arrive in.
 */
final class DebeziumEvents implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableColumns columns;
  private final Schema schema;

  DebeziumEvents(TableColumns columns) {
    this.columns = columns;
    this.schema = columns.changeSchema();
  }

  /** A change event that cannot become rows, and why. */
  static final class BadEvent extends Exception {
    private static final long serialVersionUID = 1L;

    BadEvent(String reason) {
      super(reason);
    }
  }

  /** The rows of a change row's schema ({@link TableColumns#changeSchema()}) this event makes. */
  List<Row> rows(String event) throws BadEvent {
    JsonNode root;
    try {
      root = JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new BadEvent("unparsable JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadEvent("not a JSON object");
    }
    JsonNode change = root.has("op") || !root.path("payload").isObject() ? root : root.get("payload");
    JsonNode op = change.get("op");
    if (op == null || !op.isTextual()) {
      throw new BadEvent("missing op: expected \"op\" with c, r, u or d");
    }
    switch (op.textValue()) {
      case "c":
      case "r":
        return List.of(row(change, "after", "+I"));
      case "u":
        Row after = row(change, "after", "+U");
        return hasImage(change, "before")
            ? List.of(row(change, "before", "-U"), after)
            : List.of(after);
      case "d":
        return List.of(row(change, "before", "-D"));
      default:
        throw new BadEvent("unknown op '" + op.textValue() + "': expected c, r, u or d");
    }
  }

  private static boolean hasImage(JsonNode change, String image) {
    JsonNode node = change.get(image);
    return node != null && !node.isNull();
  }

  private Row row(JsonNode change, String image, String kind) throws BadEvent {
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
        row.addValue(c.type().fromJson(value));
      } catch (IllegalArgumentException e) {
        throw new BadEvent("wrong type of '" + c.name() + "' in " + image + ": " + e.getMessage());
      }
    }
    return row.addValue(kind).build();
  }
}
