package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The write's settled source positions: every input position comes out once the write is done with
 * its row, a committed one only when the table's snapshots already hold its commit, a refused one
 * without an identifier; the position field is no column.
 */
public class SettledPositionsTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final Schema SCHEMA =
      Schema.builder()
          .addFields(OrderRows.SCHEMA.getFields())
          .addField("source", SourcePosition.FIELD_TYPE)
          .build();

  private static Row row(String op, long order, long amount, String partition, long offset) {
    return Row.withSchema(SCHEMA)
        .addValues(order, 10L, amount, op, SourcePosition.of(partition, offset))
        .build();
  }

  @Test
  public void everyPositionSettlesAndACommittedOneOnlyOnceItsSnapshotExists() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    Duration interval = Duration.standardSeconds(10);
    List<Row> first = new ArrayList<>();
    for (long o = 0; o < 10; o++) {
      first.add(row(o == 5 ? "??" : "+I", 1000 + o, 100 + o, "orders-0", o));
    }
    List<Row> second = new ArrayList<>();
    for (long o = 10; o < 15; o++) {
      second.add(row("+U", 1000 + o - 10, 80, "orders-0", o));
      second.add(row("+I", 2000 + o, 1, "orders-1", o - 10));
    }
    TestStream<Row> events =
        TestStream.create(RowCoder.of(SCHEMA))
            .addElements(first.get(0), first.subList(1, first.size()).toArray(new Row[0]))
            .advanceProcessingTime(interval.plus(Duration.millis(1)))
            .addElements(second.get(0), second.subList(1, second.size()).toArray(new Row[0]))
            .advanceProcessingTime(interval.plus(Duration.millis(1)))
            .advanceWatermarkToInfinity();
    WriteResult result =
        pipeline
            .apply(events)
            .apply(
                OrderRows.write(warehouse, Map.of("bucket", "2"))
                    .withArrivalOrder()
                    .withCommitInterval(interval));
    PCollection<Row> settled = result.getSettledPositions();
    PAssert.that(settled.apply("CheckCommitted", ParDo.of(new InTableFn(warehouse))))
        .satisfies(
            verdicts -> {
              verdicts.forEach(v -> assertEquals("in a committed snapshot", v));
              return null;
            });
    PAssert.that(settled)
        .satisfies(
            ranges -> {
              Map<String, TreeSet<Long>> offsets = new TreeMap<>();
              List<Long> refused = new ArrayList<>();
              for (Row r : ranges) {
                for (long o = r.getInt64("first_offset"); o <= r.getInt64("last_offset"); o++) {
                  offsets.computeIfAbsent(r.getString("partition"), p -> new TreeSet<>()).add(o);
                  if (r.getInt64("commit_identifier") == null) {
                    refused.add(o);
                  }
                }
              }
              assertEquals(15, offsets.get("orders-0").size());
              assertEquals(Long.valueOf(14), offsets.get("orders-0").last());
              assertEquals(5, offsets.get("orders-1").size());
              assertEquals(List.of(5L), refused);
              return null;
            });
    pipeline.run().waitUntilFinish();
    List<Object[]> table = OrderRows.readAll(warehouse, S3Settings.defaults());
    assertEquals(14, table.size());
    // order_id, store_id, amount: neither the row kind nor the position is a column.
    assertTrue(table.stream().allMatch(values -> values.length == 3));
  }

  /** Checks, as each range arrives, that the table already holds the commit it names. */
  private static final class InTableFn extends DoFn<Row, String> {
    private static final long serialVersionUID = 1L;
    private final String warehouse;

    InTableFn(String warehouse) {
      this.warehouse = warehouse;
    }

    @ProcessElement
    public void process(@Element Row range, OutputReceiver<String> out) throws IOException {
      Long identifier = range.getInt64("commit_identifier");
      if (identifier == null) {
        out.output("in a committed snapshot");
        return;
      }
      try (ObjectStore store = ObjectStores.open(warehouse)) {
        long latest =
            Table.open(store, OrderRows.PATH).snapshots().latest().orElseThrow().commitIdentifier();
        out.output(
            latest >= identifier
                ? "in a committed snapshot"
                : "commit " + identifier + " settled while the table is at " + latest);
      }
    }
  }
}
