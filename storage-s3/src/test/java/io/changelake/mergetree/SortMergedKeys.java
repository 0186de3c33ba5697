package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;

/**
 * Test reference: the versions of one key at a time from a {@link SortMergeReader}, each with its
 * run's level, as {@link RunKeys} gathers them, to compare the merges built on {@link RunKeys} with
 * the plain sort merge of every record.
 */
final class SortMergedKeys {

  private final SortMergeReader merged;
  private final int[] runLevels;
  private final RowComparator keyOrder;
  private KeyValue pending;
  private int pendingLevel;

  /**
   * @param merged the sort merge, not read yet
   * @param runLevels the level of each of its runs, by position
   * @param keyOrder the table's key order
   */
  SortMergedKeys(SortMergeReader merged, int[] runLevels, RowComparator keyOrder) {
    this.merged = merged;
    this.runLevels = runLevels;
    this.keyOrder = keyOrder;
  }

  /** Reads the next key's versions into {@code versions}; false when the reader is exhausted. */
  boolean next(KeyVersions versions) {
    versions.clear();
    if (pending == null) {
      if (!merged.hasNext()) {
        return false;
      }
      pending = merged.next();
      pendingLevel = runLevels[merged.lastRun()];
    }
    Object[] key = pending.key();
    versions.add(pending, pendingLevel);
    pending = null;
    while (merged.hasNext()) {
      KeyValue next = merged.next();
      int level = runLevels[merged.lastRun()];
      if (keyOrder.compare(next.key(), key) != 0) {
        pending = next;
        pendingLevel = level;
        break;
      }
      versions.add(next, level);
    }
    return true;
  }
}
