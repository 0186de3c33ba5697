package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketIncrement;
import java.util.List;

/**
 * What one bucket writer hands the committer for one commit: the files its flush added, and the
 * files a compaction replaced, each with their changelog.
 *
 * <p>The flush part goes into an APPEND snapshot, the compaction part into a COMPACT snapshot after
 * it, as Paimon does: so readers of the {@code none} and {@code input} producers see flushes and
 * readers of {@code lookup} and {@code full-compaction} see compactions.
 *
 * @param partition the partition values, serialized
 * @param bucket the bucket
 * @param totalBuckets the table's bucket count the writer used
 * @param increment what the bucket's merge tree changed: flushed files, compacted files, and the
 *     changelog of each
 * @param newIndexFiles the bucket's new hash index file in a dynamic-bucket table (written before
 *     the commit; it replaces the bucket's previous one), else empty
 */
public record CommitMessage(
    SerializedRow partition,
    int bucket,
    int totalBuckets,
    BucketIncrement increment,
    List<IndexFileMeta> newIndexFiles) {

  public CommitMessage {
    newIndexFiles = List.copyOf(newIndexFiles);
  }

  /** A message without index files: a fixed-bucket table's. */
  public CommitMessage(
      SerializedRow partition, int bucket, int totalBuckets, BucketIncrement increment) {
    this(partition, bucket, totalBuckets, increment, List.of());
  }

  /** Level-0 files written by a flush. */
  public List<DataFileMeta> newFiles() {
    return increment.newFiles();
  }

  /** Changelog written with the flush ({@code input} producer). */
  public List<DataFileMeta> changelogFiles() {
    return increment.changelogFiles();
  }

  /** Files a compaction replaced (or moved to another level). */
  public List<DataFileMeta> compactBefore() {
    return increment.compactBefore();
  }

  /** Files a compaction wrote (or moved). */
  public List<DataFileMeta> compactAfter() {
    return increment.compactAfter();
  }

  /** Changelog written by the compaction ({@code lookup}, {@code full-compaction}). */
  public List<DataFileMeta> compactChangelog() {
    return increment.compactChangelog();
  }

  /** Whether the message holds nothing to commit. */
  public boolean isEmpty() {
    return increment.isEmpty() && newIndexFiles.isEmpty();
  }
}
