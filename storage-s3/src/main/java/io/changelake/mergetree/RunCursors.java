package io.changelake.mergetree;

import io.changelake.types.RowComparator;
import java.util.List;

/**
 * The sorted runs of a merge, each at its current version, ordered by that version's key, then
 * sequence number, then the run's position ({@link RunHeap}): the version that comes next is the
 * top's. Keys are held and compared in {@link CurrentKeys}, their integral columns unboxed; the
 * values are not read here. What {@link NewestVersionMerge} and {@link RunKeys} move through.
 */
final class RunCursors {

  private final RunCursor[] runs;

  // Per run, its current key (slot i for run i) and sequence number: the heap compares these
  // without reaching into the readers. The slot after the runs' holds the key markTopKey marked.
  private final CurrentKeys keys;
  private final int marked;
  private final long[] sequences;
  private final RunHeap heap;

  /**
   * @param runs the sorted runs, none read yet; closing them is the caller's
   * @param keyOrder the table's key order
   * @throws java.io.UncheckedIOException if a run's first file cannot be opened or read
   */
  RunCursors(List<RunCursor> runs, RowComparator keyOrder) {
    this.runs = runs.toArray(RunCursor[]::new);
    this.marked = this.runs.length;
    this.keys = new CurrentKeys(keyOrder, this.runs.length + 1);
    this.sequences = new long[this.runs.length];
    this.heap = new RunHeap(this.runs.length, this::before);
    for (int i = 0; i < this.runs.length; i++) {
      if (this.runs[i].advance()) {
        remember(i);
        heap.add(i);
      }
    }
  }

  /** Whether every run is exhausted. */
  boolean isEmpty() {
    return heap.size() == 0;
  }

  /** The position of the run whose version comes next. */
  int top() {
    return heap.top();
  }

  /** The run at {@code position}. */
  RunCursor run(int position) {
    return runs[position];
  }

  /**
   * The run whose version comes after the top's in the heap's order, if it holds the top's key: a
   * later version of it; else -1. The versions of a key leave the heap oldest first.
   */
  int laterVersionOfTop() {
    int following = heap.second();
    return following >= 0 && sameKey(following, heap.top()) ? following : -1;
  }

  /** Marks the top's key, for {@link #topHoldsMarkedKey} once the top has moved on. */
  void markTopKey() {
    keys.copy(heap.top(), marked);
  }

  /** Whether a run is left and the top holds the key {@link #markTopKey} marked. */
  boolean topHoldsMarkedKey() {
    if (heap.size() == 0) {
      return false;
    }
    return keys.compare(heap.top(), marked) == 0;
  }

  /** Moves the top run to its next version, or out of the heap when it has none. */
  void advanceTop() {
    int top = heap.top();
    if (runs[top].advance()) {
      remember(top);
      heap.topChanged();
    } else {
      heap.removeTop();
    }
  }

  private boolean sameKey(int a, int b) {
    return keys.compare(a, b) == 0;
  }

  private void remember(int run) {
    keys.read(run, runs[run]);
    sequences[run] = runs[run].sequenceNumber();
  }

  /** Whether run {@code a}'s current version comes before run {@code b}'s. */
  private boolean before(int a, int b) {
    int c = keys.compare(a, b);
    if (c == 0) {
      c = Long.compare(sequences[a], sequences[b]);
    }
    return c != 0 ? c < 0 : a < b;
  }
}
