package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unbounded changelog read on the DirectRunner: started before the writer, it follows the
 * commits as they land and emits each change exactly once; a new pipeline with the same consumer id
 * resumes where the first stopped, without gap or repeat.
 */
class FollowChangelogTest {

  private static final String CONSUMER = "follower";

  @TempDir java.nio.file.Path warehouse;

  private PipelineResult follow(CollectedRows<Row> rows) {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setBlockOnRun(false);
    Pipeline pipeline = Pipeline.create(options);
    rows.collect(
        pipeline.apply(
            ChangelakeIO.readChangelog()
                .from(warehouse.toString(), SeedTables.ORDERS.database(), SeedTables.ORDERS.table())
                // Ignored once the consumer has progress: the restart must resume, not start over.
                .fromSnapshot(1)
                .withConsumerId(CONSUMER)
                .withPollInterval(Duration.ofMillis(100))
                .withSnapshotIdField("snapshot")));
    return pipeline.run();
  }

  /** Waits until the pipeline emitted as many changes as expected and recorded its consumer. */
  private static void awaitCaughtUp(
      Table table, CollectedRows<Row> rows, int expected, long nextSnapshot) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (rows.size() < expected
        || !OptionalLong.of(nextSnapshot).equals(table.consumers().nextSnapshot(CONSUMER))) {
      if (System.nanoTime() > deadline) {
        fail(
            "the reader emitted "
                + rows.size()
                + " of "
                + expected
                + " changes, consumer at "
                + table.consumers().nextSnapshot(CONSUMER)
                + ", expected "
                + nextSnapshot);
      }
      Thread.sleep(50);
    }
    // A few more polls: anything emitted twice would show up now.
    Thread.sleep(500);
  }

  private static List<String> sorted(CollectedRows<Row> rows) {
    return rows.elements().stream().map(SeedTables::change).sorted().toList();
  }

  @Test
  void followsCommitsAsTheyLandAndResumesFromItsConsumerWithoutGapOrRepeat() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SeedTables.create(store, Map.of("changelog-producer", "lookup"));
      TreeMap<Long, Object[]> state = new TreeMap<>();
      Random random = new Random(20);

      CollectedRows<Row> first = new CollectedRows<>();
      PipelineResult running = follow(first);
      for (long commit = 1; commit <= 20; commit++) {
        SeedTables.writeRandomChanges(table, state, random, commit, 1);
        Thread.sleep(30);
      }
      long latest = table.snapshots().latestId().orElseThrow();
      List<String> expected = ReadChangelogTest.storageChangelog(table, 0, latest);
      awaitCaughtUp(table, first, expected.size(), latest + 1);
      running.cancel();
      assertEquals(expected, sorted(first));

      SeedTables.writeRandomChanges(table, state, random, 21, 5);
      long newLatest = table.snapshots().latestId().orElseThrow();
      List<String> expectedAfterRestart =
          ReadChangelogTest.storageChangelog(table, latest, newLatest);
      CollectedRows<Row> second = new CollectedRows<>();
      PipelineResult restarted = follow(second);
      awaitCaughtUp(table, second, expectedAfterRestart.size(), newLatest + 1);
      restarted.cancel();
      assertEquals(expectedAfterRestart, sorted(second));
    }
  }
}
