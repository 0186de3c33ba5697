package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The keys of a bucket's sorted runs merged, one at a time in key order: a key one run alone holds
 * as that version ({@link #lone}), a key several runs hold as its versions, in version order, each
 * with its run's level ({@link KeyVersions}), in the order {@link SortMergeReader} gives them; each
 * version a view of its run's row ({@link RunCursor#row}, read unboxed where its file allows), no
 * key-value, key or value array built for it.
 *
 * <p>A compaction merges through it, and a batch read of a table whose merge engine is not the
 * newest-version merge's. Most keys of a large compaction are held by one run (the keys the newer
 * runs did not touch), and a lone version is mostly stored as it is, as a read reports it (a merge
 * engine does not merge a lone version, {@link KeyMerge#reduce}). A merge engine reads the values
 * of a view it merges ({@link MergeFunction#add}), or none: deduplicate and first-row keep one of
 * them as it is.
 */
public final class RunKeys {

  private final RunCursors runs;
  private final int[] runLevels;
  private final Comparator<ChangeRow> versionOrder;
  // For each run, the key it last gave a view for (a count of keys gathered) and where that view
  // stands among the key's versions.
  private final long[] gatheredFor;
  private final int[] gatheredAt;
  private long keysGathered;
  private ChangeRow lone;
  private ChangeRow newest;
  private ChangeRow atLevel;
  private boolean fromLevel0;

  /**
   * @param runs the sorted runs, none read yet; closing them is the caller's
   * @param runLevels the level of each run, by position
   * @param keyOrder the table's key order
   * @param versionOrder the order of a key's versions (by sequence number, or {@code
   *     sequence.field} then sequence number)
   */
  public RunKeys(
      List<RunCursor> runs,
      int[] runLevels,
      RowComparator keyOrder,
      Comparator<ChangeRow> versionOrder) {
    this.runs = new RunCursors(runs, keyOrder);
    this.runLevels = runLevels;
    this.versionOrder = versionOrder;
    this.gatheredFor = new long[runs.size()];
    this.gatheredAt = new int[runs.size()];
  }

  /**
   * Moves to the next key: its lone version to {@link #lone} if {@code alone} takes the level of
   * its run, else its versions (one or more) into {@code versions}, with their runs' levels, in
   * version order ({@link #lone} then null). Each is a view of its run's row ({@link
   * RunCursor#row}, read unboxed where its file allows), valid until the next call: no key-value,
   * key or value array is built for it.
   *
   * @param alone the levels whose lone versions the caller takes alone (to store as they are)
   * @return false when every run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened or read
   */
  public boolean next(KeyVersions versions, IntPredicate alone) {
    if (runs.isEmpty()) {
      return false;
    }
    int top = runs.top();
    if (runs.laterVersionOfTop() < 0 && alone.test(runLevels[top])) {
      lone = runs.run(top).row();
      runs.advanceTop();
      return true;
    }
    lone = null;
    versions.clear();
    runs.markTopKey();
    keysGathered++;
    do {
      int position = runs.top();
      RunCursor run = runs.run(position);
      // A run's view holds until its next one: a run giving the key twice (a sorted run never
      // does) would overwrite its earlier version, which is copied first.
      if (gatheredFor[position] == keysGathered) {
        int earlier = gatheredAt[position];
        versions.set(earlier, versions.record(earlier).toKeyValue());
      }
      gatheredFor[position] = keysGathered;
      gatheredAt[position] = versions.size();
      versions.add(run.row(), runLevels[position]);
      runs.advanceTop();
    } while (runs.topHoldsMarkedKey());
    // The heap gave them by sequence number, then run: a sequence.field orders them otherwise, and
    // falls back to the sequence number, so a stable sort gives SortMergeReader's order.
    versions.sort(versionOrder);
    return true;
  }

  /**
   * For a table whose newest version wins (no {@code sequence.field}): moves to the next key, its
   * newest version to {@link #newest} and its version in the run at {@code level} to {@link
   * #atLevel}, each a view ({@link RunCursor#row}; the same view when that run alone holds the
   * key); the values of the versions between are passed over unread.
   *
   * @return false when every run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened or read
   */
  public boolean nextNewest(int level) {
    if (runs.isEmpty()) {
      return false;
    }
    atLevel = null;
    boolean last;
    do {
      int position = runs.top();
      last = runs.laterVersionOfTop() < 0;
      boolean atTheLevel = runLevels[position] == level;
      if (last || atTheLevel) {
        ChangeRow row = runs.run(position).row();
        atLevel = atTheLevel ? row : atLevel;
        newest = last ? row : newest;
      }
      runs.advanceTop();
    } while (!last);
    return true;
  }

  /**
   * For a lookup table whose newest version wins: moves to the next key, with what {@link
   * KeyMerge#merge} makes of its versions, each a view ({@link RunCursor#row}): {@link #atLevel}
   * its version from the lowest level above 0, the key's value before level 0 joins it (null when
   * no run above 0 holds the key), and {@link #newest} the newest of that version and the level-0
   * ones, the older upper versions superseded; {@link #fromLevel0} whether a level-0 run holds the
   * key. The superseded versions' values are passed over unread.
   *
   * @return false when every run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened or read
   */
  public boolean nextNewestOverUpper() {
    if (runs.isEmpty()) {
      return false;
    }
    atLevel = null;
    fromLevel0 = false;
    int upperLevel = Integer.MAX_VALUE;
    boolean last;
    do {
      int position = runs.top();
      last = runs.laterVersionOfTop() < 0;
      int level = runLevels[position];
      // The versions come oldest first, so each one that counts is the newest that counts so far:
      // a level-0 version, or one from a lower level above 0 than any before it.
      if (level <= 0 || level < upperLevel) {
        ChangeRow row = runs.run(position).row();
        newest = row;
        if (level > 0) {
          atLevel = row;
          upperLevel = level;
        } else {
          fromLevel0 = true;
        }
      }
      runs.advanceTop();
    } while (!last);
    return true;
  }

  /** Whether a level-0 run holds the current key, after {@link #nextNewestOverUpper}. */
  public boolean fromLevel0() {
    return fromLevel0;
  }

  /**
   * The current key's newest version, after {@link #nextNewest} or {@link #nextNewestOverUpper}:
   * valid until the next call.
   */
  public ChangeRow newest() {
    return newest;
  }

  /**
   * The current key's version in the run at the level {@link #nextNewest} named, or from the lowest
   * level above 0 after {@link #nextNewestOverUpper}; null when no such run holds the key. Valid
   * until the next call.
   */
  public ChangeRow atLevel() {
    return atLevel;
  }

  /**
   * The current key's version when one run alone holds it and it was asked for alone: valid until
   * the next call; else null.
   */
  public ChangeRow lone() {
    return lone;
  }
}
