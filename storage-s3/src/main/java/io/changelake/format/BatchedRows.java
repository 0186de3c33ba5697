package io.changelake.format;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of a file read in bulk, a batch at a time, handed out one by one: the iterator over
 * {@link KeyValueFileReader#nextValues} or {@link KeyValueFileReader#nextKeyValues}.
 *
 * <p>{@link #hasNext} reads the next batch when the last one is used up, so it may fail with the
 * store, as the reader does.
 *
 * @param <T> a row: a key-value or a value array
 */
public final class BatchedRows<T> implements Iterator<T> {

  /**
   * Rows read at once: enough that a page's values go out in a few loops, few enough to stay in
   * cache.
   */
  static final int BATCH = 1024;

  /** Reads the next rows into a batch and returns how many; 0 when there are none. */
  interface Fill<T> {
    int fill(T[] batch);
  }

  private final T[] batch;
  private final Fill<T> fill;
  private int size;
  private int taken;

  BatchedRows(T[] batch, Fill<T> fill) {
    this.batch = batch;
    this.fill = fill;
  }

  /** Whether rows read from the file are waiting to be handed out. */
  public boolean buffered() {
    return taken < size;
  }

  @Override
  public boolean hasNext() {
    if (taken == size) {
      size = fill.fill(batch);
      taken = 0;
    }
    return taken < size;
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException("no row left");
    }
    T row = batch[taken];
    // Not kept: the caller owns the row.
    batch[taken++] = null;
    return row;
  }
}
