package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges runs that are each sorted by key then version into one stream in that order, so the
 * versions of a key arrive together, oldest first. Versions are ordered by sequence number, or by a
 * given order ({@code sequence.field}); records that order equal come in the order of their runs.
 */
public final class SortMergeReader implements Iterator<KeyValue> {

  /** A run and its current record; reused as the run advances. */
  private final class Head {
    private KeyValue current;

    /** The current key's value, when the key is one integral column: compared unboxed. */
    private long integralKey;

    private final Iterator<KeyValue> rest;
    private final int run;

    private Head(KeyValue current, Iterator<KeyValue> rest, int run) {
      this.rest = rest;
      this.run = run;
      set(current);
    }

    private void set(KeyValue record) {
      current = record;
      if (integralKeys) {
        integralKey = RowComparator.integralValue(record.key());
      }
    }
  }

  private final Comparator<Object[]> keyOrder;

  /**
   * Whether keys are one BIGINT or INT column: the heap then compares each head's key as a long
   * kept beside it rather than reaching through record, key array and box (the heap's sifting was a
   * sixth of a merge read's time in a profile).
   */
  private final boolean integralKeys;

  private final Comparator<KeyValue> versionOrder;
  // A binary min-heap of the runs by their current record: the run whose record comes next on top.
  // Taking a record replaces the top's record in place and sifts it down once (a priority queue's
  // poll and add would sift twice and allocate an entry per record).
  private final Head[] heap;
  private int size;
  private int lastRun = -1;

  /** Runs sorted by key then sequence number. */
  public SortMergeReader(List<? extends Iterator<KeyValue>> runs, Comparator<Object[]> keyOrder) {
    this(runs, keyOrder, Comparator.comparingLong(KeyValue::sequenceNumber));
  }

  /** Runs sorted by key then {@code versionOrder}. */
  public SortMergeReader(
      List<? extends Iterator<KeyValue>> runs,
      Comparator<Object[]> keyOrder,
      Comparator<KeyValue> versionOrder) {
    this.keyOrder = keyOrder;
    this.integralKeys = keyOrder instanceof RowComparator rows && rows.integral();
    this.versionOrder = versionOrder;
    this.heap = new Head[runs.size()];
    for (int i = 0; i < runs.size(); i++) {
      Iterator<KeyValue> run = runs.get(i);
      if (run.hasNext()) {
        heap[size] = new Head(run.next(), run, i);
        siftUp(size++);
      }
    }
  }

  /** The position, in the list given, of the run the last {@link #next()} came from. */
  public int lastRun() {
    return lastRun;
  }

  @Override
  public boolean hasNext() {
    return size > 0;
  }

  @Override
  public KeyValue next() {
    if (size == 0) {
      throw new NoSuchElementException();
    }
    Head head = heap[0];
    KeyValue record = head.current;
    lastRun = head.run;
    if (head.rest.hasNext()) {
      head.set(head.rest.next());
    } else {
      heap[0] = heap[--size];
      heap[size] = null;
    }
    if (size > 1) {
      siftDown(0);
    }
    return record;
  }

  private void siftUp(int i) {
    Head h = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (before(heap[parent], h)) {
        break;
      }
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = h;
  }

  private void siftDown(int i) {
    Head h = heap[i];
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && before(heap[right], heap[child])) {
        child = right;
      }
      if (before(h, heap[child])) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = h;
  }

  /**
   * Whether {@code a} comes strictly before {@code b}: by key, then version, then run. Equal
   * records come run by run, in the order the runs were given: a reader that orders by key alone (a
   * changelog) keeps each file's changes of a key together and the files in order.
   */
  private boolean before(Head a, Head b) {
    int c =
        integralKeys
            ? Long.compare(a.integralKey, b.integralKey)
            : keyOrder.compare(a.current.key(), b.current.key());
    if (c == 0) {
      c = versionOrder.compare(a.current, b.current);
    }
    return c != 0 ? c < 0 : a.run < b.run;
  }
}
