package io.changelake.table;

import io.changelake.format.DataFileMeta;
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
 * @param newFiles level-0 files written by a flush
 * @param changelogFiles changelog written with the flush ({@code input} producer)
 * @param compactBefore files a compaction replaced (or moved to another level)
 * @param compactAfter files a compaction wrote (or moved)
 * @param compactChangelog changelog written by the compaction ({@code lookup}, {@code
 *     full-compaction})
 */
public record CommitMessage(
    SerializedRow partition,
    int bucket,
    int totalBuckets,
    List<DataFileMeta> newFiles,
    List<DataFileMeta> changelogFiles,
    List<DataFileMeta> compactBefore,
    List<DataFileMeta> compactAfter,
    List<DataFileMeta> compactChangelog) {

  public CommitMessage {
    newFiles = List.copyOf(newFiles);
    changelogFiles = List.copyOf(changelogFiles);
    compactBefore = List.copyOf(compactBefore);
    compactAfter = List.copyOf(compactAfter);
    compactChangelog = List.copyOf(compactChangelog);
  }

  /** The message that records what one bucket's merge tree changed. */
  public static CommitMessage of(
      SerializedRow partition, int bucket, int totalBuckets, BucketIncrement increment) {
    return new CommitMessage(
        partition,
        bucket,
        totalBuckets,
        increment.newFiles(),
        increment.changelogFiles(),
        increment.compactBefore(),
        increment.compactAfter(),
        increment.compactChangelog());
  }

  /** Whether the message holds nothing to commit. */
  public boolean isEmpty() {
    return newFiles.isEmpty()
        && changelogFiles.isEmpty()
        && compactBefore.isEmpty()
        && compactAfter.isEmpty()
        && compactChangelog.isEmpty();
  }
}
