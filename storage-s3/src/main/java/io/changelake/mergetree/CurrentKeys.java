package io.changelake.mergetree;

import io.changelake.types.RowComparator;

/**
 * The current key of each run of a merge, slot by slot, where the merge's heap compares them
 * without reaching into the runs' files: a key's integral columns (BIGINT, INT, SMALLINT, TINYINT)
 * as {@code long}s, taken unboxed where the file stores them so, its other columns as their values.
 * Reading a run's key into its slot makes nothing per record, whatever the key's columns: a key of
 * several columns is neither built as an array nor boxed to be compared.
 */
final class CurrentKeys {

  /** A run at a record, whose key is read column by column. */
  interface Source {

    /** Key column {@code column}, an integral one, of the current record, as a long. */
    long integralKeyColumn(int column);

    /** Key column {@code column}, not an integral one, of the current record. */
    Object keyColumn(int column);
  }

  private final RowComparator keyOrder;
  private final int columns;
  private final boolean[] integral;

  /** Whether the key is one integral column: a slot is one long, compared alone. */
  private final boolean oneIntegral;

  // Slot s holds column k at s * columns + k: in longs if the column is integral, else in objects.
  private final long[] longs;
  private final Object[] objects;

  /**
   * @param keyOrder the table's key order
   * @param slots the number of keys held
   */
  CurrentKeys(RowComparator keyOrder, int slots) {
    this.keyOrder = keyOrder;
    this.columns = keyOrder.size();
    this.integral = new boolean[columns];
    boolean allIntegral = true;
    for (int k = 0; k < columns; k++) {
      integral[k] = keyOrder.integralAt(k);
      allIntegral &= integral[k];
    }
    this.oneIntegral = columns == 1 && integral[0];
    this.longs = new long[slots * columns];
    this.objects = allIntegral ? null : new Object[slots * columns];
  }

  /** Reads the key of {@code run}'s current record into slot {@code slot}. */
  void read(int slot, Source run) {
    int at = slot * columns;
    for (int k = 0; k < columns; k++) {
      if (integral[k]) {
        longs[at + k] = run.integralKeyColumn(k);
      } else {
        objects[at + k] = run.keyColumn(k);
      }
    }
  }

  /** Copies the key in slot {@code from} to slot {@code to}. */
  void copy(int from, int to) {
    System.arraycopy(longs, from * columns, longs, to * columns, columns);
    if (objects != null) {
      System.arraycopy(objects, from * columns, objects, to * columns, columns);
    }
  }

  /** Orders the keys in slots {@code a} and {@code b} by the table's key order. */
  int compare(int a, int b) {
    if (oneIntegral) {
      return Long.compare(longs[a], longs[b]);
    }
    int x = a * columns;
    int y = b * columns;
    for (int k = 0; k < columns; k++) {
      int c =
          integral[k]
              ? Long.compare(longs[x + k], longs[y + k])
              : keyOrder.compareField(k, objects[x + k], objects[y + k]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
