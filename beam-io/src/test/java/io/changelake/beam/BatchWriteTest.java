package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3ProxyServer;
import io.changelake.store.S3Settings;
import io.changelake.table.CommitKind;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.GaugeResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bounded writes: upserts over a key space with each producer, read back by our reader and by
 * Paimon 1.3.1's, equal to the last upsert of every key; one commit at the end.
 */
class BatchWriteTest {

  @TempDir Path warehouse;

  // 1,000,000 upserts per producer, about 25 s each on two cores; -Dbatch.rows=N resizes them.
  @ParameterizedTest(name = "{0}: {1} upserts over {2} keys")
  @CsvSource({
    "lookup, 1000000, 100000",
    "none, 1000000, 100000",
    "input, 1000000, 100000",
    "full-compaction, 1000000, 100000"
  })
  void upsertsReadBackAsTheLastVersionOfEveryKey(String producer, long count, long keys)
      throws Exception {
    Upserts upserts = new Upserts(Long.getLong("batch.rows", count), keys);
    String location = warehouse.toString();
    Pipeline pipeline = Upserts.fastPipeline();
    upserts.input(pipeline).apply(OrderRows.write(location, upserts.options(producer, 4)));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());

    Rows.assertSameRows(upserts.expected(), OrderRows.readAll(location, S3Settings.defaults()));
    try (ObjectStore store = ObjectStores.open(location)) {
      Table table = Table.open(store, OrderRows.PATH);
      Rows.assertSameRows(
          upserts.expected(),
          PaimonTables.readAll(
              PaimonTables.open(warehouse.resolve(OrderRows.PATH.root())), table.schema()));
      assertEquals(1, counter(result, "commits"));
      assertEquals(upserts.count, counter(result, "rowsWritten"));
      assertEquals(0, counter(result, "commitConflicts"));
    }
  }

  @Test
  void upsertsThroughS3ReadBackAsTheLastVersionOfEveryKey() throws Exception {
    Upserts upserts = new Upserts(50_000, 10_000);
    try (S3ProxyServer s3 = S3ProxyServer.startInMemory()) {
      String location = "s3://" + s3.bucket() + "/warehouse";
      Pipeline pipeline = Upserts.fastPipeline();
      upserts
          .input(pipeline)
          .apply(
              OrderRows.write(location, upserts.options("lookup", 2))
                  .withS3Settings(s3.settings()));
      assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
      Rows.assertSameRows(upserts.expected(), OrderRows.readAll(location, s3.settings()));
    }
  }

  /**
   * A bounded write's batch is its bucket's last: the compaction its commit picks (a second level-0
   * file, with two sorted runs as the trigger) is recorded in that commit, not started beside the
   * writer and dropped when the writer closes.
   *
   * <p>The pick must not depend on file sizes: those depend on sequence numbers, so on the runner's
   * arrival order. With no size amplification allowed, two runs always compact all.
   */
  @Test
  void aBoundedWriteRecordsTheCompactionItsCommitPicks() throws Exception {
    Upserts upserts = new Upserts(2_000, 500);
    Map<String, String> options = new HashMap<>(upserts.options("none", 1));
    options.put("num-sorted-run.compaction-trigger", "2");
    options.put("compaction.max-size-amplification-percent", "0");
    String location = warehouse.toString();
    for (int run = 1; run <= 2; run++) {
      Pipeline pipeline = Upserts.fastPipeline();
      upserts.input(pipeline).apply(OrderRows.write(location, options));
      assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
    }
    try (ObjectStore store = ObjectStores.open(location)) {
      Table table = Table.open(store, OrderRows.PATH);
      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals(CommitKind.COMPACT, latest.commitKind(), "the second write's compaction");
      assertEquals(
          List.of(),
          table.newScan().liveFiles(latest).stream().filter(e -> e.file().level() == 0).toList(),
          "no level-0 file left");
    }
    Rows.assertSameRows(upserts.expected(), OrderRows.readAll(location, S3Settings.defaults()));
  }

  /** The write counter {@code name}, summed over steps. */
  static long counter(PipelineResult result, String name) {
    return counter(result, WriteMetrics.NAMESPACE, name);
  }

  /** The largest value a gauge of {@code namespace} reported last, by step; -1 if none did. */
  static long gauge(PipelineResult result, String namespace, String name) {
    long value = -1;
    for (MetricResult<GaugeResult> g : named(result, namespace, name).getGauges()) {
      value = Math.max(value, g.getAttempted().getValue());
    }
    return value;
  }

  static long counter(PipelineResult result, String namespace, String name) {
    long sum = 0;
    for (MetricResult<Long> c : named(result, namespace, name).getCounters()) {
      sum += c.getAttempted();
    }
    return sum;
  }

  private static MetricQueryResults named(PipelineResult result, String namespace, String name) {
    return result
        .metrics()
        .queryMetrics(
            MetricsFilter.builder().addNameFilter(MetricNameFilter.named(namespace, name)).build());
  }
}
