package io.changelake.templates;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * The events of many source tables ({@link SourceTables}) into change rows of their union schema:
 * each event is read by its source table's {@link DebeziumEvents} (found by its {@code source.db}
 * and {@code source.table}) and its rows name their table in {@link TableColumns#DESTINATION}. An
 * event that names no source table, or one not found at launch, is a bad event; so is a bad event
 * of a known table, its reason prefixed by {@code destination <database.table>:}.
 */
final class DatabaseEvents implements ParseChangeEvents.EventRows {
  private static final long serialVersionUID = 1L;

  private final SourceTables tables;
  private final Schema union;
  private final Map<String, DebeziumEvents> events = new HashMap<>();

  /** Per source table, the union field of each field of its change rows. */
  private final Map<String, int[]> unionFields = new HashMap<>();

  DatabaseEvents(SourceTables tables) {
    this.tables = tables;
    this.union = tables.unionSchema();
    for (SourceTables.SourceTable t : tables.tables()) {
      DebeziumEvents debezium = new DebeziumEvents(t.columns(), tables.timeUnit());
      events.put(t.source(), debezium);
      Schema own = debezium.schema();
      int[] fields = new int[own.getFieldCount()];
      for (int i = 0; i < fields.length; i++) {
        fields[i] = union.indexOf(own.getField(i).getName());
      }
      unionFields.put(t.source(), fields);
    }
  }

  @Override
  public Schema schema() {
    return union;
  }

  @Override
  public List<Row> rows(String event, Long offset) throws DebeziumEvents.BadEvent {
    JsonNode root = DebeziumEvents.parse(event);
    String source = SourceTables.sourceOf(root);
    if (source == null) {
      throw new DebeziumEvents.BadEvent(
          "destination (none): the event names no source table (source.db and source.table)");
    }
    SourceTables.SourceTable table = tables.bySource(source);
    if (table == null) {
      throw new DebeziumEvents.BadEvent(
          "destination (none): source table "
              + source
              + " was not in the input at launch, so its columns are not known: launch again");
    }
    List<Row> own;
    try {
      own = events.get(source).rows(root, offset);
    } catch (DebeziumEvents.BadEvent e) {
      throw new DebeziumEvents.BadEvent(
          "destination " + table.destination() + ": " + e.getMessage());
    }
    int[] fields = unionFields.get(source);
    List<Row> rows = new ArrayList<>(own.size());
    for (Row row : own) {
      Object[] values = new Object[union.getFieldCount()];
      values[0] = table.destination().toString();
      for (int i = 0; i < fields.length; i++) {
        values[fields[i]] = row.getValue(i);
      }
      // The values were checked when the table's own row was built: attached, not checked again.
      rows.add(Row.withSchema(union).attachValues(Arrays.asList(values)));
    }
    return rows;
  }
}
