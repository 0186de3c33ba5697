package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import java.util.stream.Collectors;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.testing.TestPipeline;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * What an operator sees of a worker while a lookup write runs: the bucket writers the write's DoFn
 * hosts, and the worker's shared lookup cache (bytes in memory and on local disk, hit rate,
 * evictions), as Beam gauges of {@code changelake.write}.
 */
public class WorkerGaugesTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private static final int BUCKETS = 2;
  private static final int KEYS = 2_000;
  private static final int UPDATED = 20;

  @Test
  public void aLookupWriteReportsItsHostedWritersAndItsWorkersLookupCache() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    Duration interval = Duration.standardSeconds(10);
    // Rounds 2 and 3 update a few keys of round 1's: their level-0 files are far smaller than
    // round 1's file, so compaction lifts them above it rather than merge them with it, and
    // their changelog comes from lookups of that file. (Three rounds of 100 keys each, as in
    // IdleWriterTest, merged every round and looked nothing up: the hit rate stayed 0.)
    // A lookup cache smaller than one bucket's copies, so that they spill to local disk: within
    // the budget they would stay in memory, and the disk gauge at 0.
    pipeline
        .apply(OrderRows.rounds(interval, KEYS, UPDATED, UPDATED))
        .apply(
            OrderRows.write(
                    warehouse,
                    Map.of(
                        "bucket",
                        Integer.toString(BUCKETS),
                        "changelog-producer",
                        "lookup",
                        "lookup.cache-max-memory-size",
                        "16 kb"))
                .withCommitInterval(interval)
                .withSequenceField("amount"));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());

    assertEquals(
        Map.of("+I", (long) KEYS, "-U", 2L * UPDATED, "+U", 2L * UPDATED),
        OrderRows.changelog(warehouse).stream()
            .collect(Collectors.groupingBy(c -> c.substring(0, 2), Collectors.counting())));
    long hosted = gauge(result, "hostedWriters");
    assertTrue("hosted writers " + hosted, hosted >= 1 && hosted <= BUCKETS);
    // The cache gauges are the worker's, summed over the caches of every table this JVM wrote:
    // at least this write's.
    assertTrue("bytes in memory", gauge(result, "lookupCacheMemoryBytes") > 0);
    assertTrue("bytes on disk", gauge(result, "lookupCacheDiskBytes") > 0);
    long hitPercent = gauge(result, "lookupCacheHitPercent");
    assertTrue("hit percent " + hitPercent, hitPercent > 0 && hitPercent <= 100);
    assertTrue("evictions reported", gauge(result, "lookupCacheEvictions") >= 0);
  }

  private static long gauge(PipelineResult result, String name) {
    return BatchWriteTest.gauge(result, WriteMetrics.NAMESPACE, name);
  }
}
