package io.changelake.templates;

import java.util.List;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * Debezium JSON lines to change rows ({@link #CHANGES}, schema {@link
 * TableColumns#changeSchema()}) and dead-letter lines for the events that cannot be read ({@link
 * #DEAD_LETTERS}); a bad event never stops the pipeline. Counters {@code events} and {@code
 * badEvents} in namespace {@code changelake.templates}.
 */
final class ParseChangeEvents extends PTransform<PCollection<String>, PCollectionTuple> {
  private static final long serialVersionUID = 1L;

  static final TupleTag<Row> CHANGES = new TupleTag<>() {};
  static final TupleTag<String> DEAD_LETTERS = new TupleTag<>() {};

  private final TableColumns columns;

  ParseChangeEvents(TableColumns columns) {
    this.columns = columns;
  }

  @Override
  public PCollectionTuple expand(PCollection<String> events) {
    PCollectionTuple parsed =
        events.apply(
            "ParseDebezium",
            ParDo.of(new ParseFn(new DebeziumEvents(columns)))
                .withOutputTags(CHANGES, TupleTagList.of(DEAD_LETTERS)));
    parsed.get(CHANGES).setRowSchema(columns.changeSchema());
    return parsed;
  }

  private static final class ParseFn extends DoFn<String, Row> {
    private static final long serialVersionUID = 1L;

    private final DebeziumEvents debezium;
    private final Counter events = Metrics.counter("changelake.templates", "events");
    private final Counter badEvents = Metrics.counter("changelake.templates", "badEvents");

    ParseFn(DebeziumEvents debezium) {
      this.debezium = debezium;
    }

    @ProcessElement
    public void process(@Element String event, MultiOutputReceiver out) {
      if (event.isBlank()) {
        return;
      }
      events.inc();
      try {
        List<Row> rows = debezium.rows(event);
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
