package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.util.List;

/**
 * Sorts records whose key is one integral column (BIGINT, INT, SMALLINT, TINYINT) by that key,
 * keeping arrival order among equal keys, on primitive arrays: a write buffer sorts every record
 * once per flush, and comparing boxed keys through a comparator was the largest single cost of a
 * commit.
 */
final class IntegralKeySort {

  private IntegralKeySort() {}

  /** Whether keys of this type sort here. */
  static boolean applies(RowType keyType) {
    if (keyType.size() != 1) {
      return false;
    }
    TypeRoot root = keyType.type(0).root();
    return root == TypeRoot.BIGINT
        || root == TypeRoot.INT
        || root == TypeRoot.SMALLINT
        || root == TypeRoot.TINYINT;
  }

  /** Sorts the list in place by key, equal keys in their current order. */
  static void sort(List<KeyValue> records) {
    int n = records.size();
    long[] keys = new long[n];
    int[] positions = new int[n];
    for (int i = 0; i < n; i++) {
      keys[i] = ((Number) records.get(i).key()[0]).longValue();
      positions[i] = i;
    }
    quicksort(keys, positions, 0, n - 1);
    KeyValue[] sorted = new KeyValue[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = records.get(positions[i]);
    }
    for (int i = 0; i < n; i++) {
      records.set(i, sorted[i]);
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
