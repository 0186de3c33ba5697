package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;

/**
 * A row under another kind: how the changelog rule emits a version read as a view (its -U, -D or
 * +I) without copying it. Mutable and reused ({@link #of}); valid while the row it wraps is.
 */
final class RekindedRow implements ChangeRow {

  private ChangeRow row;
  private RowKind kind;

  /** This wrapper, now of {@code row} under {@code kind}. */
  RekindedRow of(ChangeRow row, RowKind kind) {
    this.row = row;
    this.kind = kind;
    return this;
  }

  @Override
  public RowKind kind() {
    return kind;
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
    KeyValue kv = row.toKeyValue();
    return new KeyValue(kv.key(), kv.sequenceNumber(), kind, kv.value());
  }
}
