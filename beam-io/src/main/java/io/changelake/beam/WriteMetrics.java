package io.changelake.beam;

import io.changelake.mergetree.BackgroundCompaction;
import io.changelake.mergetree.lookup.LookupCache;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Distribution;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;

/**
 * The Beam metrics of the write, in one namespace ({@value #NAMESPACE}) so an operator filters them
 * at once, camelCase as {@link ReadMetrics} and Beam's own IOs name theirs. What each means and
 * which must stay zero: the package documentation.
 */
final class WriteMetrics {

  static final String NAMESPACE = "changelake.write";

  static final Counter ROWS_WRITTEN = Metrics.counter(NAMESPACE, "rowsWritten");
  static final Counter DEAD_LETTERS = Metrics.counter(NAMESPACE, "deadLetters");
  static final Counter FILES_WRITTEN = Metrics.counter(NAMESPACE, "filesWritten");
  static final Counter BYTES_WRITTEN = Metrics.counter(NAMESPACE, "bytesWritten");
  static final Counter CHANGELOG_ROWS = Metrics.counter(NAMESPACE, "changelogRows");
  static final Distribution FLUSH_AND_COMPACTION_MILLIS =
      Metrics.distribution(NAMESPACE, "flushAndCompactionMillis");
  static final Counter WRITER_REBUILDS = Metrics.counter(NAMESPACE, "writerRebuilds");
  static final Counter COMMITS = Metrics.counter(NAMESPACE, "commits");
  static final Counter SNAPSHOTS = Metrics.counter(NAMESPACE, "snapshots");
  static final Distribution COMMIT_MILLIS = Metrics.distribution(NAMESPACE, "commitMillis");
  static final Counter CONFLICTS_RETRIED = Metrics.counter(NAMESPACE, "conflictsRetried");
  static final Counter COMMIT_CONFLICTS = Metrics.counter(NAMESPACE, "commitConflicts");
  static final Counter BATCHES_HELD_BACK = Metrics.counter(NAMESPACE, "batchesHeldBack");
  static final Counter BATCHES_AWAITING_MOVE = Metrics.counter(NAMESPACE, "batchesAwaitingMove");
  static final Counter JOINED_BATCHES = Metrics.counter(NAMESPACE, "joinedBatches");
  static final Counter DUPLICATE_BATCHES = Metrics.counter(NAMESPACE, "duplicateBatches");
  static final Counter INJECTED_FAULTS = Metrics.counter(NAMESPACE, "injectedFaults");
  static final Counter SCHEMA_CHANGES = Metrics.counter(NAMESPACE, "schemaChanges");
  static final Counter BUCKETS_ASSIGNED = Metrics.counter(NAMESPACE, "bucketsAssigned");
  static final Counter ASSIGNMENTS_FORGOTTEN = Metrics.counter(NAMESPACE, "assignmentsForgotten");
  static final Counter IDLE_WRITERS_CLOSED = Metrics.counter(NAMESPACE, "idleWritersClosed");
  static final Gauge HOSTED_WRITERS = Metrics.gauge(NAMESPACE, "hostedWriters");
  static final Gauge LOOKUP_CACHE_MEMORY_BYTES = Metrics.gauge(NAMESPACE, "lookupCacheMemoryBytes");
  static final Gauge LOOKUP_CACHE_DISK_BYTES = Metrics.gauge(NAMESPACE, "lookupCacheDiskBytes");
  static final Gauge LOOKUP_CACHE_HIT_PERCENT = Metrics.gauge(NAMESPACE, "lookupCacheHitPercent");
  static final Gauge LOOKUP_CACHE_EVICTIONS = Metrics.gauge(NAMESPACE, "lookupCacheEvictions");
  static final Gauge BACKGROUND_COMPACTIONS_PENDING =
      Metrics.gauge(NAMESPACE, "backgroundCompactionsPending");
  static final Gauge BACKGROUND_COMPACTIONS_DROPPED =
      Metrics.gauge(NAMESPACE, "backgroundCompactionsDropped");
  static final Gauge BACKGROUND_COMPACTIONS_FAILED =
      Metrics.gauge(NAMESPACE, "backgroundCompactionsFailed");

  private WriteMetrics() {}

  /**
   * Sets the gauges of the worker's shared lookup caches and background compactions (every table's
   * in this JVM) and of the writers this DoFn instance hosts.
   */
  static void reportWorker(int hostedWriters) {
    HOSTED_WRITERS.set(hostedWriters);
    LookupCache.Stats cache = LookupCache.sharedStats();
    LOOKUP_CACHE_MEMORY_BYTES.set(cache.memoryBytes());
    LOOKUP_CACHE_DISK_BYTES.set(cache.diskBytes());
    LOOKUP_CACHE_HIT_PERCENT.set(Math.round(100 * cache.hitRate()));
    LOOKUP_CACHE_EVICTIONS.set(cache.memoryEvictions() + cache.diskEvictions());
    BackgroundCompaction.Stats compactions = BackgroundCompaction.sharedStats();
    BACKGROUND_COMPACTIONS_PENDING.set(compactions.pending());
    BACKGROUND_COMPACTIONS_DROPPED.set(compactions.dropped());
    BACKGROUND_COMPACTIONS_FAILED.set(compactions.failed());
  }
}
