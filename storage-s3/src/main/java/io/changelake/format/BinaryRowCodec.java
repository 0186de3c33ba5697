package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * Converts rows of one {@link RowType} to and from Apache Paimon's BinaryRow bytes, the form of
 * partition values, min/max keys and column statistics inside manifests, and the input of the
 * bucket hash.
 *
 * <h2>Two byte forms</h2>
 *
 * <ul>
 *   <li>{@link #encode}/{@link #decode}: the <em>serialized</em> form Paimon stores in manifests
 *       ({@code SerializationUtils.serializeBinaryRow}): the field count as a 4-byte big-endian
 *       int, then the BinaryRow.
 *   <li>{@link #encodeRow}/{@link #decodeRow}: the BinaryRow alone.
 * </ul>
 *
 * <h2>BinaryRow layout</h2>
 *
 * <p>All numbers are little-endian: Paimon writes in the machine's native order, which is
 * little-endian on the x86 and ARM servers it runs on. The row is a fixed part followed by a
 * variable part:
 *
 * <ol>
 *   <li>A null bit set of {@code ((arity + 63 + 8) / 64) * 8} bytes: byte 0 holds the row kind
 *       (always 0, +I, here, as in manifests and bucket keys); field {@code i} is null when bit
 *       {@code (i + 8) % 8} of byte {@code (i + 8) / 8} is set.
 *   <li>One 8-byte slot per field; a null field's slot is zero unless noted below.
 *   <li>The variable part, each piece padded with zeros to a multiple of 8 bytes. A slot pointing
 *       into it holds {@code offset << 32 | length}, the offset counted from the row's start.
 * </ol>
 *
 * <table>
 *   <caption>What a field's slot holds</caption>
 *   <tr><th>type</th><th>slot</th></tr>
 *   <tr><td>BOOLEAN, TINYINT</td><td>1 byte (boolean as 0 or 1)</td></tr>
 *   <tr><td>SMALLINT</td><td>2 bytes</td></tr>
 *   <tr><td>INT, DATE (days since 1970-01-01)</td><td>4 bytes</td></tr>
 *   <tr><td>BIGINT</td><td>8 bytes</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>the IEEE 754 bits, 4 or 8 bytes</td></tr>
 *   <tr><td>DECIMAL(p, s), p &lt;= 18</td><td>the unscaled value as a long</td></tr>
 *   <tr><td>DECIMAL(p, s), p &gt; 18</td><td>offset and length of the unscaled value's big-endian
 *       two's-complement bytes, in a 16-byte piece of the variable part; a null keeps its piece
 *       (zeros) and an offset with length 0</td></tr>
 *   <tr><td>TIMESTAMP(p), TIMESTAMP(p) WITH LOCAL TIME ZONE, p &lt;= 3</td><td>milliseconds
 *       since 1970-01-01T00:00 (UTC for the local-time-zone type) as a long</td></tr>
 *   <tr><td>the same, p &gt; 3</td><td>offset of an 8-byte piece holding the milliseconds, and
 *       the nanoseconds within the millisecond in place of a length; a null keeps its piece
 *       (zeros) and an offset with 0 nanoseconds</td></tr>
 *   <tr><td>CHAR, VARCHAR, STRING (UTF-8), BINARY, VARBINARY, BYTES</td><td>up to 7 bytes: the
 *       bytes themselves, with {@code 0x80 | length} in the slot's last byte; longer: offset and
 *       length</td></tr>
 * </table>
 *
 * <p>Values are written as given, as Paimon writes them: a timestamp with more digits than its
 * type's precision keeps them (up to nanoseconds when p &gt; 3, milliseconds when p &lt;= 3), a
 * CHAR(n) is not padded, a decimal of another scale is rounded half-up to the type's scale.
 *
 * <p>Not thread-safe: an instance reuses one buffer for every row it encodes, so the write path
 * allocates only the returned array (none at all for {@link #hash}). Instances are cheap: keep one
 * per thread. Decoding reads only the given bytes.
 */
public final class BinaryRowCodec {

  static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle SHORTS =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle ARITY =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** Bytes before the row in the serialized form, and in {@link #buffer}. */
  public static final int PREFIX = 4;

  static final int ROW_KIND_BITS = 8;
  private static final int MAX_INLINE_BYTES = 7;
  static final int MAX_COMPACT_DECIMAL_PRECISION = 18;
  static final int MAX_COMPACT_TIMESTAMP_PRECISION = 3;
  private static final int DECIMAL_PIECE_BYTES = 16;
  private static final long INLINE_MARK = 0x80L << 56;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final RowType rowType;
  private final TypeRoot[] roots;
  private final boolean[] compact;
  private final int[] precisions;
  private final int[] scales;
  private final int nullBitsBytes;
  private final int fixedBytes;

  /** The serialized form of the last row written: the arity, then the row from {@link #PREFIX}. */
  private byte[] buffer;

  /** The length of the last row written, variable part included. */
  private int cursor;

  /** A codec for rows of the given type. */
  public BinaryRowCodec(RowType rowType) {
    this.rowType = rowType;
    int arity = rowType.size();
    roots = new TypeRoot[arity];
    compact = new boolean[arity];
    precisions = new int[arity];
    scales = new int[arity];
    for (int i = 0; i < arity; i++) {
      DataType type = rowType.type(i);
      roots[i] = type.root();
      precisions[i] = type.precision();
      scales[i] = type.scale();
      compact[i] =
          switch (type.root()) {
            case DECIMAL -> type.precision() <= MAX_COMPACT_DECIMAL_PRECISION;
            case TIMESTAMP, TIMESTAMP_LTZ -> type.precision() <= MAX_COMPACT_TIMESTAMP_PRECISION;
            default -> true;
          };
    }
    nullBitsBytes = ((arity + 63 + ROW_KIND_BITS) / 64) * 8;
    fixedBytes = nullBitsBytes + 8 * arity;
    buffer = new byte[PREFIX + fixedBytes + 64];
    ARITY.set(buffer, 0, arity);
  }

  /** The type of the rows this codec reads and writes. */
  public RowType rowType() {
    return rowType;
  }

  /**
   * The serialized form of a row, as in Paimon manifests: the field count (4 bytes, big-endian),
   * then the BinaryRow.
   *
   * @throws IllegalArgumentException naming the field if a value is not of its type's Java class
   *     (see {@link TypeRoot}) or a decimal does not fit its precision
   */
  public byte[] encode(Object[] row) {
    write(row);
    return Arrays.copyOf(buffer, PREFIX + cursor);
  }

  /** The BinaryRow bytes of a row, without the field count; see {@link #encode}. */
  public byte[] encodeRow(Object[] row) {
    write(row);
    return Arrays.copyOfRange(buffer, PREFIX, PREFIX + cursor);
  }

  /**
   * Paimon's hash of the row's BinaryRow ({@code BinaryRow#hashCode}), computed without allocating
   * for fixed-size fields; see {@link #encode} for the errors.
   */
  public int hash(Object[] row) {
    write(row);
    return lastRowHash();
  }

  /**
   * Writes a row's BinaryRow and keeps it in this codec, for a caller that wants its bytes in a
   * buffer of its own ({@link #copyLastRow}) and its hash ({@link #lastRowHash}) without the array
   * {@link #encodeRow} allocates or a second serialization; see {@link #encode} for the errors.
   *
   * @return the BinaryRow's length in bytes; it stays readable until this codec writes another row
   */
  public int writeRow(Object[] row) {
    write(row);
    return cursor;
  }

  /**
   * {@link #writeRow(Object[])} of a row read column by column: field {@code i} of this codec's
   * type is column {@code columns[i]} of {@code row} (column {@code i} if {@code columns} is null).
   * BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT and BOOLEAN fields are taken by the view's
   * unboxed getters, so a row of a column batch is written without boxing them.
   *
   * @return the BinaryRow's length in bytes; it stays readable until this codec writes another row
   */
  public int writeRow(ChangeRow row, int[] columns) {
    startRow(columns == null ? row.columnCount() : columns.length);
    for (int i = 0; i < roots.length; i++) {
      int column = columns == null ? i : columns[i];
      int slot = PREFIX + nullBitsBytes + 8 * i;
      if (row.isNullAt(column)) {
        writeNull(i, slot);
        continue;
      }
      try {
        switch (roots[i]) {
          case BOOLEAN -> buffer[slot] = (byte) (row.getBoolean(column) ? 1 : 0);
          case INT -> INTS.set(buffer, slot, row.getInt(column));
          case SMALLINT -> SHORTS.set(buffer, slot, row.getShort(column));
          case TINYINT -> buffer[slot] = row.getByte(column);
          case BIGINT -> LONGS.set(buffer, slot, row.getLong(column));
          case FLOAT -> INTS.set(buffer, slot, Float.floatToRawIntBits(row.getFloat(column)));
          case DOUBLE -> LONGS.set(buffer, slot, Double.doubleToRawLongBits(row.getDouble(column)));
          default -> writeValue(i, slot, row.get(column));
        }
      } catch (ClassCastException e) {
        throw mismatch(i, row.get(column), e);
      }
    }
    return cursor;
  }

  /** Copies the BinaryRow last written by {@link #writeRow} to {@code target} at {@code offset}. */
  public void copyLastRow(byte[] target, int offset) {
    System.arraycopy(buffer, PREFIX, target, offset, cursor);
  }

  /**
   * Paimon's hash of the row this codec serialized last ({@link #writeRow}, {@link #encodeRow},
   * ...), as {@link #hash} gives it.
   */
  public int lastRowHash() {
    return MurmurHash.hash(buffer, PREFIX, cursor);
  }

  /**
   * The row of a serialized form written by {@link #encode} or by Paimon.
   *
   * @throws IllegalArgumentException if the field count in the bytes is not this row type's
   */
  public Object[] decode(byte[] serialized) {
    if (serialized.length < PREFIX || (int) ARITY.get(serialized, 0) != roots.length) {
      throw new IllegalArgumentException(
          "the bytes hold no serialized row of "
              + roots.length
              + " fields: they begin with "
              + Arrays.toString(Arrays.copyOf(serialized, Math.min(serialized.length, PREFIX))));
    }
    return decodeRow(serialized, PREFIX);
  }

  /** The row whose BinaryRow starts at {@code offset} of {@code bytes}. */
  public Object[] decodeRow(byte[] bytes, int offset) {
    Object[] row = new Object[roots.length];
    for (int i = 0; i < roots.length; i++) {
      if (!isNullAt(bytes, offset, i)) {
        row[i] = read(bytes, offset, i);
      }
    }
    return row;
  }

  /** The number of fields of a row of this codec's type. */
  int arity() {
    return roots.length;
  }

  /** The type of field {@code i}. */
  TypeRoot root(int i) {
    return roots[i];
  }

  /** Whether field {@code i} of the BinaryRow at {@code rowStart} is null. */
  static boolean isNullAt(byte[] bytes, int rowStart, int i) {
    int bit = i + ROW_KIND_BITS;
    return (bytes[rowStart + (bit >>> 3)] & (1 << (bit & 7))) != 0;
  }

  /** Where field {@code i}'s 8-byte slot is, in the BinaryRow at {@code rowStart}. */
  int slot(int rowStart, int i) {
    return rowStart + nullBitsBytes + 8 * i;
  }

  /**
   * Field {@code i}, not null, of the BinaryRow at {@code rowStart}, as {@link #decodeRow} holds
   * it.
   */
  Object read(byte[] bytes, int rowStart, int i) {
    int slot = slot(rowStart, i);
    return switch (roots[i]) {
      case BOOLEAN -> bytes[slot] != 0;
      case TINYINT -> bytes[slot];
      case SMALLINT -> (short) SHORTS.get(bytes, slot);
      case INT -> (int) INTS.get(bytes, slot);
      case BIGINT -> (long) LONGS.get(bytes, slot);
      case FLOAT -> Float.intBitsToFloat((int) INTS.get(bytes, slot));
      case DOUBLE -> Double.longBitsToDouble((long) LONGS.get(bytes, slot));
      case DECIMAL -> readDecimal(bytes, rowStart, slot, i);
      case CHAR, VARCHAR -> {
        long pointer = (long) LONGS.get(bytes, slot);
        yield new String(
            bytes, start(rowStart, slot, pointer), length(pointer), StandardCharsets.UTF_8);
      }
      case BINARY, VARBINARY -> {
        long pointer = (long) LONGS.get(bytes, slot);
        int from = start(rowStart, slot, pointer);
        yield Arrays.copyOfRange(bytes, from, from + length(pointer));
      }
      case DATE -> LocalDate.ofEpochDay((int) INTS.get(bytes, slot));
      case TIMESTAMP, TIMESTAMP_LTZ -> readTimestamp(bytes, rowStart, slot, i);
    };
  }

  private Object readDecimal(byte[] bytes, int rowStart, int slot, int i) {
    long value = (long) LONGS.get(bytes, slot);
    if (compact[i]) {
      return BigDecimal.valueOf(value, scales[i]);
    }
    BigInteger unscaled = new BigInteger(bytes, rowStart + (int) (value >>> 32), (int) value);
    return new BigDecimal(unscaled, scales[i]);
  }

  private Object readTimestamp(byte[] bytes, int rowStart, int slot, int i) {
    long value = (long) LONGS.get(bytes, slot);
    long millis;
    int nanosOfMilli;
    if (compact[i]) {
      millis = value;
      nanosOfMilli = 0;
    } else {
      millis = (long) LONGS.get(bytes, rowStart + (int) (value >>> 32));
      nanosOfMilli = (int) value;
    }
    if (roots[i] == TypeRoot.TIMESTAMP_LTZ) {
      return Instant.ofEpochSecond(
          Math.floorDiv(millis, 1000), Math.floorMod(millis, 1000) * 1_000_000L + nanosOfMilli);
    }
    long nanoOfDay = Math.floorMod(millis, MILLIS_PER_DAY) * 1_000_000L + nanosOfMilli;
    return LocalDateTime.of(
        LocalDate.ofEpochDay(Math.floorDiv(millis, MILLIS_PER_DAY)),
        LocalTime.ofNanoOfDay(nanoOfDay));
  }

  /** Where the bytes of a string or binary field begin: in its slot, or in the variable part. */
  private static int start(int rowStart, int slot, long pointer) {
    return (pointer & INLINE_MARK) != 0 ? slot : rowStart + (int) (pointer >>> 32);
  }

  private static int length(long pointer) {
    return (pointer & INLINE_MARK) != 0 ? (int) ((pointer >>> 56) & 0x7F) : (int) pointer;
  }

  /** Writes the row into {@link #buffer} from {@link #PREFIX} and sets {@link #cursor}. */
  private void write(Object[] row) {
    startRow(row.length);
    for (int i = 0; i < roots.length; i++) {
      Object value = row[i];
      int slot = PREFIX + nullBitsBytes + 8 * i;
      if (value == null) {
        writeNull(i, slot);
      } else {
        writeChecked(i, slot, value);
      }
    }
  }

  /** Begins a row of {@code values} values: checks its size, clears the fixed part. */
  private void startRow(int values) {
    if (values != roots.length) {
      throw new IllegalArgumentException(
          "a row of "
              + values
              + " values does not fit "
              + roots.length
              + " fields "
              + rowType.names());
    }
    // Slots of narrow types are written partly, so the whole fixed part starts as zeros.
    Arrays.fill(buffer, PREFIX, PREFIX + fixedBytes, (byte) 0);
    cursor = fixedBytes;
  }

  /** Writes a value that is not null, failing with the field's name if it is of another class. */
  private void writeChecked(int i, int slot, Object value) {
    try {
      writeValue(i, slot, value);
    } catch (ClassCastException e) {
      throw mismatch(i, value, e);
    }
  }

  /** The failure of field {@code i} given a value of another class. */
  private IllegalArgumentException mismatch(int i, Object value, ClassCastException e) {
    return new IllegalArgumentException(
        "field "
            + rowType.field(i).name()
            + " of type "
            + rowType.type(i)
            + " needs a "
            + roots[i].javaClass().getSimpleName()
            + ", got a "
            + value.getClass().getSimpleName()
            + ": "
            + value,
        e);
  }

  private void writeNull(int i, int slot) {
    int bit = i + ROW_KIND_BITS;
    buffer[PREFIX + (bit >>> 3)] |= (byte) (1 << (bit & 7));
    if (compact[i]) {
      return;
    }
    // Paimon reserves the variable-part piece of a null wide decimal or timestamp, so a later
    // in-place update needs no move; the reserved zeros are part of the bytes and the hash.
    int piece = roots[i] == TypeRoot.DECIMAL ? DECIMAL_PIECE_BYTES : 8;
    ensureCapacity(piece);
    Arrays.fill(buffer, PREFIX + cursor, PREFIX + cursor + piece, (byte) 0);
    LONGS.set(buffer, slot, (long) cursor << 32);
    cursor += piece;
  }

  private void writeValue(int i, int slot, Object value) {
    switch (roots[i]) {
      case BOOLEAN -> buffer[slot] = (byte) ((Boolean) value ? 1 : 0);
      case TINYINT -> buffer[slot] = (Byte) value;
      case SMALLINT -> SHORTS.set(buffer, slot, (short) (Short) value);
      case INT -> INTS.set(buffer, slot, (int) (Integer) value);
      case BIGINT -> LONGS.set(buffer, slot, (long) (Long) value);
      case FLOAT -> INTS.set(buffer, slot, Float.floatToRawIntBits((Float) value));
      case DOUBLE -> LONGS.set(buffer, slot, Double.doubleToRawLongBits((Double) value));
      case DECIMAL -> writeDecimal(i, slot, (BigDecimal) value);
      case CHAR, VARCHAR -> writeBytes(slot, ((String) value).getBytes(StandardCharsets.UTF_8));
      case BINARY, VARBINARY -> writeBytes(slot, (byte[]) value);
      case DATE -> INTS.set(buffer, slot, Math.toIntExact(((LocalDate) value).toEpochDay()));
      case TIMESTAMP -> {
        LocalDateTime t = (LocalDateTime) value;
        long nanoOfDay = t.toLocalTime().toNanoOfDay();
        writeTimestamp(
            i,
            slot,
            t.toLocalDate().toEpochDay() * MILLIS_PER_DAY + nanoOfDay / 1_000_000,
            (int) (nanoOfDay % 1_000_000));
      }
      case TIMESTAMP_LTZ -> {
        Instant t = (Instant) value;
        writeTimestamp(
            i, slot, t.getEpochSecond() * 1000 + t.getNano() / 1_000_000, t.getNano() % 1_000_000);
      }
    }
  }

  private void writeDecimal(int i, int slot, BigDecimal value) {
    BigDecimal scaled =
        value.scale() == scales[i] ? value : value.setScale(scales[i], RoundingMode.HALF_UP);
    if (scaled.precision() > precisions[i]) {
      throw new IllegalArgumentException(
          "field " + rowType.field(i).name() + ": " + value + " does not fit " + rowType.type(i));
    }
    if (compact[i]) {
      LONGS.set(buffer, slot, scaled.unscaledValue().longValue());
      return;
    }
    byte[] unscaled = scaled.unscaledValue().toByteArray();
    ensureCapacity(DECIMAL_PIECE_BYTES);
    Arrays.fill(buffer, PREFIX + cursor, PREFIX + cursor + DECIMAL_PIECE_BYTES, (byte) 0);
    System.arraycopy(unscaled, 0, buffer, PREFIX + cursor, unscaled.length);
    LONGS.set(buffer, slot, (long) cursor << 32 | unscaled.length);
    cursor += DECIMAL_PIECE_BYTES;
  }

  private void writeTimestamp(int i, int slot, long millis, int nanosOfMilli) {
    if (compact[i]) {
      LONGS.set(buffer, slot, millis);
      return;
    }
    ensureCapacity(8);
    LONGS.set(buffer, PREFIX + cursor, millis);
    LONGS.set(buffer, slot, (long) cursor << 32 | nanosOfMilli);
    cursor += 8;
  }

  private void writeBytes(int slot, byte[] bytes) {
    int length = bytes.length;
    if (length <= MAX_INLINE_BYTES) {
      System.arraycopy(bytes, 0, buffer, slot, length);
      buffer[slot + 7] = (byte) (0x80 | length);
      return;
    }
    int padded = (length + 7) & ~7;
    ensureCapacity(padded);
    LONGS.set(buffer, PREFIX + cursor + padded - 8, 0L);
    System.arraycopy(bytes, 0, buffer, PREFIX + cursor, length);
    LONGS.set(buffer, slot, (long) cursor << 32 | length);
    cursor += padded;
  }

  private void ensureCapacity(int more) {
    int needed = PREFIX + cursor + more;
    if (needed > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length + (buffer.length >> 1)));
    }
  }
}
