package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The newest version of each key of a bucket's sorted runs, in key order, as the deduplicate merge
 * engine (versions ordered by sequence number) resolves them; keys whose newest version retracts
 * are left out. With {@code ignore-delete}, retractions are passed over and the newest addition
 * wins.
 *
 * <p>A compaction that keeps retractions takes them too ({@link #keepingRetractions}), and writes
 * the views {@link #nextRow} gives as they are.
 *
 * <p>It gives what {@link SortMergeReader}, {@link KeyVersions} and {@link KeyMerge} give for such
 * a table, for less: only the version that wins has its values read; each version it supersedes is
 * passed over with its key, sequence number and kind alone ({@link
 * io.changelake.format.KeyValueFileReader#advance}), and keys are compared with their integral
 * columns unboxed ({@link CurrentKeys}). A batch read of a table whose files overlap reads mostly
 * superseded versions.
 *
 * <p>Whether a version is superseded is known before its run moves on: the versions of a key leave
 * the heap oldest first, so a version is superseded when the run next in the heap's order holds the
 * same key. A run holding a key twice (a sorted run never does) is still read right: its later
 * version replaces the earlier one, whose values were read for nothing.
 *
 * <p>Each run holds one file open at a time ({@link RunCursor}), so a bucket of many files is read
 * with one row group in memory per run, not per file.
 */
public final class NewestVersionMerge implements Iterator<KeyValue> {

  private final RunCursors runs;
  private final boolean ignoreDelete;
  private final boolean keepRetractions;
  private KeyValue next;

  /**
   * @param runs the sorted runs of one bucket, none read yet; closing them is the caller's
   * @param keyOrder the table's key order
   * @param ignoreDelete whether the table ignores retractions ({@code ignore-delete})
   * @throws java.io.UncheckedIOException if a run's first file cannot be opened or read
   */
  public NewestVersionMerge(List<RunCursor> runs, RowComparator keyOrder, boolean ignoreDelete) {
    this(runs, keyOrder, ignoreDelete, false);
  }

  /**
   * The newest version of each key whatever its kind, a retraction too: what a compaction of a
   * table without {@code ignore-delete} stores where retractions are kept (older runs are left
   * outside it, which the retraction must still shadow).
   *
   * @param runs the sorted runs of one bucket, none read yet; closing them is the caller's
   * @param keyOrder the table's key order
   * @throws java.io.UncheckedIOException if a run's first file cannot be opened or read
   */
  static NewestVersionMerge keepingRetractions(List<RunCursor> runs, RowComparator keyOrder) {
    return new NewestVersionMerge(runs, keyOrder, false, true);
  }

  private NewestVersionMerge(
      List<RunCursor> runs, RowComparator keyOrder, boolean ignoreDelete, boolean keepRetractions) {
    this.runs = new RunCursors(runs, keyOrder);
    this.ignoreDelete = ignoreDelete;
    this.keepRetractions = keepRetractions;
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      next = nextNewest();
    }
    return next != null;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    KeyValue newest = next;
    next = null;
    return newest;
  }

  /**
   * The next newest version as a view of its values, read unboxed where its file allows ({@link
   * RunCursor#row}); null at the end. The view stays valid until the next call. A version {@link
   * #hasNext} took already comes as its key-value.
   */
  public ChangeRow nextRow() {
    if (next != null) {
      KeyValue newest = next;
      next = null;
      return newest;
    }
    return nextNewest(true);
  }

  private KeyValue nextNewest() {
    return (KeyValue) nextNewest(false);
  }

  /**
   * Takes key after key until one has a newest version to give, as a view or a key-value; null at
   * the end.
   */
  private ChangeRow nextNewest(boolean asView) {
    while (!runs.isEmpty()) {
      runs.markTopKey();
      ChangeRow newest = null;
      do {
        RunCursor run = runs.run(runs.top());
        RowKind kind = run.kind();
        boolean passedOver = ignoreDelete && !kind.isAdd();
        if (!passedOver && !superseded()) {
          if (!kind.isAdd() && !keepRetractions) {
            newest = null;
          } else if (asView) {
            newest = run.row();
          } else {
            newest = new KeyValue(run.key(), run.sequenceNumber(), kind, run.value());
          }
        }
        runs.advanceTop();
      } while (runs.topHoldsMarkedKey());
      if (newest != null) {
        return newest;
      }
    }
    return null;
  }

  /**
   * Whether a later version of the top's key is in the heap. Under {@code ignore-delete} only a
   * later addition supersedes.
   */
  private boolean superseded() {
    int later = runs.laterVersionOfTop();
    return later >= 0 && (!ignoreDelete || runs.run(later).kind().isAdd());
  }
}
