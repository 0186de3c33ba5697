package io.changelake.format;

import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;

/**
 * Test fixture: random rows of a row type, with nulls in nullable columns, edge values, short and
 * long strings of 1- to 4-byte UTF-8 characters, and timestamps exact to their type's precision (so
 * that they survive a round trip through the binary form).
 */
public final class RandomRows {

  private static final String[] CHARACTERS = {"a", "Z", "7", " ", "é", "ß", "中", "€", "😀", "𝄞"};
  private static final long MIN_SECOND =
      LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);
  private static final long MAX_SECOND =
      LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);

  private final Random random;

  public RandomRows(long seed) {
    this.random = new Random(seed);
  }

  public Object[] row(RowType rowType) {
    Object[] row = new Object[rowType.size()];
    for (int i = 0; i < row.length; i++) {
      DataType type = rowType.type(i);
      row[i] = type.nullable() && random.nextInt(5) == 0 ? null : value(type);
    }
    return row;
  }

  public Object value(DataType type) {
    return switch (type.root()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) random.nextInt();
      case INT -> pick(random.nextInt(), Integer.MIN_VALUE, Integer.MAX_VALUE, 0);
      case BIGINT -> pick(random.nextLong(), Long.MIN_VALUE, Long.MAX_VALUE, 0L);
      case FLOAT ->
          pick((random.nextFloat() - 0.5f) * 1e6f, Float.NaN, -0.0f, Float.NEGATIVE_INFINITY);
      case DOUBLE -> pick((random.nextDouble() - 0.5) * 1e300, Double.NaN, Double.MIN_VALUE, -0.0);
      case DECIMAL -> decimal(type.precision(), type.scale());
      case CHAR, VARCHAR -> string(Math.min(type.length(), 30));
      case BINARY, VARBINARY -> bytes(Math.min(type.length(), 30));
      case DATE -> LocalDate.ofEpochDay(random.nextInt(1_600_000) - 800_000);
      case TIMESTAMP ->
          LocalDateTime.ofEpochSecond(second(), nanos(type.precision()), ZoneOffset.UTC);
      case TIMESTAMP_LTZ -> Instant.ofEpochSecond(second(), nanos(type.precision()));
    };
  }

  /** Mostly the random value, sometimes one of the edges. */
  @SafeVarargs
  private <T> T pick(T usual, T... edges) {
    return random.nextInt(10) == 0 ? edges[random.nextInt(edges.length)] : usual;
  }

  private BigDecimal decimal(int precision, int scale) {
    BigInteger limit = BigInteger.TEN.pow(precision);
    BigInteger unscaled =
        random.nextInt(10) == 0
            ? limit.subtract(BigInteger.ONE)
            : new BigInteger(limit.bitLength() + 8, random).mod(limit);
    if (random.nextBoolean()) {
      unscaled = unscaled.negate();
    }
    return new BigDecimal(unscaled, scale);
  }

  private String string(int maxLength) {
    int length = length(maxLength);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      s.append(CHARACTERS[random.nextInt(CHARACTERS.length)]);
    }
    return s.toString();
  }

  private byte[] bytes(int maxLength) {
    byte[] bytes = new byte[length(maxLength)];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Up to maxLength; half the time at most 7, the most Paimon keeps inline. */
  private int length(int maxLength) {
    return random.nextBoolean()
        ? random.nextInt(Math.min(maxLength, 7) + 1)
        : random.nextInt(maxLength + 1);
  }

  private long second() {
    return MIN_SECOND + (long) (random.nextDouble() * (MAX_SECOND - MIN_SECOND));
  }

  /** Random nanoseconds of a second, with no digits beyond the precision. */
  private int nanos(int precision) {
    int unit = (int) Math.pow(10, 9 - precision);
    return random.nextInt(1_000_000_000) / unit * unit;
  }
}
