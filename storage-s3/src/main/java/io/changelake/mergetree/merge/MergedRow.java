package io.changelake.mergetree.merge;

import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.TypeRoot;
import java.util.Arrays;

/**
 * The row partial-update and aggregation build for one key out of the versions they merge, and
 * their result: a {@link ChangeRow} that the engine rewrites key after key, valid until its next
 * {@link io.changelake.mergetree.MergeFunction#reset()} (a view, as deduplicate's result is a view
 * of a version).
 *
 * <p>Integer columns (TINYINT to BIGINT) are held in a {@code long}, FLOAT and DOUBLE in a {@code
 * double}, BOOLEAN as 0 or 1, so that a version read through its unboxed getters folds into the row
 * and is written from it without a boxed value; other columns hold the objects {@link
 * ChangeRow#get} gives. The key is the row's key columns, as in every stored row.
 */
final class MergedRow implements ChangeRow {

  private final TypeRoot[] roots;
  private final int[] keyColumns;
  private final long[] integrals;
  private final double[] floatings;
  private final Object[] objects;
  private final boolean[] nulls;
  private RowKind kind = RowKind.INSERT;
  private long sequenceNumber;

  /** An empty row of {@code schema}'s columns. */
  MergedRow(TableSchema schema) {
    int arity = schema.rowType().size();
    this.roots = new TypeRoot[arity];
    for (int i = 0; i < arity; i++) {
      roots[i] = schema.rowType().type(i).root();
    }
    this.keyColumns = schema.keyIndexes();
    this.integrals = new long[arity];
    this.floatings = new double[arity];
    this.objects = new Object[arity];
    this.nulls = new boolean[arity];
    clear();
  }

  /** Makes every column null. */
  void clear() {
    Arrays.fill(nulls, true);
    Arrays.fill(objects, null);
  }

  /** Sets what the row does to its key and its sequence number: the engine's result. */
  void stamp(RowKind kind, long sequenceNumber) {
    this.kind = kind;
    this.sequenceNumber = sequenceNumber;
  }

  /** Makes column {@code column} null. */
  void setNull(int column) {
    nulls[column] = true;
    objects[column] = null;
  }

  /** Takes the value of column {@code column} of {@code from}, null included, unboxed if it can. */
  void copy(int column, ChangeRow from) {
    if (from.isNullAt(column)) {
      setNull(column);
    } else {
      copyValue(column, from);
    }
  }

  /** {@link #copy} of a column {@code from} holds a value in: the caller has asked. */
  void copyValue(int column, ChangeRow from) {
    nulls[column] = false;
    switch (roots[column]) {
      case BIGINT, INT, TINYINT, SMALLINT -> integrals[column] = integralOf(from, column);
      case DOUBLE, FLOAT -> floatings[column] = floatingOf(from, column);
      case BOOLEAN -> integrals[column] = from.getBoolean(column) ? 1 : 0;
      default -> objects[column] = from.get(column);
    }
  }

  /**
   * The value of integer column {@code column} of {@code version}, not null, as a long, read
   * through its unboxed getter.
   */
  long integralOf(ChangeRow version, int column) {
    return ChangeRow.integral(version, column, roots[column]);
  }

  /** The value of FLOAT or DOUBLE column {@code column} of {@code version}, not null, unboxed. */
  double floatingOf(ChangeRow version, int column) {
    return roots[column] == TypeRoot.FLOAT ? version.getFloat(column) : version.getDouble(column);
  }

  /** The value of an integer column that is not null, whatever its width. */
  long integral(int column) {
    return integrals[column];
  }

  /** Sets an integer column to {@code value}, already of the column's width. */
  void setIntegral(int column, long value) {
    nulls[column] = false;
    integrals[column] = value;
  }

  /** The value of a FLOAT or DOUBLE column that is not null. */
  double floating(int column) {
    return floatings[column];
  }

  /** Sets a FLOAT or DOUBLE column to {@code value}, already of the column's precision. */
  void setFloating(int column, double value) {
    nulls[column] = false;
    floatings[column] = value;
  }

  /** Sets a BOOLEAN column. */
  void setBoolean(int column, boolean value) {
    setIntegral(column, value ? 1 : 0);
  }

  /**
   * Sets a column held as an object (not an integer, FLOAT, DOUBLE or BOOLEAN one) to {@code
   * value}, or null.
   */
  void setObject(int column, Object value) {
    nulls[column] = value == null;
    objects[column] = value;
  }

  @Override
  public RowKind kind() {
    return kind;
  }

  @Override
  public long sequenceNumber() {
    return sequenceNumber;
  }

  @Override
  public int columnCount() {
    return roots.length;
  }

  @Override
  public boolean isNullAt(int column) {
    return nulls[column];
  }

  @Override
  public long getLong(int column) {
    requireRoot(column, TypeRoot.BIGINT);
    return integrals[column];
  }

  @Override
  public int getInt(int column) {
    requireRoot(column, TypeRoot.INT);
    return (int) integrals[column];
  }

  @Override
  public short getShort(int column) {
    requireRoot(column, TypeRoot.SMALLINT);
    return (short) integrals[column];
  }

  @Override
  public byte getByte(int column) {
    requireRoot(column, TypeRoot.TINYINT);
    return (byte) integrals[column];
  }

  @Override
  public double getDouble(int column) {
    requireRoot(column, TypeRoot.DOUBLE);
    return floatings[column];
  }

  @Override
  public float getFloat(int column) {
    requireRoot(column, TypeRoot.FLOAT);
    return (float) floatings[column];
  }

  @Override
  public boolean getBoolean(int column) {
    requireRoot(column, TypeRoot.BOOLEAN);
    return integrals[column] != 0;
  }

  private void requireRoot(int column, TypeRoot root) {
    if (roots[column] != root) {
      throw new ClassCastException("column " + column + " is " + roots[column] + ", not " + root);
    }
    if (nulls[column]) {
      throw new NullPointerException("column " + column + " is null");
    }
  }

  @Override
  public Object get(int column) {
    if (nulls[column]) {
      return null;
    }
    return switch (roots[column]) {
      case BIGINT, INT, SMALLINT, TINYINT -> roots[column].integral(integrals[column]);
      case DOUBLE -> Double.valueOf(floatings[column]);
      case FLOAT -> Float.valueOf((float) floatings[column]);
      case BOOLEAN -> Boolean.valueOf(integrals[column] != 0);
      default -> objects[column];
    };
  }

  @Override
  public KeyValue toKeyValue() {
    Object[] value = new Object[roots.length];
    for (int i = 0; i < value.length; i++) {
      value[i] = get(i);
    }
    Object[] key = new Object[keyColumns.length];
    for (int i = 0; i < key.length; i++) {
      key[i] = value[keyColumns[i]];
    }
    return new KeyValue(key, sequenceNumber, kind, value);
  }
}
