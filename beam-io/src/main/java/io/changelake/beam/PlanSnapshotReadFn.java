package io.changelake.beam;

import io.changelake.format.SerializedRow;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.table.BucketSplit;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotLog;
import io.changelake.table.SnapshotNotFoundException;
import io.changelake.table.Table;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.apache.beam.sdk.transforms.DoFn;

/**
 * Plans a batch read: picks the snapshot (latest, by id, as of a time, or by tag) and emits one
 * task per (partition, bucket) of its live files that the partition filter accepts. The tasks are
 * {@link ChangelogTask.Content#STATE} tasks, so the reader merges each bucket's files into its
 * rows.
 */
final class PlanSnapshotReadFn extends DoFn<byte[], ChangelogTask> {
  private static final long serialVersionUID = 1L;

  private final TableReference source;
  private final Long snapshotId;
  private final Long asOfMillis;
  private final String tagName;
  private final PartitionFilter partitions;

  /**
   * @param snapshotId the snapshot to read, or null
   * @param asOfMillis read the newest snapshot committed at or before this time, or null
   * @param tagName read the snapshot with this tag, or null; with all three null the latest
   *     snapshot is read
   */
  PlanSnapshotReadFn(
      TableReference source,
      Long snapshotId,
      Long asOfMillis,
      String tagName,
      PartitionFilter partitions) {
    this.source = source;
    this.snapshotId = snapshotId;
    this.asOfMillis = asOfMillis;
    this.tagName = tagName;
    this.partitions = partitions;
  }

  @ProcessElement
  public void processElement(OutputReceiver<ChangelogTask> out) throws IOException {
    try (TableReference.Opened opened = source.open()) {
      Table table = opened.table();
      Optional<Snapshot> snapshot = pick(table);
      if (snapshot.isEmpty()) {
        return;
      }
      Predicate<SerializedRow> accepts = partitions.bind(table);
      for (BucketSplit split : table.newRead().splits(snapshot.get())) {
        if (accepts.test(split.partition())) {
          ReadMetrics.READ_TASKS.inc();
          out.output(
              new ChangelogTask(
                  split.snapshotId(),
                  split.partition(),
                  split.bucket(),
                  split.files(),
                  ChangelogTask.Content.STATE));
        }
      }
    }
  }

  private Optional<Snapshot> pick(Table table) throws IOException {
    SnapshotLog snapshots = table.snapshots();
    if (tagName != null) {
      return Optional.of(table.tags().read(tagName));
    }
    if (snapshotId != null) {
      try {
        return Optional.of(snapshots.read(snapshotId));
      } catch (ObjectNotFoundException e) {
        throw new SnapshotNotFoundException(
            snapshotId,
            "snapshot "
                + snapshotId
                + " of "
                + table.location()
                + " does not exist (expired or"
                + " not committed yet; "
                + range(snapshots)
                + "): read an existing snapshot");
      }
    }
    OptionalLong latest = snapshots.latestId();
    if (asOfMillis == null || latest.isEmpty()) {
      return snapshots.latest();
    }
    // Commit times grow with ids: bisect for the newest snapshot committed at or before the time.
    long low = snapshots.earliestId().orElseThrow();
    long high = latest.getAsLong();
    if (snapshots.read(low).timeMillis() > asOfMillis) {
      throw new SnapshotNotFoundException(
          low,
          "no snapshot of "
              + table.location()
              + " was committed at or before "
              + asOfMillis
              + " ms ("
              + range(snapshots)
              + ", the earliest at "
              + snapshots.read(low).timeMillis()
              + " ms): read a later time");
    }
    while (low < high) {
      long mid = low + (high - low + 1) / 2;
      if (snapshots.read(mid).timeMillis() <= asOfMillis) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return Optional.of(snapshots.read(low));
  }

  private static String range(SnapshotLog snapshots) throws IOException {
    OptionalLong earliest = snapshots.earliestId();
    OptionalLong latest = snapshots.latestId();
    return earliest.isPresent() && latest.isPresent()
        ? "snapshots " + earliest.getAsLong() + " to " + latest.getAsLong() + " exist"
        : "the table has no snapshot";
  }
}
