package io.changelake.table;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;

/**
 * A row reported as an insert (+I), whatever kind it was read with: what a read of a table's state,
 * rather than of its changes, reports. One view, moved to each row by {@link #of}, so nothing is
 * built per row; valid as long as the row it shows. Not thread-safe.
 */
final class AsInsert implements ChangeRow {

  private ChangeRow row;

  /** This view, showing {@code row} as an insert. */
  AsInsert of(ChangeRow row) {
    this.row = row;
    return this;
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
    return row.columnCount();
  }

  @Override
  public boolean isNullAt(int column) {
    return row.isNullAt(column);
  }

  @Override
  public long getLong(int column) {
    return row.getLong(column);
  }

  @Override
  public int getInt(int column) {
    return row.getInt(column);
  }

  @Override
  public double getDouble(int column) {
    return row.getDouble(column);
  }

  @Override
  public float getFloat(int column) {
    return row.getFloat(column);
  }

  @Override
  public boolean getBoolean(int column) {
    return row.getBoolean(column);
  }

  @Override
  public Object get(int column) {
    return row.get(column);
  }

  @Override
  public KeyValue toKeyValue() {
    return row.toKeyValue().asInsert();
  }
}
