package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.changelake.beam.FaultInjection.InjectedFault;
import io.changelake.beam.FaultInjection.Point;
import io.changelake.format.FileKind;
import io.changelake.format.ManifestEntry;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Rows;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Exactly-once under failures: each stage fails once at a chosen point (the second time it gets
 * there, so that earlier batches are pending) and is retried: every row is in the table exactly
 * once, no snapshot adds a file that is already live, and the lookup changelog replayed equals the
 * table.
 */
public class ExactlyOnceTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final Duration INTERVAL = Duration.standardSeconds(10);
  private static final int KEYS = 200;
  private static final int ROUNDS = 4;

  /** How often each point was reached; static because the runner works on serialized copies. */
  private static final Map<Point, AtomicInteger> REACHED = new EnumMap<>(Point.class);

  static {
    for (Point p : Point.values()) {
      REACHED.put(p, new AtomicInteger());
    }
  }

  /** Fails every point the second time it is reached, once. */
  private static final FaultInjection FAIL_EACH_POINT_ONCE =
      point -> {
        if (REACHED.get(point).incrementAndGet() == 2) {
          throw new InjectedFault(point);
        }
      };

  @Test
  public void failuresAtEveryPointLeaveEachRowOnceAndAChangelogThatReplaysToTheTable()
      throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    TestStream.Builder<Row> events = TestStream.create(RowCoder.of(OrderRows.SCHEMA));
    for (long round = 1; round <= ROUNDS; round++) {
      List<Row> rows = new ArrayList<>();
      for (long key = 0; key < KEYS; key++) {
        rows.add(OrderRows.change("+I", key, key % 5, round * 1000 + key));
      }
      events =
          events
              .addElements(rows.get(0), rows.subList(1, rows.size()).toArray(new Row[0]))
              .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
              .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)));
    }
    pipeline
        .apply(events.advanceWatermarkToInfinity())
        .apply(
            OrderRows.write(warehouse, Map.of("bucket", "3", "changelog-producer", "lookup"))
                .withCommitInterval(INTERVAL)
                .withArrivalOrder()
                .withFaultInjection(FAIL_EACH_POINT_ONCE));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    assertEquals(Point.values().length, BatchWriteTest.counter(result, "injectedFaults"));
    assertTrue(BatchWriteTest.counter(result, "writerRebuilds") >= 2);

    List<Object[]> expected = new ArrayList<>();
    for (long key = 0; key < KEYS; key++) {
      expected.add(new Object[] {key, key % 5, ROUNDS * 1000 + key});
    }
    Rows.assertSameRows(expected, OrderRows.readAll(warehouse, S3Settings.defaults()));
    assertNoSnapshotAddsALiveFile(warehouse);
    Rows.assertSameRows(expected, replay(OrderRows.changelog(warehouse)));
  }

  private static void assertNoSnapshotAddsALiveFile(String warehouse) throws Exception {
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table table = Table.open(store, OrderRows.PATH);
      Set<ManifestEntry.Identifier> live = new HashSet<>();
      for (long id : table.snapshots().listIds()) {
        Snapshot s = table.snapshots().read(id);
        for (ManifestEntry e : table.newScan().deltaEntries(s)) {
          if (e.kind() == FileKind.ADD) {
            assertTrue(
                "snapshot " + id + " adds live " + e.file().fileName(), live.add(e.identifier()));
          } else {
            assertTrue(
                "snapshot " + id + " removes dead " + e.file().fileName(),
                live.remove(e.identifier()));
          }
        }
      }
    }
  }

  /** The table a changelog builds: adds put the row, retractions remove the key. */
  private static List<Object[]> replay(List<String> changes) {
    Map<String, Object[]> byKey = new LinkedHashMap<>();
    for (String change : changes) {
      String kind = change.substring(0, 2);
      String[] values = change.substring(3, change.length() - 1).split(", ");
      Object[] row = Arrays.stream(values).map(Long::valueOf).toArray();
      if (kind.equals("+I") || kind.equals("+U")) {
        byKey.put(values[0], row);
      } else {
        assertTrue("retracts a key that is not there: " + change, byKey.remove(values[0]) != null);
      }
    }
    return new ArrayList<>(byKey.values());
  }
}
