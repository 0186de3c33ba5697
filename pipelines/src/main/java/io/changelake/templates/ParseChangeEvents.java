package io.changelake.templates;

import io.changelake.beam.SourcePosition;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Debezium JSON events, each with its source position ({@link SourcePosition}: Kafka
 * topic-partition and offset) or null, to change rows ({@link #CHANGES}, schema {@link
 * #changeSchema()}) and dead-letter lines for the events that cannot be read ({@link
 * #DEAD_LETTERS}); a bad event never stops the pipeline. The positions of events that make no
 * change row (empty events such as tombstones, bad events) are settled at once on {@link #SETTLED};
 * a change row carries its event's position in {@link TableColumns#SOURCE} for the write to settle.
 * Counters {@code events} and {@code badEvents} in namespace {@code changelake.templates}.
 */
final class ParseChangeEvents extends PTransform<PCollection<KV<String, Row>>, PCollectionTuple> {
  private static final long serialVersionUID = 1L;

  static final TupleTag<Row> CHANGES = new TupleTag<>() {};
  static final TupleTag<String> DEAD_LETTERS = new TupleTag<>() {};
  static final TupleTag<Row> SETTLED = new TupleTag<>() {};

  /** Turns one event into the change rows of one schema, or refuses it as a bad event. */
  interface EventRows extends Serializable {

    /** The schema of the rows. */
    Schema schema();

    /**
     * The change rows of one event.
     *
     * @param offset the event's Kafka partition offset, or null when it comes from elsewhere
     */
    List<Row> rows(String event, Long offset) throws DebeziumEvents.BadEvent;
  }

  private final EventRows eventRows;
  private final boolean positioned;
  private final String table;

  /**
   * @param positioned whether the events carry source positions (from Kafka)
   * @param table the table the changes go to, named in the settled positions
   */
  ParseChangeEvents(
      TableColumns columns, ColumnType.Unit timeUnit, boolean positioned, String table) {
    this(new DebeziumEvents(columns, timeUnit), positioned, table);
  }

  /** The events of many tables, or of one, as {@code eventRows} turns them into rows. */
  ParseChangeEvents(EventRows eventRows, boolean positioned, String table) {
    this.eventRows = eventRows;
    this.positioned = positioned;
    this.table = table;
  }

  /** The change rows' schema: {@link EventRows#schema()}, then the position if any. */
  Schema changeSchema() {
    Schema schema = eventRows.schema();
    return positioned
        ? Schema.builder()
            .addFields(schema.getFields())
            .addField(TableColumns.SOURCE, SourcePosition.FIELD_TYPE)
            .build()
        : schema;
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, Row>> events) {
    Schema schema = changeSchema();
    PCollectionTuple parsed =
        events.apply(
            "ParseDebezium",
            ParDo.of(new ParseFn(eventRows, positioned ? schema : null, table))
                .withOutputTags(CHANGES, TupleTagList.of(DEAD_LETTERS).and(SETTLED)));
    parsed.get(CHANGES).setRowSchema(schema);
    parsed.get(SETTLED).setRowSchema(SourcePosition.SETTLED_SCHEMA);
    return parsed;
  }

  private static final class ParseFn extends DoFn<KV<String, Row>, Row> {
    private static final long serialVersionUID = 1L;

    private final EventRows debezium;
    private final Schema positioned;
    private final String table;
    private final Counter events = Metrics.counter("changelake.templates", "events");
    private final Counter badEvents = Metrics.counter("changelake.templates", "badEvents");

    ParseFn(EventRows debezium, Schema positioned, String table) {
      this.debezium = debezium;
      this.positioned = positioned;
      this.table = table;
    }

    @ProcessElement
    public void process(@Element KV<String, Row> sourced, MultiOutputReceiver out) {
      String event = sourced.getKey();
      Row position = sourced.getValue();
      if (event.isBlank()) {
        settle(position, out);
        return;
      }
      events.inc();
      try {
        List<Row> rows =
            debezium.rows(event, position == null ? null : position.getInt64("offset"));
        for (Row row : rows) {
          out.get(CHANGES).output(positioned == null ? row : withPosition(row, position));
        }
        if (rows.isEmpty()) {
          settle(position, out);
        }
      } catch (DebeziumEvents.BadEvent e) {
        badEvents.inc();
        out.get(DEAD_LETTERS).output(DeadLetterFiles.line(e.getMessage(), event));
        settle(position, out);
      }
    }

    /**
     * The change row with its position appended. Its values were checked against their field types
     * when the row was built; attaching them spares Row.Builder's second pass over each, which cost
     * a third of the events parsed per second (two rows an event, six columns).
     */
    private Row withPosition(Row row, Row position) {
      List<Object> values = new ArrayList<>(row.getFieldCount() + 1);
      values.addAll(row.getValues());
      values.add(position);
      return Row.withSchema(positioned).attachValues(values);
    }

    private void settle(Row position, MultiOutputReceiver out) {
      Row settled = SourcePosition.settledWithoutCommit(table, position);
      if (settled != null) {
        out.get(SETTLED).output(settled);
      }
    }
  }
}
