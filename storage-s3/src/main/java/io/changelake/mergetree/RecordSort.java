package io.changelake.mergetree;

import java.util.Arrays;

/**
 * Sorts a write buffer's records by key, keeping arrival order among equal keys, on primitive
 * arrays: the buffer sorts every record once per flush or spill, and comparing boxed keys through a
 * comparator was the largest single cost of a commit. The sort gives the records' positions in key
 * order; the records themselves do not move.
 */
final class RecordSort {

  /** Compares two records, by position. */
  interface RecordOrder {
    int compare(int a, int b);
  }

  private RecordSort() {}

  /**
   * The positions {@code 0..count-1} ordered by {@code keys[position]}, then position: records
   * whose key is one integral column ({@link io.changelake.types.RowComparator#integral}), sorted
   * by that column as a long. {@code keys} is left as it was.
   */
  static int[] byIntegralKey(long[] keys, int count) {
    long[] sortedKeys = Arrays.copyOf(keys, count);
    int[] positions = new int[count];
    for (int i = 0; i < count; i++) {
      positions[i] = i;
    }
    quicksort(sortedKeys, positions, 0, count - 1);
    return positions;
  }

  /**
   * The positions {@code 0..count-1} ordered by {@code order}, equal records by position: a stable
   * merge sort, for keys compared in their serialized form.
   */
  static int[] stable(int count, RecordOrder order) {
    int[] positions = new int[count];
    for (int i = 0; i < count; i++) {
      positions[i] = i;
    }
    mergeSort(positions, new int[count], 0, count, order);
    return positions;
  }

  private static void mergeSort(
      int[] positions, int[] scratch, int from, int to, RecordOrder order) {
    if (to - from <= 16) {
      for (int i = from + 1; i < to; i++) {
        int position = positions[i];
        int k = i;
        while (k > from && order.compare(positions[k - 1], position) > 0) {
          positions[k] = positions[k - 1];
          k--;
        }
        positions[k] = position;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    mergeSort(positions, scratch, from, mid, order);
    mergeSort(positions, scratch, mid, to, order);
    if (order.compare(positions[mid - 1], positions[mid]) <= 0) {
      return;
    }
    System.arraycopy(positions, from, scratch, from, to - from);
    int left = from;
    int right = mid;
    for (int i = from; i < to; i++) {
      // Ties take the left side: the earlier record stays first.
      if (right >= to || (left < mid && order.compare(scratch[left], scratch[right]) <= 0)) {
        positions[i] = scratch[left++];
      } else {
        positions[i] = scratch[right++];
      }
    }
  }

  /** Orders by (key, position): a total order, so an unstable sort keeps arrival order. */
  private static void quicksort(long[] keys, int[] positions, int from, int to) {
    while (to - from > 16) {
      int mid = (from + to) >>> 1;
      long pivotKey = keys[mid];
      int pivotPosition = positions[mid];
      int i = from;
      int j = to;
      while (i <= j) {
        while (less(keys[i], positions[i], pivotKey, pivotPosition)) {
          i++;
        }
        while (less(pivotKey, pivotPosition, keys[j], positions[j])) {
          j--;
        }
        if (i <= j) {
          swap(keys, positions, i++, j--);
        }
      }
      // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
      if (j - from < to - i) {
        quicksort(keys, positions, from, j);
        from = i;
      } else {
        quicksort(keys, positions, i, to);
        to = j;
      }
    }
    for (int i = from + 1; i <= to; i++) {
      for (int k = i; k > from && less(keys[k], positions[k], keys[k - 1], positions[k - 1]); k--) {
        swap(keys, positions, k, k - 1);
      }
    }
  }

  private static boolean less(long keyA, int positionA, long keyB, int positionB) {
    return keyA < keyB || (keyA == keyB && positionA < positionB);
  }

  private static void swap(long[] keys, int[] positions, int a, int b) {
    long key = keys[a];
    keys[a] = keys[b];
    keys[b] = key;
    int position = positions[a];
    positions[a] = positions[b];
    positions[b] = position;
  }
}
