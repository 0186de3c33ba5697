package io.changelake.beam;

import io.changelake.format.SerializedRow;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import java.io.IOException;
import java.util.function.Predicate;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Instant;

/**
 * Resolves where a changelog read begins, once, when the pipeline starts: the consumer's recorded
 * progress if it has any, else the scan mode. Emits the first snapshot whose changes follow, for
 * {@link WatchSnapshotsFn}, and for latest-full the state tasks of the latest snapshot, stamped
 * with its commit time.
 *
 * <p>A new consumer is recorded at the resolved snapshot as soon as this bundle commits, so a
 * pipeline stopped before the first new snapshot lands still resumes there.
 */
final class ResolveStartFn extends DoFn<byte[], Long> {
  private static final long serialVersionUID = 1L;

  static final TupleTag<Long> FIRST_SNAPSHOT = new TupleTag<>() {};
  static final TupleTag<ChangelogTask> STATE_TASKS = new TupleTag<>() {};

  private final TableReference source;
  private final ChangelogStart start;
  private final PartitionFilter partitions;

  ResolveStartFn(TableReference source, ChangelogStart start, PartitionFilter partitions) {
    this.source = source;
    this.start = start;
    this.partitions = partitions;
  }

  private transient TableReference.Opened opened;

  @Setup
  public void setup() throws IOException {
    // Open for the DoFn's life, not the bundle's: the consumer callback runs after the bundle.
    opened = source.open();
  }

  @ProcessElement
  public void processElement(MultiOutputReceiver out, BundleFinalizer finalizer)
      throws IOException {
    Table table = opened.table();
    ChangelogScan.Start resolved = table.newChangelogScan().start(start.startingPoint());
    if (!resolved.state().isEmpty()) {
      Instant stateTime =
          Instant.ofEpochMilli(table.snapshots().read(resolved.nextSnapshot() - 1).timeMillis());
      Predicate<SerializedRow> accepts = partitions.bind(table);
      for (ChangelogTask task : resolved.state()) {
        if (accepts.test(task.partition())) {
          ReadMetrics.READ_TASKS.inc();
          out.get(STATE_TASKS).outputWithTimestamp(task, stateTime);
        }
      }
    }
    out.get(FIRST_SNAPSHOT).output(resolved.nextSnapshot());
    if (start.consumerId() != null) {
      new ConsumerProgress(table.consumers(), start.consumerId())
          .recordAfterCommit(finalizer, resolved.nextSnapshot());
    }
  }

  @Teardown
  public void teardown() {
    Release.quietly("ResolveStartFn: table", opened);
    opened = null;
  }
}
