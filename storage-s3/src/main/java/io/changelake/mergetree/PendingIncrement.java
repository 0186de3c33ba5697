package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a bucket's merge tree has changed since its last commit, gathered flush by flush and
 * compaction by compaction until {@link #drain} hands it over as a {@link BucketIncrement}.
 *
 * <p>A compaction may consume files that no snapshot names yet: written by this commit's flush or
 * by an earlier compaction of this commit. Such a file is taken out of the increment instead of
 * being listed as replaced, and, once nothing will ever read it, handed back to be deleted. Pure
 * bookkeeping: it reads and writes no file.
 */
final class PendingIncrement {

  private final boolean liftedFlushesUnpublished;
  private final List<DataFileMeta> newFiles = new ArrayList<>();
  private final List<DataFileMeta> changelogFiles = new ArrayList<>();
  private final List<DataFileMeta> compactBefore = new ArrayList<>();
  private final List<DataFileMeta> compactAfter = new ArrayList<>();
  private final List<DataFileMeta> compactChangelog = new ArrayList<>();

  /** Names of the files compactions wrote since the last commit: in no snapshot yet. */
  private final Set<String> writtenThisCommit = new HashSet<>();

  /**
   * @param liftedFlushesUnpublished whether a level-0 file that a compaction of the same commit
   *     consumes is left out of the snapshots altogether (the lookup and full-compaction producers,
   *     whose streaming readers read changelog files only): then one COMPACT snapshot carries the
   *     commit, and a second writer of the bucket is refused as a whole (its compaction conflicts),
   *     not after its flush has landed
   */
  PendingIncrement(boolean liftedFlushesUnpublished) {
    this.liftedFlushesUnpublished = liftedFlushesUnpublished;
  }

  /** A flush wrote level-0 files and, for the input producer, changelog files. */
  void flushed(List<DataFileMeta> files, List<DataFileMeta> changelog) {
    newFiles.addAll(files);
    changelogFiles.addAll(changelog);
  }

  /** A compaction wrote changelog files. */
  void compactionChangelog(List<DataFileMeta> changelog) {
    compactChangelog.addAll(changelog);
  }

  /**
   * A compaction replaced {@code consumed} by {@code written}.
   *
   * @param moved whether {@code written} are the {@code consumed} files at another level (no file
   *     was written)
   * @return the consumed files nobody will ever read, which the caller deletes: written and
   *     rewritten within this commit
   */
  List<DataFileMeta> compacted(
      List<DataFileMeta> consumed, List<DataFileMeta> written, boolean moved) {
    List<DataFileMeta> unreferenced = new ArrayList<>();
    for (DataFileMeta f : consumed) {
      boolean unpublished;
      if (liftedFlushesUnpublished && newFiles.remove(f)) {
        unpublished = true;
      } else if (compactAfter.remove(f)) {
        // Not in any snapshot at this level: written by this commit, or moved here by it (then
        // compactBefore already holds it as the last snapshot has it).
        unpublished = writtenThisCommit.contains(f.fileName());
      } else {
        compactBefore.add(f);
        continue;
      }
      if (unpublished && moved) {
        writtenThisCommit.add(f.fileName());
      } else if (unpublished) {
        unreferenced.add(f);
      }
    }
    if (!moved) {
      for (DataFileMeta f : written) {
        writtenThisCommit.add(f.fileName());
      }
    }
    compactAfter.addAll(written);
    return unreferenced;
  }

  /** What changed since the last drain; starts the next commit's increment empty. */
  BucketIncrement drain() {
    BucketIncrement increment =
        new BucketIncrement(
            newFiles, changelogFiles, compactBefore, compactAfter, compactChangelog);
    newFiles.clear();
    changelogFiles.clear();
    compactBefore.clear();
    compactAfter.clear();
    compactChangelog.clear();
    writtenThisCommit.clear();
    return increment;
  }
}
