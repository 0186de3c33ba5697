package io.changelake.mergetree;

import java.util.List;

/**
 * What one compaction merges and where it writes.
 *
 * @param outputLevel the level the merged files go to
 * @param runs the sorted runs to merge, newest first
 */
public record CompactUnit(int outputLevel, List<SortedRun> runs) {

  public CompactUnit {
    runs = List.copyOf(runs);
  }
}
