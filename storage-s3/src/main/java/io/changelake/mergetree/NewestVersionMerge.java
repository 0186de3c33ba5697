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
 * io.changelake.format.KeyValueFileReader#advance}), and a key of one BIGINT or INT column is
 * compared unboxed. A batch read of a table whose files overlap reads mostly superseded versions.
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

  private final RunCursor[] runs;
  private final RowComparator keyOrder;
  private final boolean ignoreDelete;
  private final boolean keepRetractions;
  private final boolean integralKeys;

  // Per run, its current key (when integral) and sequence number: the heap compares these
  // without reaching into the readers.
  private final long[] keys;
  private final long[] sequences;

  // The runs by current key, then sequence number, then position.
  private final RunHeap heap;
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
    this.keepRetractions = keepRetractions;
    this.runs = runs.toArray(RunCursor[]::new);
    this.keyOrder = keyOrder;
    this.ignoreDelete = ignoreDelete;
    this.integralKeys = keyOrder.integral();
    this.keys = new long[this.runs.length];
    this.sequences = new long[this.runs.length];
    this.heap = new RunHeap(this.runs.length, this::before);
    for (int i = 0; i < this.runs.length; i++) {
      if (this.runs[i].advance()) {
        remember(i);
        heap.add(i);
      }
    }
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
    while (heap.size() > 0) {
      int first = heap.top();
      long key = keys[first];
      Object[] objectKey = integralKeys ? null : runs[first].key();
      ChangeRow newest = null;
      do {
        RunCursor run = runs[heap.top()];
        RowKind kind = run.kind();
        boolean passedOver = ignoreDelete && !kind.isAdd();
        if (!passedOver && !supersededByNextInHeap()) {
          if (!kind.isAdd() && !keepRetractions) {
            newest = null;
          } else if (asView) {
            newest = run.row();
          } else {
            newest = new KeyValue(run.key(), run.sequenceNumber(), kind, run.value());
          }
        }
        advanceTop();
      } while (heap.size() > 0 && holds(heap.top(), key, objectKey));
      if (newest != null) {
        return newest;
      }
    }
    return null;
  }

  /**
   * Whether a later version of the top's key is in the heap: the run next in the heap's order (a
   * child of the top) holds the key. Under {@code ignore-delete} only a later addition supersedes.
   */
  private boolean supersededByNextInHeap() {
    int following = heap.second();
    if (following < 0) {
      return false;
    }
    int top = heap.top();
    return holds(following, keys[top], integralKeys ? null : runs[top].key())
        && (!ignoreDelete || runs[following].kind().isAdd());
  }

  /** Whether a run's current key is {@code key} (when integral) or {@code objectKey}. */
  private boolean holds(int run, long key, Object[] objectKey) {
    return integralKeys ? keys[run] == key : keyOrder.compare(runs[run].key(), objectKey) == 0;
  }

  /** Moves the top run to its next version, or out of the heap when it has none. */
  private void advanceTop() {
    int top = heap.top();
    if (runs[top].advance()) {
      remember(top);
      heap.topChanged();
    } else {
      heap.removeTop();
    }
  }

  private void remember(int run) {
    if (integralKeys) {
      keys[run] = runs[run].integralKey();
    }
    sequences[run] = runs[run].sequenceNumber();
  }

  /** Whether run {@code a}'s current version comes before run {@code b}'s. */
  private boolean before(int a, int b) {
    int c =
        integralKeys
            ? Long.compare(keys[a], keys[b])
            : keyOrder.compare(runs[a].key(), runs[b].key());
    if (c == 0) {
      c = Long.compare(sequences[a], sequences[b]);
    }
    return c != 0 ? c < 0 : a < b;
  }
}
