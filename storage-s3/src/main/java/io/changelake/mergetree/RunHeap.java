package io.changelake.mergetree;

/**
 * A binary min-heap of the runs of a merge, by position, under the merge's order of their current
 * records: the run whose record comes next is on top. Taking a record replaces the top's record in
 * place and sifts it down once ({@link #topChanged}); a priority queue's poll and add would sift
 * twice and allocate an entry per record.
 */
final class RunHeap {

  /** The merge's order of two runs' current records. */
  interface Order {
    /** Whether run {@code a}'s current record comes strictly before run {@code b}'s. */
    boolean before(int a, int b);
  }

  private final Order order;
  private final int[] heap;
  private int size;

  /**
   * @param runs how many runs there are at most
   */
  RunHeap(int runs, Order order) {
    this.order = order;
    this.heap = new int[runs];
  }

  /** Adds a run that has a current record. */
  void add(int run) {
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (order.before(heap[parent], run)) {
        break;
      }
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = run;
  }

  int size() {
    return size;
  }

  /** The run whose record comes first; only when {@link #size} is positive. */
  int top() {
    return heap[0];
  }

  /**
   * The run whose record comes second, or -1 when the top is alone: a child of the top, since every
   * other run comes after one of them.
   */
  int second() {
    if (size < 2) {
      return -1;
    }
    return size > 2 && order.before(heap[2], heap[1]) ? heap[2] : heap[1];
  }

  /** Restores the order after the top run moved to its next record. */
  void topChanged() {
    if (size > 1) {
      siftDown();
    }
  }

  /** Takes out the top run, which has no record left. */
  void removeTop() {
    heap[0] = heap[--size];
    topChanged();
  }

  private void siftDown() {
    int i = 0;
    int run = heap[0];
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      int right = child + 1;
      if (right < size && order.before(heap[right], heap[child])) {
        child = right;
      }
      if (order.before(run, heap[child])) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = run;
  }
}
