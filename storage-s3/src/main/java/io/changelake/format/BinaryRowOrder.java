package io.changelake.format;

import io.changelake.types.DataType;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.lang.invoke.VarHandle;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Orders two keys in BinaryRow form exactly as {@link RowComparator} orders them decoded, reading
 * the fields in place: a lookup compares its key with some twenty stored keys, and decoding each
 * (an array and boxed values) cost more than the rest of the lookup together.
 *
 * <p>It reads the layout {@link BinaryRowCodec} documents: a null bit set after the row-kind byte,
 * one little-endian 8-byte slot per field, strings and bytes inline up to 7 bytes (length in the
 * slot's last byte, high bit set) or in the variable part, decimals above precision 18 as
 * big-endian unscaled bytes, timestamps above precision 3 as milliseconds in the variable part with
 * the nanoseconds of the millisecond in the slot.
 */
public final class BinaryRowOrder {

  private static final VarHandle LONGS = BinaryRowCodec.LONGS;
  private static final VarHandle INTS = BinaryRowCodec.INTS;
  private static final VarHandle SHORTS = BinaryRowCodec.SHORTS;
  private static final int ROW_KIND_BITS = BinaryRowCodec.ROW_KIND_BITS;
  private static final long INLINE_MARK = 0x80L << 56;

  /** Where the null bit of a row's first field is: after the row-kind bits. */
  private static final int FIRST_NULL_BYTE = ROW_KIND_BITS / 8;

  private static final int FIRST_NULL_MASK = 1 << (ROW_KIND_BITS % 8);

  private final TypeRoot[] roots;
  private final boolean[] compact;
  private final int nullBitsBytes;

  /**
   * Whether the key is one BIGINT field, the most common primary key, compared without the loop
   * over fields and the switch on their types: a lookup compares some twenty keys, and this made
   * the lookup write 4% faster ({@code ./changelake bench --producer lookup}, eight JVMs each way,
   * alternated, medians).
   */
  private final boolean oneBigint;

  public BinaryRowOrder(RowType keyType) {
    int arity = keyType.size();
    roots = new TypeRoot[arity];
    compact = new boolean[arity];
    for (int i = 0; i < arity; i++) {
      DataType type = keyType.type(i);
      roots[i] = type.root();
      compact[i] =
          switch (type.root()) {
            case DECIMAL -> type.precision() <= BinaryRowCodec.MAX_COMPACT_DECIMAL_PRECISION;
            case TIMESTAMP, TIMESTAMP_LTZ ->
                type.precision() <= BinaryRowCodec.MAX_COMPACT_TIMESTAMP_PRECISION;
            default -> true;
          };
    }
    nullBitsBytes = ((arity + 63 + ROW_KIND_BITS) / 64) * 8;
    oneBigint = arity == 1 && roots[0] == TypeRoot.BIGINT;
  }

  /**
   * Compares the BinaryRow at {@code aRow} of {@code a} with the one at {@code bRow} of {@code b}.
   */
  public int compare(byte[] a, int aRow, byte[] b, int bRow) {
    if (oneBigint) {
      return compareOneBigint(a, aRow, b, bRow);
    }
    for (int i = 0; i < roots.length; i++) {
      int bit = i + ROW_KIND_BITS;
      boolean aNull = (a[aRow + (bit >>> 3)] & (1 << (bit & 7))) != 0;
      boolean bNull = (b[bRow + (bit >>> 3)] & (1 << (bit & 7))) != 0;
      if (aNull || bNull) {
        if (aNull != bNull) {
          return aNull ? -1 : 1;
        }
        continue;
      }
      int c =
          compareField(
              i, a, aRow, aRow + nullBitsBytes + 8 * i, b, bRow, bRow + nullBitsBytes + 8 * i);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** {@link #compare} for a key of one BIGINT field: its null bits, then its slot. */
  private int compareOneBigint(byte[] a, int aRow, byte[] b, int bRow) {
    boolean aNull = (a[aRow + FIRST_NULL_BYTE] & FIRST_NULL_MASK) != 0;
    boolean bNull = (b[bRow + FIRST_NULL_BYTE] & FIRST_NULL_MASK) != 0;
    if (aNull || bNull) {
      return aNull == bNull ? 0 : aNull ? -1 : 1;
    }
    return Long.compare(
        (long) LONGS.get(a, aRow + nullBitsBytes), (long) LONGS.get(b, bRow + nullBitsBytes));
  }

  private int compareField(int i, byte[] a, int aRow, int aSlot, byte[] b, int bRow, int bSlot) {
    return switch (roots[i]) {
      case BOOLEAN, TINYINT -> Byte.compare(a[aSlot], b[bSlot]);
      case SMALLINT -> Short.compare((short) SHORTS.get(a, aSlot), (short) SHORTS.get(b, bSlot));
      case INT, DATE -> Integer.compare((int) INTS.get(a, aSlot), (int) INTS.get(b, bSlot));
      case BIGINT -> Long.compare((long) LONGS.get(a, aSlot), (long) LONGS.get(b, bSlot));
      case FLOAT ->
          Float.compare(
              Float.intBitsToFloat((int) INTS.get(a, aSlot)),
              Float.intBitsToFloat((int) INTS.get(b, bSlot)));
      case DOUBLE ->
          Double.compare(
              Double.longBitsToDouble((long) LONGS.get(a, aSlot)),
              Double.longBitsToDouble((long) LONGS.get(b, bSlot)));
      case DECIMAL ->
          compact[i]
              ? Long.compare((long) LONGS.get(a, aSlot), (long) LONGS.get(b, bSlot))
              : unscaled(a, aRow, aSlot).compareTo(unscaled(b, bRow, bSlot));
      case TIMESTAMP, TIMESTAMP_LTZ ->
          compact[i]
              ? Long.compare((long) LONGS.get(a, aSlot), (long) LONGS.get(b, bSlot))
              : compareTimestamps(a, aRow, aSlot, b, bRow, bSlot);
      case CHAR, VARCHAR, BINARY, VARBINARY -> {
        // Unsigned UTF-8 byte order is code point order, RowComparator's string order.
        long ap = (long) LONGS.get(a, aSlot);
        long bp = (long) LONGS.get(b, bSlot);
        int aFrom = start(aRow, aSlot, ap);
        int bFrom = start(bRow, bSlot, bp);
        yield Arrays.compareUnsigned(a, aFrom, aFrom + length(ap), b, bFrom, bFrom + length(bp));
      }
    };
  }

  private static BigInteger unscaled(byte[] bytes, int row, int slot) {
    long pointer = (long) LONGS.get(bytes, slot);
    return new BigInteger(bytes, row + (int) (pointer >>> 32), (int) pointer);
  }

  private static int compareTimestamps(
      byte[] a, int aRow, int aSlot, byte[] b, int bRow, int bSlot) {
    long ap = (long) LONGS.get(a, aSlot);
    long bp = (long) LONGS.get(b, bSlot);
    int c =
        Long.compare(
            (long) LONGS.get(a, aRow + (int) (ap >>> 32)),
            (long) LONGS.get(b, bRow + (int) (bp >>> 32)));
    return c != 0 ? c : Integer.compare((int) ap, (int) bp);
  }

  private static int start(int row, int slot, long pointer) {
    return (pointer & INLINE_MARK) != 0 ? slot : row + (int) (pointer >>> 32);
  }

  private static int length(long pointer) {
    return (pointer & INLINE_MARK) != 0 ? (int) ((pointer >>> 56) & 0x7F) : (int) pointer;
  }
}
