package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The records of several runs of files interleaved in key order, the records of equal keys run by
 * run, in the order the runs were given, and each run's in its own order: how a changelog read
 * gives a task whose files form several runs (the changes of a key file by file, as they were made;
 * not by sequence number, which a before-image shares with the after-image of the change before).
 *
 * <p>Each run is read in column batches ({@link KeyValueFileReader#nextBatch}), one file open at a
 * time, and each record comes as a view of its batch row ({@link KeyValueBatch#row}): nothing is
 * built per record, but the key of a table whose key is not one integral column, which the merge
 * compares as objects.
 */
public final class KeyOrderedChanges implements Closeable {

  private final BatchedRun[] runs;
  private final RowComparator keyOrder;
  private final boolean integralKeys;

  /** Per run, its current record's key, when integral. */
  private final long[] keys;

  private final RunHeap heap;
  private boolean started;

  /**
   * @param runs the runs, each files in key order whose key ranges follow one another
   * @param opener opens one file for reading, of the columns the records are to hold
   * @param keyOrder the table's key order
   * @throws UncheckedIOException if a run's first file cannot be opened or read; the runs opened
   *     are closed then
   */
  public KeyOrderedChanges(
      List<List<DataFileMeta>> runs,
      DataFileOpener<KeyValueFileReader> opener,
      RowComparator keyOrder) {
    this.keyOrder = keyOrder;
    this.integralKeys = keyOrder.integral();
    this.runs = new BatchedRun[runs.size()];
    this.keys = new long[runs.size()];
    this.heap = new RunHeap(runs.size(), this::before);
    for (int i = 0; i < runs.size(); i++) {
      this.runs[i] = new BatchedRun(runs.get(i), opener, keyOrder.size());
    }
    try {
      for (int i = 0; i < this.runs.length; i++) {
        if (this.runs[i].advance()) {
          remember(i);
          heap.add(i);
        }
      }
    } catch (RuntimeException e) {
      closeAfter(e);
      throw e;
    }
  }

  /**
   * The next record, valid until the next call; null when every run is exhausted.
   *
   * @throws UncheckedIOException if a file cannot be opened or read
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

  /** Closes every run's open file, failing with the first error after trying them all. */
  @Override
  public void close() throws IOException {
    IOException first = null;
    for (BatchedRun run : runs) {
      try {
        run.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private void closeAfter(RuntimeException failure) {
    try {
      close();
    } catch (IOException suppressed) {
      failure.addSuppressed(suppressed);
    }
  }

  private void remember(int run) {
    if (integralKeys) {
      keys[run] = runs[run].integralKey();
    }
  }

  /** Whether run {@code a}'s current record comes before run {@code b}'s: by key, then run. */
  private boolean before(int a, int b) {
    int c =
        integralKeys
            ? Long.compare(keys[a], keys[b])
            : keyOrder.compare(runs[a].key(), runs[b].key());
    return c != 0 ? c < 0 : a < b;
  }

  /** One run read in column batches, file after file, at one record. */
  private static final class BatchedRun extends FileByFile<KeyValueFileReader> {
    private final Object[] key;
    private KeyValueBatch batch;
    private int index;
    private boolean keyRead;

    BatchedRun(
        List<DataFileMeta> files, DataFileOpener<KeyValueFileReader> opener, int keyColumns) {
      super(files, opener);
      this.key = new Object[keyColumns];
    }

    /** Moves to the next record, reading the next batch or file as needed; false when done. */
    boolean advance() {
      keyRead = false;
      if (batch != null && ++index < batch.size()) {
        return true;
      }
      while (current() == null || current().nextBatch(batch) == 0) {
        if (!openNext()) {
          batch = null;
          return false;
        }
        // A batch belongs to the reader that made it.
        batch = current().newBatch();
      }
      index = 0;
      return true;
    }

    ChangeRow row() {
      return batch.row(index);
    }

    long integralKey() {
      return batch.integralKey(index);
    }

    Object[] key() {
      if (!keyRead) {
        batch.keyInto(index, key);
        keyRead = true;
      }
      return key;
    }
  }
}
