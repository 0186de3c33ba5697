package io.changelake.mergetree;

import io.changelake.format.KeyValueBatch;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import java.util.List;

/**
 * The records of several runs of files interleaved in key order, the records of equal keys run by
 * run, in the order the runs were given, and each run's in its own order: how a changelog read
 * gives a task whose files form several runs (the changes of a key file by file, as they were made;
 * not by sequence number, which a before-image shares with the after-image of the change before).
 *
 * <p>Each run is read in column batches ({@link BatchedRun}), and each record comes as a view of
 * its batch row ({@link KeyValueBatch#row}): nothing is built per record, and keys are compared in
 * {@link CurrentKeys}, their integral columns unboxed.
 */
public final class KeyOrderedChanges {

  private final BatchedRun[] runs;

  // Per run, its current record's key: slot i for run i.
  private final CurrentKeys keys;

  private final RunHeap heap;
  private boolean started;

  /**
   * @param runs the runs, none read yet; closing them is the caller's
   * @param keyOrder the table's key order
   * @throws java.io.UncheckedIOException if a run's first file cannot be opened or read
   */
  public KeyOrderedChanges(List<BatchedRun> runs, RowComparator keyOrder) {
    this.runs = runs.toArray(BatchedRun[]::new);
    this.keys = new CurrentKeys(keyOrder, this.runs.length);
    this.heap = new RunHeap(this.runs.length, this::before);
    for (int i = 0; i < this.runs.length; i++) {
      if (this.runs[i].advance()) {
        remember(i);
        heap.add(i);
      }
    }
  }

  /**
   * The next record, valid until the next call; null when every run is exhausted.
   *
   * @throws java.io.UncheckedIOException if a file cannot be opened or read
   */
  public ChangeRow next() {
    if (started && heap.size() > 0) {
      int top = heap.top();
      if (runs[top].advance()) {
        remember(top);
        heap.topChanged();
      } else {
        heap.removeTop();
      }
    }
    started = true;
    return heap.size() == 0 ? null : runs[heap.top()].row();
  }

  private void remember(int run) {
    keys.read(run, runs[run]);
  }

  /** Whether run {@code a}'s current record comes before run {@code b}'s: by key, then run. */
  private boolean before(int a, int b) {
    int c = keys.compare(a, b);
    return c != 0 ? c < 0 : a < b;
  }
}
