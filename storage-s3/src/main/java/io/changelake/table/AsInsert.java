package io.changelake.table;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;

/**
 * A row reported as an insert (+I), whatever kind it was read with, cut to some of its columns if
 * asked: what a read of a table's state, rather than of its changes, reports. One view, moved to
 * each row by {@link #of}, so nothing is built per row; valid as long as the row it shows. Not
 * thread-safe.
 */
final class AsInsert implements ChangeRow {

  private ChangeRow row;
  private int[] columns;

  /**
   * This view, showing {@code row} as an insert.
   *
   * @param columns the row's columns shown, in their order; null for all
   */
  AsInsert of(ChangeRow row, int[] columns) {
    this.row = row;
    this.columns = columns;
    return this;
  }

  /** The row's column shown as {@code column}. */
  private int at(int column) {
    return columns == null ? column : columns[column];
  }

  @Override
  public RowKind kind() {
    return RowKind.INSERT;
  }

  @Override
  public long sequenceNumber() {
    return row.sequenceNumber();
  }

  @Override
  public int columnCount() {
    return columns == null ? row.columnCount() : columns.length;
  }

  @Override
  public boolean isNullAt(int column) {
    return row.isNullAt(at(column));
  }

  @Override
  public long getLong(int column) {
    return row.getLong(at(column));
  }

  @Override
  public int getInt(int column) {
    return row.getInt(at(column));
  }

  @Override
  public short getShort(int column) {
    return row.getShort(at(column));
  }

  @Override
  public byte getByte(int column) {
    return row.getByte(at(column));
  }

  @Override
  public double getDouble(int column) {
    return row.getDouble(at(column));
  }

  @Override
  public float getFloat(int column) {
    return row.getFloat(at(column));
  }

  @Override
  public boolean getBoolean(int column) {
    return row.getBoolean(at(column));
  }

  @Override
  public Object get(int column) {
    return row.get(at(column));
  }

  @Override
  public KeyValue toKeyValue() {
    KeyValue kv = row.toKeyValue();
    if (columns == null) {
      return kv.asInsert();
    }
    return new KeyValue(
        kv.key(), kv.sequenceNumber(), RowKind.INSERT, BucketAssigner.project(kv.value(), columns));
  }
}
