package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.TypeRoot;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.function.Function;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * How one column type lives in Parquet, exactly as Paimon 1.3.1 stores it: the Parquet type, and
 * the conversion between our Java value ({@link io.changelake.types.TypeRoot#javaClass()}) and the
 * Parquet physical value ({@link Boolean}, {@link Integer}, {@link Long}, {@link Float}, {@link
 * Double} or {@link Binary}).
 *
 * <p>One conversion from physical values serves both the rows a reader returns and the min/max of
 * the footer statistics, so the two can never disagree.
 */
final class ColumnCodec {

  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long SECONDS_PER_DAY = 86_400L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final int NANOS_PER_MILLI = 1_000_000;

  /** Julian day number of 1970-01-01, the epoch of INT96 timestamps. */
  private static final int JULIAN_EPOCH_DAY = 2_440_588;

  private final PrimitiveTypeName physical;
  private final LogicalTypeAnnotation logical;
  private final int fixedLength;
  private final Function<Object, Object> toPhysical;
  private final Function<Object, Object> fromPhysical;
  private final boolean statsHaveMinMax;
  private final PrimitiveTypeName unboxedType;
  private final TypeRoot narrowInteger;

  private ColumnCodec(
      PrimitiveTypeName physical,
      LogicalTypeAnnotation logical,
      int fixedLength,
      Function<Object, Object> toPhysical,
      Function<Object, Object> fromPhysical,
      boolean statsHaveMinMax) {
    this.physical = physical;
    this.logical = logical;
    this.fixedLength = fixedLength;
    this.toPhysical = toPhysical;
    this.fromPhysical = fromPhysical;
    this.statsHaveMinMax = statsHaveMinMax;
    // Asked per value written from a view (write(ColumnWriter, ChangeRow, ...)): worked out once.
    this.unboxedType =
        fromPhysical == AS_STORED && ColumnValues.UNBOXED.contains(physical) ? physical : null;
    int bits =
        logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation ints
            ? ints.getBitWidth()
            : 32;
    this.narrowInteger = bits == 8 ? TypeRoot.TINYINT : bits == 16 ? TypeRoot.SMALLINT : null;
  }

  /** The conversion of a type whose Java value is its Parquet value: the value itself. */
  private static Object asStored(Object value) {
    return value;
  }

  /** {@link #asStored}, one instance, so {@link #keepsPhysical} can tell it. */
  private static final Function<Object, Object> AS_STORED = ColumnCodec::asStored;

  private static ColumnCodec plain(PrimitiveTypeName physical, LogicalTypeAnnotation logical) {
    return new ColumnCodec(physical, logical, 0, AS_STORED, AS_STORED, true);
  }

  /** The codec of a column type. */
  static ColumnCodec of(DataType type) {
    switch (type.root()) {
      case BOOLEAN:
        return plain(PrimitiveTypeName.BOOLEAN, null);
      case TINYINT:
        return new ColumnCodec(
            PrimitiveTypeName.INT32,
            LogicalTypeAnnotation.intType(8, true),
            0,
            v -> (int) (Byte) v,
            p -> (byte) (int) (Integer) p,
            true);
      case SMALLINT:
        return new ColumnCodec(
            PrimitiveTypeName.INT32,
            LogicalTypeAnnotation.intType(16, true),
            0,
            v -> (int) (Short) v,
            p -> (short) (int) (Integer) p,
            true);
      case INT:
        return plain(PrimitiveTypeName.INT32, null);
      case BIGINT:
        return plain(PrimitiveTypeName.INT64, null);
      case FLOAT:
        return plain(PrimitiveTypeName.FLOAT, null);
      case DOUBLE:
        return plain(PrimitiveTypeName.DOUBLE, null);
      case DECIMAL:
        return decimal(type.precision(), type.scale());
      case CHAR:
      case VARCHAR:
        return new ColumnCodec(
            PrimitiveTypeName.BINARY,
            LogicalTypeAnnotation.stringType(),
            0,
            v -> Binary.fromString((String) v),
            p -> ((Binary) p).toStringUsingUTF8(),
            true);
      case BINARY:
      case VARBINARY:
        // Paimon keeps no min/max for byte columns, only null counts.
        return new ColumnCodec(
            PrimitiveTypeName.BINARY,
            null,
            0,
            v -> Binary.fromConstantByteArray((byte[]) v),
            // A dictionary page hands the same array to every row holding the value: copy.
            p -> ((Binary) p).getBytes().clone(),
            false);
      case DATE:
        return new ColumnCodec(
            PrimitiveTypeName.INT32,
            LogicalTypeAnnotation.dateType(),
            0,
            v -> (int) ((LocalDate) v).toEpochDay(),
            p -> LocalDate.ofEpochDay((Integer) p),
            true);
      case TIMESTAMP:
        return timestamp(type.precision(), false);
      case TIMESTAMP_LTZ:
        return timestamp(type.precision(), true);
      default:
        throw new IllegalArgumentException("no Parquet mapping for " + type);
    }
  }

  private static ColumnCodec decimal(int precision, int scale) {
    LogicalTypeAnnotation logical = LogicalTypeAnnotation.decimalType(scale, precision);
    Function<Object, BigInteger> unscaled = v -> unscaled((BigDecimal) v, precision, scale);
    if (precision <= 9) {
      return new ColumnCodec(
          PrimitiveTypeName.INT32,
          logical,
          0,
          v -> unscaled.apply(v).intValue(),
          p -> BigDecimal.valueOf((Integer) p, scale),
          true);
    }
    if (precision <= 18) {
      return new ColumnCodec(
          PrimitiveTypeName.INT64,
          logical,
          0,
          v -> unscaled.apply(v).longValue(),
          p -> BigDecimal.valueOf((Long) p, scale),
          true);
    }
    int length = minBytesForPrecision(precision);
    return new ColumnCodec(
        PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY,
        logical,
        length,
        v -> Binary.fromConstantByteArray(signExtend(unscaled.apply(v).toByteArray(), length)),
        p -> new BigDecimal(new BigInteger(((Binary) p).getBytes()), scale),
        true);
  }

  private static BigInteger unscaled(BigDecimal value, int precision, int scale) {
    BigDecimal scaled;
    try {
      scaled = value.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          value
              + " has more than "
              + scale
              + " fraction digits: round it to fit DECIMAL("
              + precision
              + ", "
              + scale
              + ")",
          e);
    }
    if (scaled.precision() > precision) {
      throw new IllegalArgumentException(
          value
              + " has more than "
              + precision
              + " digits and does not fit DECIMAL("
              + precision
              + ", "
              + scale
              + ")");
    }
    return scaled.unscaledValue();
  }

  /** The fewest bytes whose two's complement holds every unscaled value of the precision. */
  static int minBytesForPrecision(int precision) {
    BigInteger limit = BigInteger.TEN.pow(precision);
    int bytes = 1;
    while (BigInteger.ONE.shiftLeft(8 * bytes - 1).compareTo(limit) < 0) {
      bytes++;
    }
    return bytes;
  }

  private static byte[] signExtend(byte[] bytes, int length) {
    if (bytes.length == length) {
      return bytes;
    }
    byte[] extended = new byte[length];
    Arrays.fill(extended, 0, length - bytes.length, bytes[0] < 0 ? (byte) -1 : (byte) 0);
    System.arraycopy(bytes, 0, extended, length - bytes.length, bytes.length);
    return extended;
  }

  /**
   * Timestamps as Paimon stores them: epoch milliseconds up to precision 3, epoch microseconds up
   * to 6, INT96 (Julian day and nanosecond of day) above; Paimon records no min/max for INT96.
   */
  private static ColumnCodec timestamp(int precision, boolean localTimeZone) {
    Function<Object, Instant> instantOf =
        localTimeZone ? v -> (Instant) v : v -> ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
    Function<Instant, Object> valueOf =
        localTimeZone ? i -> i : i -> LocalDateTime.ofInstant(i, ZoneOffset.UTC);
    if (precision <= 3) {
      return new ColumnCodec(
          PrimitiveTypeName.INT64,
          LogicalTypeAnnotation.timestampType(localTimeZone, TimeUnit.MILLIS),
          0,
          v -> instantOf.apply(v).toEpochMilli(),
          p -> valueOf.apply(Instant.ofEpochMilli((Long) p)),
          true);
    }
    if (precision <= 6) {
      return new ColumnCodec(
          PrimitiveTypeName.INT64,
          LogicalTypeAnnotation.timestampType(localTimeZone, TimeUnit.MICROS),
          0,
          v -> toMicros(instantOf.apply(v)),
          p -> valueOf.apply(fromMicros((Long) p)),
          true);
    }
    return new ColumnCodec(
        PrimitiveTypeName.INT96,
        null,
        0,
        v -> toInt96(instantOf.apply(v)),
        p -> valueOf.apply(fromInt96((Binary) p)),
        false);
  }

  private static long toMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static Instant fromMicros(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  /**
   * Paimon's INT96 bytes: it divides epoch milliseconds by the day with truncation, so before 1970
   * the nanosecond of day is negative. We write the same bytes so both writers agree byte for byte.
   */
  // The nanoseconds within the millisecond that toEpochMilli drops: getNano alone is meant here.
  @SuppressWarnings("JavaInstantGetSecondsGetNano")
  private static Binary toInt96(Instant instant) {
    long millis = instant.toEpochMilli();
    int nanoOfMilli = instant.getNano() % NANOS_PER_MILLI;
    int julianDay = (int) (millis / MILLIS_PER_DAY + JULIAN_EPOCH_DAY);
    long nanoOfDay = (millis % MILLIS_PER_DAY) * NANOS_PER_MILLI + nanoOfMilli;
    ByteBuffer buffer = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    buffer.putLong(nanoOfDay).putInt(julianDay);
    return Binary.fromConstantByteArray(buffer.array());
  }

  /** The inverse of {@link #toInt96}, also right for the usual non-negative nanosecond of day. */
  private static Instant fromInt96(Binary binary) {
    ByteBuffer buffer = binary.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    long nanoOfDay = buffer.getLong();
    long julianDay = buffer.getInt();
    long seconds =
        (julianDay - JULIAN_EPOCH_DAY) * SECONDS_PER_DAY
            + Math.floorDiv(nanoOfDay, NANOS_PER_SECOND);
    return Instant.ofEpochSecond(seconds, Math.floorMod(nanoOfDay, NANOS_PER_SECOND));
  }

  /** The Parquet type of a column with this codec: required when the type is NOT NULL. */
  Type parquetType(String name, int id, boolean nullable) {
    Types.PrimitiveBuilder<PrimitiveType> builder =
        Types.primitive(physical, nullable ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED);
    if (logical != null) {
      builder.as(logical);
    }
    if (fixedLength > 0) {
      builder.length(fixedLength);
    }
    if (physical == PrimitiveTypeName.FLOAT || physical == PrimitiveTypeName.DOUBLE) {
      // Paimon's Parquet (1.15) writes, and only understands, the type-defined order. It is our
      // Parquet's default too, but named here because later Parquet versions order floats by
      // IEEE 754 total order unless told otherwise, and Paimon would distrust those statistics.
      builder.columnOrder(ColumnOrder.typeDefined());
    }
    return builder.id(id).named(name);
  }

  /** Writes a non-null value to a column of a flat file, at the column's definition level. */
  void write(ColumnWriter writer, Object value, int definitionLevel) {
    Object p = toPhysical.apply(value);
    switch (physical) {
      case BOOLEAN:
        writer.write((boolean) (Boolean) p, 0, definitionLevel);
        break;
      case INT32:
        writer.write((int) (Integer) p, 0, definitionLevel);
        break;
      case INT64:
        writer.write((long) (Long) p, 0, definitionLevel);
        break;
      case FLOAT:
        writer.write((float) (Float) p, 0, definitionLevel);
        break;
      case DOUBLE:
        writer.write((double) (Double) p, 0, definitionLevel);
        break;
      default:
        writer.write((Binary) p, 0, definitionLevel);
    }
  }

  /**
   * Writes column {@code column} of {@code row}, not null, to a column of a flat file: a BIGINT,
   * INT, SMALLINT, TINYINT, DOUBLE, FLOAT or BOOLEAN value through the row's unboxed getter
   * (nothing boxed when the row holds it unboxed), any other as {@link #write(ColumnWriter, Object,
   * int)} writes {@link ChangeRow#get}.
   *
   * @throws ClassCastException if the row's value is not of the column's Java class
   */
  void write(ColumnWriter writer, ChangeRow row, int column, int definitionLevel) {
    if (narrowInteger != null) {
      writer.write((int) ChangeRow.integral(row, column, narrowInteger), 0, definitionLevel);
      return;
    }
    if (unboxedType == null) {
      write(writer, row.get(column), definitionLevel);
      return;
    }
    switch (physical) {
      case BOOLEAN:
        writer.write(row.getBoolean(column), 0, definitionLevel);
        break;
      case INT32:
        writer.write(row.getInt(column), 0, definitionLevel);
        break;
      case INT64:
        writer.write(row.getLong(column), 0, definitionLevel);
        break;
      case FLOAT:
        writer.write(row.getFloat(column), 0, definitionLevel);
        break;
      default:
        writer.write(row.getDouble(column), 0, definitionLevel);
    }
  }

  /** Reads the current non-null value of a column reader, as our Java value. */
  Object read(ColumnReader reader) {
    Object p;
    switch (physical) {
      case BOOLEAN:
        p = reader.getBoolean();
        break;
      case INT32:
        p = reader.getInteger();
        break;
      case INT64:
        p = reader.getLong();
        break;
      case FLOAT:
        p = reader.getFloat();
        break;
      case DOUBLE:
        p = reader.getDouble();
        break;
      default:
        p = reader.getBinary();
    }
    return fromPhysical(p);
  }

  /**
   * The physical type a value of this column can be held as unboxed: INT64, INT32, DOUBLE, FLOAT or
   * BOOLEAN for BIGINT, INT, DOUBLE, FLOAT and BOOLEAN columns; null for a column whose Java value
   * is an object.
   */
  PrimitiveTypeName unboxedType() {
    return unboxedType;
  }

  /**
   * TINYINT or SMALLINT for a column of that type, stored as INT32 and held unboxed as an {@code
   * int} (its value, widened); null for any other column.
   */
  TypeRoot narrowInteger() {
    return narrowInteger;
  }

  /** Whether our Java value of a Parquet value is that value itself (numbers, booleans). */
  boolean keepsPhysical() {
    return fromPhysical == AS_STORED;
  }

  /** Our Java value of a Parquet physical value. */
  Object fromPhysical(Object physical) {
    return fromPhysical.apply(physical);
  }

  /**
   * Whether one Java value may stand for every row holding the same physical value: true but for
   * byte columns, whose values are arrays a reader's caller may change.
   */
  boolean sharesValues() {
    return !(physical == PrimitiveTypeName.BINARY && logical == null);
  }

  /**
   * The min/max/null count Paimon derives from a column's merged footer statistics, before its
   * stats mode applies: no min/max where Paimon keeps none (byte columns, INT96 timestamps).
   */
  ColumnStats stats(Statistics<?> statistics) {
    Long nullCount = statistics.isNumNullsSet() ? statistics.getNumNulls() : null;
    if (!statsHaveMinMax || !statistics.hasNonNullValue()) {
      return new ColumnStats(null, null, nullCount);
    }
    return new ColumnStats(
        fromPhysical.apply(statistics.genericGetMin()),
        fromPhysical.apply(statistics.genericGetMax()),
        nullCount);
  }
}
