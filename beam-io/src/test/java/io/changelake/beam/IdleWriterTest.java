package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.changelake.store.S3Settings;
import io.changelake.table.Rows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.TestPipeline;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Idle bucket writers are closed and rebuilt from the table and the Beam state on their bucket's
 * next batch: with an idle timeout of zero every batch finds its writer closed, and the lookup
 * changelog is still exact (one +I per key, then a -U/+U pair per key and round).
 */
public class IdleWriterTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final Duration INTERVAL = Duration.standardSeconds(10);
  private static final int KEYS = 100;
  private static final int ROUNDS = 3;

  @Test
  public void closedIdleWritersAreRebuiltAndTheLookupChangelogStaysExact() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    int[] everyKeyEachRound = new int[ROUNDS];
    Arrays.fill(everyKeyEachRound, KEYS);
    pipeline
        .apply(OrderRows.rounds(INTERVAL, everyKeyEachRound))
        .apply(
            OrderRows.write(warehouse, Map.of("bucket", "2", "changelog-producer", "lookup"))
                .withCommitInterval(INTERVAL)
                // amount grows with each round, so it orders a key's versions.
                .withSequenceField("amount")
                .withIdleWriterTimeout(Duration.ZERO));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    long rebuilds = BatchWriteTest.counter(result, "writerRebuilds");
    long closed = BatchWriteTest.counter(result, "idleWritersClosed");
    // Each bucket's later batches find their writer closed, if the runner hands them to the DoFn
    // instance that hosted it; another instance rebuilds it anyway.
    assertTrue(
        "rebuilds " + rebuilds + ", closed " + closed, closed >= 1 && rebuilds >= ROUNDS - 1);

    List<Object[]> expected = new ArrayList<>();
    for (long key = 0; key < KEYS; key++) {
      expected.add(new Object[] {key, key % 5, ROUNDS * 1000 + key});
    }
    Rows.assertSameRows(expected, OrderRows.readAll(warehouse, S3Settings.defaults()));
    Map<String, Long> kinds =
        OrderRows.changelog(warehouse).stream()
            .collect(Collectors.groupingBy(c -> c.substring(0, 2), Collectors.counting()));
    assertEquals(
        Map.of(
            "+I", (long) KEYS, "-U", (long) KEYS * (ROUNDS - 1), "+U", (long) KEYS * (ROUNDS - 1)),
        kinds);
  }
}
