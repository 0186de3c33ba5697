package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.util.List;

/**
 * What one bucket's merge tree changed since its previous commit: the files its flushes added, and
 * the files its compactions replaced, each with their changelog. The table wraps it, with the
 * bucket's partition and number, into the message its committer records.
 *
 * @param newFiles level-0 files written by a flush
 * @param changelogFiles changelog written with the flush ({@code input} producer)
 * @param compactBefore files a compaction replaced (or moved to another level)
 * @param compactAfter files a compaction wrote (or moved)
 * @param compactChangelog changelog written by the compaction ({@code lookup}, {@code
 *     full-compaction})
 */
public record BucketIncrement(
    List<DataFileMeta> newFiles,
    List<DataFileMeta> changelogFiles,
    List<DataFileMeta> compactBefore,
    List<DataFileMeta> compactAfter,
    List<DataFileMeta> compactChangelog) {

  public BucketIncrement {
    newFiles = List.copyOf(newFiles);
    changelogFiles = List.copyOf(changelogFiles);
    compactBefore = List.copyOf(compactBefore);
    compactAfter = List.copyOf(compactAfter);
    compactChangelog = List.copyOf(compactChangelog);
  }

  /** Whether nothing changed. */
  public boolean isEmpty() {
    return newFiles.isEmpty()
        && changelogFiles.isEmpty()
        && compactBefore.isEmpty()
        && compactAfter.isEmpty()
        && compactChangelog.isEmpty();
  }
}
