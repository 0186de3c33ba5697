package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Sorts records whose key is one integral column ({@link RowComparator#integral(RowType)}) by that
 * key, keeping arrival order among equal keys, on primitive arrays: a write buffer sorts every
 * record once per flush, and comparing boxed keys through a comparator was the largest single cost
 * of a commit.
 */
final class IntegralKeySort {

  /** Versions of a key sorted by insertion at most; more go through the JDK's stable sort. */
  private static final int INSERTION_LIMIT = 16;

  private IntegralKeySort() {}

  /** Sorts the list in place by key, equal keys in their current order. */
  static void sort(List<KeyValue> records) {
    sort(records, null);
  }

  /**
   * Sorts the list in place by key, then the records of a key by {@code versionOrder} (those it
   * orders equal in their current order), or in their current order if it is null: what a stable
   * sort by key then version gives. The records of one key are few, so they are sorted among
   * themselves by insertion after the sort by key.
   */
  static void sort(List<KeyValue> records, Comparator<KeyValue> versionOrder) {
    int n = records.size();
    long[] keys = new long[n];
    int[] positions = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = RowComparator.integralValue(records.get(i).key());
      positions[i] = i;
    }
    quicksort(keys, positions, 0, n - 1);
    KeyValue[] sorted = new KeyValue[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = records.get(positions[i]);
    }
    if (versionOrder != null) {
      sortVersions(keys, sorted, versionOrder);
    }
    for (int i = 0; i < n; i++) {
      records.set(i, sorted[i]);
    }
  }

  /** Sorts each run of equal keys of {@code sorted} by version, stably (insertion). */
  private static void sortVersions(
      long[] keys, KeyValue[] sorted, Comparator<KeyValue> versionOrder) {
    int from = 0;
    while (from < sorted.length) {
      int to = from + 1;
      while (to < sorted.length && keys[to] == keys[from]) {
        to++;
      }
      if (to - from > INSERTION_LIMIT) {
        // A key written many times in one buffer: insertion would be quadratic.
        Arrays.sort(sorted, from, to, versionOrder);
        from = to;
        continue;
      }
      for (int i = from + 1; i < to; i++) {
        KeyValue record = sorted[i];
        int k = i;
        while (k > from && versionOrder.compare(record, sorted[k - 1]) < 0) {
          sorted[k] = sorted[k - 1];
          k--;
        }
        sorted[k] = record;
      }
      from = to;
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
