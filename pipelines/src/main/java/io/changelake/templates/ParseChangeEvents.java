package io.changelake.templates;

import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
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
 * Debezium JSON events, each with its Kafka partition offset or null, to change rows ({@link
 * #CHANGES}, schema {@link TableColumns#changeSchema()}) and dead-letter lines for the events that
 * cannot be read ({@link #DEAD_LETTERS}); a bad event never stops the pipeline. Counters {@code
 * events} and {@code badEvents} in namespace {@code changelake.templates}.
 */
final class ParseChangeEvents extends PTransform<PCollection<KV<String, Long>>, PCollectionTuple> {
  private static final long serialVersionUID = 1L;

  static final TupleTag<Row> CHANGES = new TupleTag<>() {};
  static final TupleTag<String> DEAD_LETTERS = new TupleTag<>() {};

  private final TableColumns columns;
  private final ColumnType.Unit timeUnit;

  ParseChangeEvents(TableColumns columns, ColumnType.Unit timeUnit) {
    this.columns = columns;
    this.timeUnit = timeUnit;
  }

  @Override
  public PCollectionTuple expand(PCollection<KV<String, Long>> events) {
    PCollectionTuple parsed =
        events.apply(
            "ParseDebezium",
            ParDo.of(new ParseFn(new DebeziumEvents(columns, timeUnit)))
                .withOutputTags(CHANGES, TupleTagList.of(DEAD_LETTERS)));
    parsed.get(CHANGES).setRowSchema(columns.changeSchema());
    return parsed;
  }

  private static final class ParseFn extends DoFn<KV<String, Long>, Row> {
    private static final long serialVersionUID = 1L;

    private final DebeziumEvents debezium;
    private final Counter events = Metrics.counter("changelake.templates", "events");
    private final Counter badEvents = Metrics.counter("changelake.templates", "badEvents");

    ParseFn(DebeziumEvents debezium) {
      this.debezium = debezium;
    }

    @ProcessElement
    public void process(@Element KV<String, Long> sourced, MultiOutputReceiver out) {
      String event = sourced.getKey();
      if (event.isBlank()) {
        return;
      }
      events.inc();
      try {
        List<Row> rows = debezium.rows(event, sourced.getValue());
        for (Row row : rows) {
          out.get(CHANGES).output(row);
        }
      } catch (DebeziumEvents.BadEvent e) {
        badEvents.inc();
        out.get(DEAD_LETTERS).output(DeadLetterFiles.line(e.getMessage(), event));
      }
    }
  }
}
