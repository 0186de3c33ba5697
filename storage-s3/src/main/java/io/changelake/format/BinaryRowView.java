package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;

/**
 * A row in BinaryRow bytes read in place, as a {@link ChangeRow}: what a lookup finds in a block of
 * a lookup copy, handed on without decoding it. BIGINT, INT, DOUBLE, FLOAT and BOOLEAN fields are
 * read from their slots by the unboxed getters; {@link #get} decodes one field as {@link
 * BinaryRowCodec#decodeRow} would.
 *
 * <p>Mutable and reused ({@link #of}): valid while its bytes are not changed and until it is
 * pointed at another row. The bytes are not copied; a lookup copy's blocks are never written once
 * built, so a view of one stays valid while it is held, even if the cache drops the block.
 */
public final class BinaryRowView implements ChangeRow {

  private final BinaryRowCodec codec;
  private final int[] keyInValue;
  private byte[] bytes;
  private int rowStart;
  private long sequenceNumber;
  private RowKind kind;

  /**
   * @param rowType the type of the rows viewed: every table column
   * @param keyInValue where each key column stands among them, for {@link #toKeyValue}
   */
  public BinaryRowView(RowType rowType, int[] keyInValue) {
    this.codec = new BinaryRowCodec(rowType);
    this.keyInValue = keyInValue.clone();
  }

  /** This view, now of the BinaryRow at {@code rowStart} of {@code bytes}. */
  public BinaryRowView of(byte[] bytes, int rowStart, long sequenceNumber, RowKind kind) {
    this.bytes = bytes;
    this.rowStart = rowStart;
    this.sequenceNumber = sequenceNumber;
    this.kind = kind;
    return this;
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
    return codec.arity();
  }

  @Override
  public boolean isNullAt(int column) {
    return BinaryRowCodec.isNullAt(bytes, rowStart, column);
  }

  @Override
  public long getLong(int column) {
    if (codec.root(column) != TypeRoot.BIGINT) {
      return (Long) get(column);
    }
    return (long) BinaryRowCodec.LONGS.get(bytes, notNullSlot(column));
  }

  @Override
  public int getInt(int column) {
    if (codec.root(column) != TypeRoot.INT) {
      return (Integer) get(column);
    }
    return (int) BinaryRowCodec.INTS.get(bytes, notNullSlot(column));
  }

  @Override
  public short getShort(int column) {
    if (codec.root(column) != TypeRoot.SMALLINT) {
      return (Short) get(column);
    }
    return (short) BinaryRowCodec.SHORTS.get(bytes, notNullSlot(column));
  }

  @Override
  public byte getByte(int column) {
    if (codec.root(column) != TypeRoot.TINYINT) {
      return (Byte) get(column);
    }
    return bytes[notNullSlot(column)];
  }

  @Override
  public double getDouble(int column) {
    if (codec.root(column) != TypeRoot.DOUBLE) {
      return (Double) get(column);
    }
    return Double.longBitsToDouble((long) BinaryRowCodec.LONGS.get(bytes, notNullSlot(column)));
  }

  @Override
  public float getFloat(int column) {
    if (codec.root(column) != TypeRoot.FLOAT) {
      return (Float) get(column);
    }
    return Float.intBitsToFloat((int) BinaryRowCodec.INTS.get(bytes, notNullSlot(column)));
  }

  @Override
  public boolean getBoolean(int column) {
    if (codec.root(column) != TypeRoot.BOOLEAN) {
      return (Boolean) get(column);
    }
    return bytes[notNullSlot(column)] != 0;
  }

  @Override
  public Object get(int column) {
    return isNullAt(column) ? null : codec.read(bytes, rowStart, column);
  }

  /** Every field decoded, as {@link BinaryRowCodec#decodeRow} gives them: a new array. */
  public Object[] decodeValues() {
    return codec.decodeRow(bytes, rowStart);
  }

  /** A key-value of its own: its key the key columns, its value every field, decoded. */
  @Override
  public KeyValue toKeyValue() {
    Object[] value = decodeValues();
    Object[] key = new Object[keyInValue.length];
    for (int i = 0; i < key.length; i++) {
      key[i] = value[keyInValue[i]];
    }
    return new KeyValue(key, sequenceNumber, kind, value);
  }

  private int notNullSlot(int column) {
    if (isNullAt(column)) {
      throw new NullPointerException("column " + column + " is null");
    }
    return codec.slot(rowStart, column);
  }
}
