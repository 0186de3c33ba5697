package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;

/**
 * Rows of one data or changelog file read at once, column by column, into arrays this batch keeps
 * from one read to the next ({@link KeyValueFileReader#nextBatch}): the sequence numbers and kinds
 * as primitives, each BIGINT column as a {@code long[]} with its nulls beside it, and every other
 * column as the values {@link KeyValue#value()} would hold (a dictionary's values shared, not built
 * per row). Reading a batch allocates nothing per row; {@link #row} views one row as a {@link
 * ChangeRow}.
 *
 * <p>A batch belongs to the reader that made it ({@link KeyValueFileReader#newBatch}); each read
 * overwrites it. Not thread-safe.
 */
public final class KeyValueBatch {

  final long[] sequences;
  final int[] kinds;

  /** Per value column, whether it is held in {@link #longs} (else in {@link #objects}). */
  final boolean[] heldAsLongs;

  /** Per value column held as longs, its values; null for the other columns. */
  final long[][] longs;

  /** Per value column held as longs and nullable, which rows are null; else null. */
  final boolean[][] nulls;

  /** Per row, the values of the columns held as objects (the others' slots unused). */
  final Object[][] objects;

  /**
   * Where each key column stands among the value columns; null when the key columns are read from
   * the file's own key columns into {@link #keys}.
   */
  private final int[] keyInValue;

  /** Per row, the key, when {@link #keyInValue} is null. */
  final Object[][] keys;

  int size;
  private final Row row = new Row();

  KeyValueBatch(
      int capacity, boolean[] heldAsLongs, boolean[] nullable, int[] keyInValue, int keyColumns) {
    this.sequences = new long[capacity];
    this.kinds = new int[capacity];
    this.heldAsLongs = heldAsLongs;
    int columns = heldAsLongs.length;
    this.longs = new long[columns][];
    this.nulls = new boolean[columns][];
    for (int i = 0; i < columns; i++) {
      if (heldAsLongs[i]) {
        longs[i] = new long[capacity];
        nulls[i] = nullable[i] ? new boolean[capacity] : null;
      }
    }
    this.objects = new Object[capacity][columns];
    this.keyInValue = keyInValue;
    this.keys = keyInValue == null ? new Object[capacity][keyColumns] : null;
  }

  /** The number of rows the last read gave. */
  public int size() {
    return size;
  }

  /**
   * Row {@code r} of the batch as a change: one view, moved to {@code r} by each call, valid until
   * the next call or the next read.
   */
  public ChangeRow row(int r) {
    if (r < 0 || r >= size) {
      throw new IndexOutOfBoundsException("row " + r + " of a batch of " + size);
    }
    row.index = r;
    return row;
  }

  private Object value(int r, int column) {
    if (!heldAsLongs[column]) {
      return objects[r][column];
    }
    boolean[] columnNulls = nulls[column];
    return columnNulls != null && columnNulls[r] ? null : (Object) longs[column][r];
  }

  /** The view {@link #row} hands out. */
  private final class Row implements ChangeRow {
    private int index;

    @Override
    public RowKind kind() {
      return RowKind.fromByteValue((byte) kinds[index]);
    }

    @Override
    public long sequenceNumber() {
      return sequences[index];
    }

    @Override
    public int columnCount() {
      return heldAsLongs.length;
    }

    @Override
    public boolean isNullAt(int column) {
      if (!heldAsLongs[column]) {
        return objects[index][column] == null;
      }
      boolean[] columnNulls = nulls[column];
      return columnNulls != null && columnNulls[index];
    }

    @Override
    public long getLong(int column) {
      if (!heldAsLongs[column]) {
        return (Long) objects[index][column];
      }
      if (isNullAt(column)) {
        throw new NullPointerException("column " + column + " is null");
      }
      return longs[column][index];
    }

    @Override
    public Object get(int column) {
      return value(index, column);
    }

    @Override
    public KeyValue toKeyValue() {
      Object[] value = new Object[heldAsLongs.length];
      for (int i = 0; i < value.length; i++) {
        value[i] = value(index, i);
      }
      Object[] key;
      if (keyInValue == null) {
        key = keys[index].clone();
      } else {
        key = new Object[keyInValue.length];
        for (int k = 0; k < key.length; k++) {
          // The same object in key and value, as the reader's key-values share it.
          key[k] = value[keyInValue[k]];
        }
      }
      return new KeyValue(key, sequences[index], kind(), value);
    }
  }
}
