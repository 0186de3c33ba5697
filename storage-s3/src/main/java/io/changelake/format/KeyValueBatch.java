package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.TypeRoot;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Rows of one data or changelog file read at once, column by column, into arrays this batch keeps
 * from one read to the next ({@link KeyValueFileReader#nextBatch}): the sequence numbers and kinds
 * as primitives; each BIGINT, INT, DOUBLE, FLOAT and BOOLEAN column as an array of its primitive
 * type, and each SMALLINT and TINYINT column as an {@code int[]} of its values, with its nulls
 * beside it; every other column as the values {@link KeyValue#value()} would hold (a dictionary's
 * values shared, not built per row). A key read from the file's own key columns holds its BIGINT
 * and INT columns unboxed too. Reading a batch allocates nothing per row; {@link #row} views one
 * row as a {@link ChangeRow}.
 *
 * <p>A batch belongs to the reader that made it ({@link KeyValueFileReader#newBatch}); each read
 * overwrites it. Not thread-safe.
 */
public final class KeyValueBatch {

  final long[] sequences;
  final int[] kinds;

  /**
   * Per value column held unboxed, its values: a {@code long[]}, {@code int[]}, {@code double[]},
   * {@code float[]} or {@code boolean[]}; null for the columns held in {@link #objects}.
   */
  final Object[] primitives;

  /** Per column held in an {@code int[]} though SMALLINT or TINYINT, that type; else null. */
  private final TypeRoot[] narrowed;

  /** Per column held unboxed and nullable, which rows are null; else null. */
  final boolean[][] nulls;

  /** Per row, the values of the columns held as objects (the others' slots unused). */
  final Object[][] objects;

  /**
   * Where each key column stands among the value columns; null when the key columns are read from
   * the file's own key columns into {@link #keys}.
   */
  private final int[] keyInValue;

  /**
   * When {@link #keyInValue} is null, per key column held unboxed (a required BIGINT or INT), its
   * values, a {@code long[]} or {@code int[]}; null for the columns held in {@link #keys}.
   */
  final Object[] keyPrimitives;

  /** Per row, the key columns held as objects, when {@link #keyInValue} is null. */
  final Object[][] keys;

  int size;
  private final Row row = new Row();

  /**
   * @param unboxed per value column, the physical type it is held unboxed as, or null to hold it as
   *     objects
   * @param narrowed per value column held as {@code INT32} though SMALLINT or TINYINT, that type;
   *     else null
   * @param nullable per value column, whether it may hold nulls
   * @param keyInValue where each key column stands among the value columns, or null
   * @param unboxedKeys when {@code keyInValue} is null, per key column the physical type it is held
   *     unboxed as ({@code INT64} or {@code INT32}), or null to hold it as objects
   */
  KeyValueBatch(
      int capacity,
      PrimitiveTypeName[] unboxed,
      TypeRoot[] narrowed,
      boolean[] nullable,
      int[] keyInValue,
      PrimitiveTypeName[] unboxedKeys) {
    this.sequences = new long[capacity];
    this.kinds = new int[capacity];
    int columns = unboxed.length;
    this.primitives = new Object[columns];
    this.narrowed = narrowed;
    this.nulls = new boolean[columns][];
    for (int i = 0; i < columns; i++) {
      if (unboxed[i] != null) {
        primitives[i] = DecodedColumnChunk.newArray(unboxed[i], capacity);
        nulls[i] = nullable[i] ? new boolean[capacity] : null;
      }
    }
    this.objects = new Object[capacity][columns];
    this.keyInValue = keyInValue;
    this.keyPrimitives = new Object[unboxedKeys.length];
    for (int k = 0; k < unboxedKeys.length; k++) {
      if (unboxedKeys[k] != null) {
        keyPrimitives[k] = DecodedColumnChunk.newArray(unboxedKeys[k], capacity);
      }
    }
    this.keys = keyInValue == null ? new Object[capacity][unboxedKeys.length] : null;
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

  /**
   * Key column {@code k} of row {@code r}, an integral column (BIGINT, INT, SMALLINT or TINYINT),
   * as a long: unboxed where the batch holds the column so.
   *
   * @throws ClassCastException if the column is not integral
   */
  public long integralKeyColumn(int r, int k) {
    Object held;
    Object[] row;
    int column;
    if (keyInValue == null) {
      held = keyPrimitives[k];
      row = keys[r];
      column = k;
    } else {
      column = keyInValue[k];
      held = primitives[column];
      row = objects[r];
    }
    if (held instanceof long[] longs) {
      return longs[r];
    }
    if (held instanceof int[] ints) {
      return ints[r];
    }
    return ((Number) row[column]).longValue();
  }

  /**
   * Key column {@code k} of row {@code r}, as a key-value's key holds it: boxed where the batch
   * holds the column unboxed.
   */
  public Object keyColumn(int r, int k) {
    if (keyInValue != null) {
      return value(r, keyInValue[k]);
    }
    Object held = keyPrimitives[k];
    if (held instanceof long[] longs) {
      return longs[r];
    }
    if (held instanceof int[] ints) {
      return ints[r];
    }
    return keys[r][k];
  }

  /**
   * Puts a value read as an object into row {@code r}'s column: unboxed into its array if the
   * column is held unboxed.
   */
  void set(int r, int column, Object value) {
    Object array = primitives[column];
    if (array == null) {
      objects[r][column] = value;
      return;
    }
    if (nulls[column] != null) {
      nulls[column][r] = value == null;
    }
    if (value == null) {
      return;
    }
    if (array instanceof long[] longs) {
      longs[r] = (Long) value;
    } else if (array instanceof int[] ints) {
      // An Integer, or a Short or Byte of a column held widened.
      ints[r] = ((Number) value).intValue();
    } else if (array instanceof double[] doubles) {
      doubles[r] = (Double) value;
    } else if (array instanceof float[] floats) {
      floats[r] = (Float) value;
    } else {
      ((boolean[]) array)[r] = (Boolean) value;
    }
  }

  private boolean isNull(int r, int column) {
    if (primitives[column] == null) {
      return objects[r][column] == null;
    }
    boolean[] columnNulls = nulls[column];
    return columnNulls != null && columnNulls[r];
  }

  /** The value of row {@code r}'s column as a key-value holds it: boxed if held unboxed. */
  private Object value(int r, int column) {
    Object array = primitives[column];
    if (array == null) {
      return objects[r][column];
    }
    if (isNull(r, column)) {
      return null;
    }
    if (array instanceof long[] longs) {
      return longs[r];
    }
    if (array instanceof int[] ints) {
      TypeRoot narrow = narrowed[column];
      if (narrow == null) {
        return ints[r];
      }
      return narrow.integral(ints[r]);
    }
    if (array instanceof double[] doubles) {
      return doubles[r];
    }
    if (array instanceof float[] floats) {
      return floats[r];
    }
    return ((boolean[]) array)[r];
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
      return primitives.length;
    }

    @Override
    public boolean isNullAt(int column) {
      return isNull(index, column);
    }

    // A getter of a column held otherwise casts what get gives: a ClassCastException unless the
    // column holds the getter's type, a NullPointerException if it is null.

    @Override
    public long getLong(int column) {
      if (primitives[column] instanceof long[] longs) {
        return longs[notNull(column)];
      }
      return (Long) get(column);
    }

    @Override
    public int getInt(int column) {
      if (primitives[column] instanceof int[] ints && narrowed[column] == null) {
        return ints[notNull(column)];
      }
      return (Integer) get(column);
    }

    @Override
    public short getShort(int column) {
      if (narrowed[column] == TypeRoot.SMALLINT) {
        return (short) ((int[]) primitives[column])[notNull(column)];
      }
      return (Short) get(column);
    }

    @Override
    public byte getByte(int column) {
      if (narrowed[column] == TypeRoot.TINYINT) {
        return (byte) ((int[]) primitives[column])[notNull(column)];
      }
      return (Byte) get(column);
    }

    @Override
    public double getDouble(int column) {
      if (primitives[column] instanceof double[] doubles) {
        return doubles[notNull(column)];
      }
      return (Double) get(column);
    }

    @Override
    public float getFloat(int column) {
      if (primitives[column] instanceof float[] floats) {
        return floats[notNull(column)];
      }
      return (Float) get(column);
    }

    @Override
    public boolean getBoolean(int column) {
      if (primitives[column] instanceof boolean[] booleans) {
        return booleans[notNull(column)];
      }
      return (Boolean) get(column);
    }

    /** This row's index, after checking that its column is not null. */
    private int notNull(int column) {
      if (isNull(index, column)) {
        throw new NullPointerException("column " + column + " is null");
      }
      return index;
    }

    @Override
    public Object get(int column) {
      return value(index, column);
    }

    @Override
    public KeyValue toKeyValue() {
      Object[] value = new Object[primitives.length];
      for (int i = 0; i < value.length; i++) {
        value[i] = value(index, i);
      }
      Object[] key = new Object[keyPrimitives.length];
      for (int k = 0; k < key.length; k++) {
        // The same object in key and value, as the reader's key-values share it.
        key[k] = keyInValue == null ? keyColumn(index, k) : value[keyInValue[k]];
      }
      return new KeyValue(key, sequences[index], kind(), value);
    }
  }
}
