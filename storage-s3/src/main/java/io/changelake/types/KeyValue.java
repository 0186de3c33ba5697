package io.changelake.types;

/**
 * One record of the merge tree: a primary key, the sequence number that orders versions of that
 * key, the row kind, and the whole row (key columns included), as Paimon stores it in data and
 * changelog files ({@code _KEY_*}, {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND}, columns).
 *
 * <p>The arrays are not copied; a key-value is immutable by convention: never change them after
 * construction.
 *
 * @param key the primary-key values, in primary-key order
 * @param sequenceNumber the version order within a bucket; larger is newer
 * @param kind what the record does to its key
 * @param value the whole row, in table-column order
 */
public record KeyValue(Object[] key, long sequenceNumber, RowKind kind, Object[] value)
    implements ChangeRow {

  /** This record reported as an insert (+I): itself if it is one, else a copy of that kind. */
  public KeyValue asInsert() {
    return kind == RowKind.INSERT ? this : new KeyValue(key, sequenceNumber, RowKind.INSERT, value);
  }

  @Override
  public int columnCount() {
    return value.length;
  }

  @Override
  public boolean isNullAt(int column) {
    return value[column] == null;
  }

  @Override
  public long getLong(int column) {
    return (Long) value[column];
  }

  @Override
  public int getInt(int column) {
    return (Integer) value[column];
  }

  @Override
  public short getShort(int column) {
    return (Short) value[column];
  }

  @Override
  public byte getByte(int column) {
    return (Byte) value[column];
  }

  @Override
  public double getDouble(int column) {
    return (Double) value[column];
  }

  @Override
  public float getFloat(int column) {
    return (Float) value[column];
  }

  @Override
  public boolean getBoolean(int column) {
    return (Boolean) value[column];
  }

  @Override
  public Object get(int column) {
    return value[column];
  }

  /** This key-value itself. */
  @Override
  public KeyValue toKeyValue() {
    return this;
  }
}
