package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketIncrement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

  /**
   * This message and the same bucket's next one (prepared after it by the same writer) as one
   * message: committed, it leaves the table's live files as committing the two one after the other
   * does. A committer that must put two of a bucket's batches into one snapshot commits this.
   *
   * <p>Both flushes go into the APPEND half, both compactions into the COMPACT half, each list in
   * the order prepared: a flushed file the later compaction replaces is live when the COMPACT half
   * removes it. A file this message's compaction wrote that the later one replaces is neither added
   * nor removed (no commit may remove a file that is not live): written but never live, it is an
   * orphan for orphan cleaning, as a failed attempt's files are. The later message's index files, a
   * bucket's latest, replace this one's.
   *
   * @throws IllegalArgumentException if {@code later} is of another partition or bucket
   */
  public CommitMessage followedBy(CommitMessage later) {
    if (!partition.equals(later.partition)
        || bucket != later.bucket
        || totalBuckets != later.totalBuckets) {
      throw new IllegalArgumentException(
          "only a bucket's own messages are joined: bucket "
              + bucket
              + " of "
              + totalBuckets
              + " cannot be followed by bucket "
              + later.bucket
              + " of "
              + later.totalBuckets
              + (partition.equals(later.partition) ? "" : " of another partition"));
    }
    Set<String> replacedLater = levelAndName(later.compactBefore());
    Set<String> writtenHere = levelAndName(compactAfter());
    List<DataFileMeta> before = new ArrayList<>(compactBefore());
    for (DataFileMeta f : later.compactBefore()) {
      if (!writtenHere.contains(levelAndName(f))) {
        before.add(f);
      }
    }
    List<DataFileMeta> after = new ArrayList<>();
    for (DataFileMeta f : compactAfter()) {
      if (!replacedLater.contains(levelAndName(f))) {
        after.add(f);
      }
    }
    after.addAll(later.compactAfter());
    BucketIncrement joined =
        new BucketIncrement(
            concat(newFiles(), later.newFiles()),
            concat(changelogFiles(), later.changelogFiles()),
            before,
            after,
            concat(compactChangelog(), later.compactChangelog()));
    return new CommitMessage(
        partition,
        bucket,
        totalBuckets,
        joined,
        later.newIndexFiles.isEmpty() ? newIndexFiles : later.newIndexFiles);
  }

  private static List<DataFileMeta> concat(List<DataFileMeta> first, List<DataFileMeta> then) {
    List<DataFileMeta> all = new ArrayList<>(first);
    all.addAll(then);
    return all;
  }

  /** A file's place in its bucket: a level and a name, as a manifest entry identifies it. */
  private static String levelAndName(DataFileMeta f) {
    return f.level() + "/" + f.fileName();
  }

  private static Set<String> levelAndName(List<DataFileMeta> files) {
    Set<String> out = new HashSet<>();
    for (DataFileMeta f : files) {
      out.add(levelAndName(f));
    }
    return out;
  }
}
