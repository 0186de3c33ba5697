package io.changelake.beam;

import io.changelake.format.SerializedRow;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotLog;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.InstantCoder;
import org.apache.beam.sdk.io.range.OffsetRange;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.splittabledofn.GrowableOffsetRangeTracker;
import org.apache.beam.sdk.transforms.splittabledofn.ManualWatermarkEstimator;
import org.apache.beam.sdk.transforms.splittabledofn.OffsetRangeTracker;
import org.apache.beam.sdk.transforms.splittabledofn.RestrictionTracker;
import org.apache.beam.sdk.transforms.splittabledofn.WatermarkEstimators;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Follows a table's snapshots: a splittable DoFn whose restriction is the range of snapshot ids
 * still to read, from the element (the first snapshot) to the end snapshot, or open-ended. Each
 * claimed snapshot becomes its read tasks, one per (partition, bucket), as the table's changelog
 * producer says ({@link ChangelogScan#changes}), stamped with the snapshot's commit time.
 *
 * <p>Snapshots are claimed strictly in order and the restriction is never split, since the changes
 * of one key must stay in snapshot order for whoever orders them downstream. When no snapshot is
 * new, the DoFn checkpoints and resumes after the poll interval.
 *
 * <p>The watermark is set by hand: to each emitted snapshot's commit time, and on an empty poll to
 * the poll's wall-clock time less {@link #COMMIT_SLACK}, since a snapshot that becomes visible
 * later was stamped no earlier than that. Idle tables thus still let windows close.
 *
 * <p>Whether the output is bounded is a static property of a DoFn class in Beam, so the two read
 * kinds are the two subclasses {@link Bounded} and {@link Unbounded} of one implementation.
 */
abstract class WatchSnapshotsFn extends DoFn<Long, ChangelogTask> {
  private static final long serialVersionUID = 1L;

  /**
   * How far before its file appears a snapshot may be stamped: a committer takes the time, then
   * writes manifests and publishes. Writers whose clocks run behind the readers' need more.
   */
  static final Duration COMMIT_SLACK = Duration.standardSeconds(10);

  private final TableReference source;
  private final Long endSnapshot;
  private final java.time.Duration pollInterval;
  private final String consumerId;
  private final PartitionFilter partitions;

  private transient TableReference.Opened opened;
  private transient ChangelogScan scan;
  private transient SnapshotLog snapshots;
  private transient Predicate<SerializedRow> accepts;
  private transient ConsumerProgress progress;

  /** The latest snapshot the last poll saw; the growable range's end estimate. */
  private transient volatile long knownLatest;

  /**
   * @param endSnapshot the last snapshot to read, or null to follow the table forever
   * @param consumerId the consumer whose progress is recorded, or null
   */
  WatchSnapshotsFn(
      TableReference source,
      Long endSnapshot,
      java.time.Duration pollInterval,
      String consumerId,
      PartitionFilter partitions) {
    this.source = source;
    this.endSnapshot = endSnapshot;
    this.pollInterval = pollInterval;
    this.consumerId = consumerId;
    this.partitions = partitions;
  }

  /** Reads the snapshots up to an end snapshot; its output is bounded. */
  @BoundedPerElement
  static final class Bounded extends WatchSnapshotsFn {
    private static final long serialVersionUID = 1L;

    Bounded(
        TableReference source,
        long endSnapshot,
        java.time.Duration pollInterval,
        String consumerId,
        PartitionFilter partitions) {
      super(source, endSnapshot, pollInterval, consumerId, partitions);
    }
  }

  /** Follows the table forever; its output is unbounded. */
  @UnboundedPerElement
  static final class Unbounded extends WatchSnapshotsFn {
    private static final long serialVersionUID = 1L;

    Unbounded(
        TableReference source,
        java.time.Duration pollInterval,
        String consumerId,
        PartitionFilter partitions) {
      super(source, null, pollInterval, consumerId, partitions);
    }
  }

  @Setup
  public void setup() throws IOException {
    opened = source.open();
    scan = opened.table().newChangelogScan();
    snapshots = opened.table().snapshots();
    accepts = partitions.bind(opened.table());
    progress =
        consumerId == null ? null : new ConsumerProgress(opened.table().consumers(), consumerId);
  }

  @GetInitialRestriction
  public OffsetRange initialRestriction(@Element Long firstSnapshot) {
    long end = endSnapshot == null ? Long.MAX_VALUE : Math.max(firstSnapshot, endSnapshot + 1);
    return new OffsetRange(firstSnapshot, end);
  }

  @GetRestrictionCoder
  public Coder<OffsetRange> restrictionCoder() {
    return OffsetRange.Coder.of();
  }

  @NewTracker
  public RestrictionTracker<OffsetRange, Long> newTracker(@Restriction OffsetRange range) {
    if (range.getTo() == Long.MAX_VALUE) {
      // Progress and backlog are reported against the latest snapshot seen so far.
      return new GrowableOffsetRangeTracker(range.getFrom(), () -> knownLatest + 1);
    }
    return new OffsetRangeTracker(range);
  }

  @GetInitialWatermarkEstimatorState
  public Instant initialWatermark() {
    return BoundedWindow.TIMESTAMP_MIN_VALUE;
  }

  @GetWatermarkEstimatorStateCoder
  public Coder<Instant> watermarkCoder() {
    return InstantCoder.of();
  }

  @NewWatermarkEstimator
  public ManualWatermarkEstimator<Instant> newWatermarkEstimator(
      @WatermarkEstimatorState Instant state) {
    return new WatermarkEstimators.Manual(state);
  }

  @ProcessElement
  public ProcessContinuation processElement(
      RestrictionTracker<OffsetRange, Long> tracker,
      ManualWatermarkEstimator<Instant> watermark,
      OutputReceiver<ChangelogTask> out,
      BundleFinalizer finalizer)
      throws IOException {
    long next = tracker.currentRestriction().getFrom();
    long end = tracker.currentRestriction().getTo();
    long latest = snapshots.latestId().orElse(0);
    knownLatest = latest;
    long first = next;
    try {
      while (next <= latest) {
        if (!tracker.tryClaim(next)) {
          return ProcessContinuation.stop();
        }
        Instant commitTime = emit(snapshot(next), out);
        advance(watermark, commitTime);
        ReadMetrics.SNAPSHOTS_SEEN.inc();
        ReadMetrics.LAG_SNAPSHOTS.set(latest - next);
        long age = System.currentTimeMillis() - commitTime.getMillis();
        ReadMetrics.LAG_MILLIS.set(Math.max(0, age));
        next++;
      }
    } finally {
      // A bundle that fails never runs its callbacks, so this records only committed progress.
      if (progress != null && next > first) {
        progress.recordAfterCommit(finalizer, next);
      }
    }
    if (next >= end) {
      return ProcessContinuation.stop();
    }
    ReadMetrics.LAG_SNAPSHOTS.set(0);
    ReadMetrics.LAG_MILLIS.set(0);
    advance(watermark, Instant.now().minus(COMMIT_SLACK));
    return ProcessContinuation.resume().withResumeDelay(Duration.millis(pollInterval.toMillis()));
  }

  /** Emits the tasks of one snapshot; returns its commit time. */
  private Instant emit(Snapshot snapshot, OutputReceiver<ChangelogTask> out) throws IOException {
    Instant commitTime = Instant.ofEpochMilli(snapshot.timeMillis());
    for (ChangelogTask task : scan.changes(snapshot)) {
      if (accepts.test(task.partition())) {
        ReadMetrics.READ_TASKS.inc();
        out.outputWithTimestamp(task, commitTime);
      }
    }
    return commitTime;
  }

  /** The snapshot, or its long-lived changelog; the scan words the error when neither exists. */
  private Snapshot snapshot(long id) throws IOException {
    return scan.snapshot(id);
  }

  private static void advance(ManualWatermarkEstimator<Instant> watermark, Instant to) {
    if (to.isAfter(watermark.currentWatermark())) {
      watermark.setWatermark(to);
    }
  }

  @Teardown
  public void teardown() {
    Release.quietly("WatchSnapshotsFn: table", opened);
    opened = null;
  }
}
