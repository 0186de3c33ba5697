package io.changelake.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changelake.beam.DynamicColumns;
import io.changelake.beam.RowAssembly;
import io.changelake.templates.TableColumns.Column;
import io.changelake.types.DataType;
import io.changelake.types.TypeWidening;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
 *
 * <p>With {@code --schemaEvolution} ({@link TableColumns#isEvolving()}) the fields that are not
 * columns are not ignored: each non-null one goes into the row's {@link TableColumns#DYNAMIC} map
 * with its type, and so does a column's value whose type the source changed, so that the write adds
 * or widens the column. The type is the envelope's field type ({@link EnvelopeColumns}'s table),
 * else the JSON value's: a whole number BIGINT (and, for an INT column, a whole number beyond INT's
 * range widens it to BIGINT), another number DOUBLE, a string STRING, a boolean BOOLEAN; an object
 * or array is a {@link BadEvent}, and so is a key column whose type the source changed into one its
 * values may not fit.
 */
final class DebeziumEvents implements ParseChangeEvents.EventRows {
  private static final long serialVersionUID = 1L;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableColumns columns;

  /**
   * The change rows: a row of plain columns (numbers, booleans, strings) takes the values as
   * parsed, each already of its field's type, its key checked not null; other rows go through
   * Beam's builder, which converts decimals, dates, times and bytes to what a Row stores and bounds
   * them.
   */
  private final RowAssembly changeRows;

  private final ColumnType.Unit timeUnit;

  DebeziumEvents(TableColumns columns, ColumnType.Unit timeUnit) {
    this.columns = columns;
    this.changeRows = new RowAssembly(columns.changeSchema());
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
  @Override
  public List<Row> rows(String event, Long offset) throws BadEvent {
    return rows(parse(event), offset);
  }

  @Override
  public Schema schema() {
    return changeRows.schema();
  }

  /**
   * The event as a JSON object.
   *
   * @throws BadEvent if it is not JSON, or no object
   */
  static JsonNode parse(String event) throws BadEvent {
    JsonNode root;
    try {
      root = JSON.readTree(event);
    } catch (JsonProcessingException e) {
      throw new BadEvent("unparsable JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new BadEvent("not a JSON object");
    }
    return root;
  }

  /** The change of a parsed event: its payload inside Debezium's envelope, else the event. */
  static JsonNode change(JsonNode root) {
    return enveloped(root) ? root.get("payload") : root;
  }

  private static boolean enveloped(JsonNode root) {
    return !root.has("op") && root.path("payload").isObject();
  }

  /** {@link #rows(String, Long)} of an event already {@link #parse parsed}. */
  List<Row> rows(JsonNode root, Long offset) throws BadEvent {
    boolean enveloped = enveloped(root);
    JsonNode change = change(root);
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

  /** The schemas of the image fields in an envelope's schema: field to its schema. */
  private static Map<String, JsonNode> fieldSchemas(JsonNode schema) {
    Map<String, JsonNode> fields = new HashMap<>();
    if (schema == null) {
      return fields;
    }
    for (JsonNode part : schema.path("fields")) {
      if (!"after".equals(part.path("field").asText())
          && !"before".equals(part.path("field").asText())) {
        continue;
      }
      for (JsonNode field : part.path("fields")) {
        fields.put(field.path("field").asText(), field);
      }
    }
    return fields;
  }

  private static boolean hasImage(JsonNode change, String image) {
    JsonNode node = change.get(image);
    return node != null && !node.isNull();
  }

  /** One event's images, with its position and its fields' schemas. */
  private final class Image {
    private final JsonNode change;
    private final String position;
    private final Map<String, JsonNode> fieldSchemas;

    Image(JsonNode change, String position, Map<String, JsonNode> fieldSchemas) {
      this.change = change;
      this.position = position;
      this.fieldSchemas = fieldSchemas;
    }

    /** The Debezium/Connect logical name of the field ({@code io.debezium.time.Date}), or null. */
    private String schemaName(String field) {
      JsonNode schema = fieldSchemas.get(field);
      return schema != null && schema.hasNonNull("name") ? schema.get("name").asText() : null;
    }

    /**
     * The type of a field's value as the source gives it: its envelope schema's, else the column's
     * ({@code column}, null for a field that is no column) or what the JSON value is.
     */
    private ColumnType sourceType(String field, JsonNode value, ColumnType column) throws BadEvent {
      JsonNode schema = fieldSchemas.get(field);
      if (schema != null) {
        try {
          return EnvelopeColumns.typeOf(field, schema);
        } catch (IllegalArgumentException e) {
          throw new BadEvent(e.getMessage());
        }
      }
      if (column != null) {
        boolean beyondInt =
            column.kind() == ColumnType.Kind.INT
                && value.isIntegralNumber()
                && !value.canConvertToInt();
        return beyondInt ? ColumnType.of(ColumnType.Kind.BIGINT) : column;
      }
      if (value.isBoolean()) {
        return ColumnType.of(ColumnType.Kind.BOOLEAN);
      }
      if (value.isIntegralNumber()) {
        return ColumnType.of(ColumnType.Kind.BIGINT);
      }
      if (value.isNumber()) {
        return ColumnType.of(ColumnType.Kind.DOUBLE);
      }
      if (value.isTextual()) {
        return ColumnType.of(ColumnType.Kind.STRING);
      }
      throw new BadEvent(
          "field '"
              + field
              + "' holds a JSON "
              + value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
              + ", for which no column type can be inferred: give the column in --columns, or the"
              + " schema envelope");
    }

    private Object valueOf(String field, String image, ColumnType type, JsonNode value)
        throws BadEvent {
      try {
        return type.fromJson(value, schemaName(field), timeUnit);
      } catch (IllegalArgumentException e) {
        throw new BadEvent("wrong type of '" + field + "' in " + image + ": " + e.getMessage());
      }
    }

    Row row(String image, String kind) throws BadEvent {
      JsonNode values = change.get(image);
      if (values == null || !values.isObject()) {
        throw new BadEvent(
            "op '" + change.get("op").textValue() + "' needs a \"" + image + "\" object");
      }
      List<Object> row = new ArrayList<>(changeRows.schema().getFieldCount());
      Map<String, Row> dynamic = new LinkedHashMap<>();
      for (Column c : columns.columns()) {
        JsonNode value = values.get(c.name());
        if (value == null || value.isNull()) {
          if (c.key()) {
            throw new BadEvent("missing primary key '" + c.name() + "' in " + image);
          }
          row.add(null);
          continue;
        }
        ColumnType type = columns.isEvolving() ? sourceType(c.name(), value, c.type()) : c.type();
        if (!widensStrictly(c.type(), type)) {
          // The same type, a narrower one, or another kind: read as the column's type, as
          // without --schemaEvolution; a value that does not fit it is a wrong type.
          row.add(valueOf(c.name(), image, c.type(), value));
        } else if (columns.typeFixed(c)) {
          throw new BadEvent(
              (c.key() ? "key column '" : "column '")
                  + c.name()
                  + "' is "
                  + c.type()
                  + " but the source gives "
                  + type
                  + (c.key()
                      ? ": a key column's type cannot change"
                      : ": the aggregate reads it, so its type cannot change"));
        } else {
          dynamic.put(c.name(), dynamicValue(c.name(), image, type, value));
          row.add(null);
        }
      }
      if (columns.isEvolving()) {
        for (Iterator<Map.Entry<String, JsonNode>> i = values.fields(); i.hasNext(); ) {
          Map.Entry<String, JsonNode> field = i.next();
          String name = field.getKey();
          if (columns.column(name) != null || field.getValue().isNull()) {
            continue;
          }
          if (TableColumns.reserved(name)) {
            throw new BadEvent("field '" + name + "' has a name the template reserves for itself");
          }
          ColumnType type = sourceType(name, field.getValue(), null);
          dynamic.put(name, dynamicValue(name, image, type, field.getValue()));
        }
      }
      row.add(EventPosition.ofImage(position, image.equals("after")));
      row.add(kind);
      if (columns.isEvolving()) {
        row.add(dynamic.isEmpty() ? null : dynamic);
      }
      return changeRows.of(row);
    }

    private Row dynamicValue(String field, String image, ColumnType type, JsonNode value)
        throws BadEvent {
      return DynamicColumns.value(type.fieldType(), valueOf(field, image, type, value));
    }
  }

  /** Whether the source's type {@code to} is a wider one of column type {@code from}. */
  private static boolean widensStrictly(ColumnType from, ColumnType to) {
    return !from.equals(to) && TypeWidening.widens(columnType(from), columnType(to));
  }

  /** The table column type of a template column type, as the write maps it. */
  private static DataType columnType(ColumnType type) {
    return DataType.parse(DynamicColumns.typeOf(type.fieldType()));
  }
}
