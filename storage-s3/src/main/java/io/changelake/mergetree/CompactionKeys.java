package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import java.util.Comparator;
import java.util.List;

/**
 * The keys of a compaction's sorted runs, one at a time in key order: a key one run alone holds
 * comes as a view of that version ({@link #lone}, read unboxed where its file allows, {@link
 * RunCursor#row}), a key several runs hold as its versions, in version order, each with its run's
 * level ({@link KeyVersions}), as {@link SortMergeReader} and {@link KeyVersions#fill} give them.
 *
 * <p>Most keys of a large compaction are held by one run (the keys the newer runs did not touch),
 * and a lone version is mostly written as it is: no key-value, key or value array is built for it.
 */
final class CompactionKeys {

  private final RunCursors runs;
  private final int[] runLevels;
  private final Comparator<KeyValue> versionOrder;
  private ChangeRow lone;
  private int loneLevel;

  /**
   * @param runs the compaction's sorted runs, none read yet; closing them is the caller's
   * @param runLevels the level of each run, by position
   * @param keyOrder the table's key order
   * @param versionOrder the order of a key's versions (by sequence number, or {@code
   *     sequence.field} then sequence number)
   */
  CompactionKeys(
      List<RunCursor> runs,
      int[] runLevels,
      RowComparator keyOrder,
      Comparator<KeyValue> versionOrder) {
    this.runs = new RunCursors(runs, keyOrder);
    this.runLevels = runLevels;
    this.versionOrder = versionOrder;
  }

  /**
   * Moves to the next key: its lone version to {@link #lone}, or its versions into {@code versions}
   * ({@link #lone} then null).
   *
   * @return false when every run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened or read
   */
  boolean next(KeyVersions versions) {
    if (runs.isEmpty()) {
      return false;
    }
    int top = runs.top();
    if (runs.laterVersionOfTop() < 0) {
      lone = runs.run(top).row();
      loneLevel = runLevels[top];
      runs.advanceTop();
      return true;
    }
    lone = null;
    versions.clear();
    long key = runs.topIntegralKey();
    Object[] objectKey = runs.topObjectKey();
    do {
      int position = runs.top();
      RunCursor run = runs.run(position);
      versions.add(
          new KeyValue(run.key(), run.sequenceNumber(), run.kind(), run.value()),
          runLevels[position]);
      runs.advanceTop();
    } while (!runs.isEmpty() && runs.topHolds(key, objectKey));
    // The heap gave them by sequence number, then run: a sequence.field orders them otherwise, and
    // falls back to the sequence number, so a stable sort gives SortMergeReader's order.
    versions.sort(versionOrder);
    return true;
  }

  /**
   * The current key's version when one run alone holds it: a view valid until the next call; null
   * when the key has several versions.
   */
  ChangeRow lone() {
    return lone;
  }

  /** The level of the run holding {@link #lone}. */
  int loneLevel() {
    return loneLevel;
  }
}
