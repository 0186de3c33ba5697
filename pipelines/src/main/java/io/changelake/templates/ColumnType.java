package io.changelake.templates;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.FixedPrecisionNumeric;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;

/**
 * A column type a template can declare in {@code --columns} (or read from an event's schema
 * envelope), with its Beam field type and the JSON values a Debezium event may carry for it. A JSON
 * value of another shape is a wrong type, which sends its event to the dead letters.
 *
 * <table>
 *   <caption>Types and the Debezium values they take</caption>
 *   <tr><th>type</th><th>table column</th><th>JSON values</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td><td>true, false</td></tr>
 *   <tr><td>INT, BIGINT</td><td>INT, BIGINT</td><td>whole numbers in range</td></tr>
 *   <tr><td>DOUBLE</td><td>DOUBLE</td><td>numbers</td></tr>
 *   <tr><td>STRING</td><td>STRING</td><td>strings</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>DECIMAL(p, s)</td><td>{@code decimal.handling.mode}
 *       precise: base64 of the unscaled two's-complement bytes (scale s); string: "12.34";
 *       double: a number; and Debezium's variable-scale {@code {"scale": s, "value":
 *       base64}}. A value that needs rounding to scale s or has more than p digits is a wrong
 *       type. Without a schema envelope a string that reads as a number is taken as one, any other
 *       as base64</td></tr>
 *   <tr><td>DATE</td><td>DATE</td><td>days since 1970-01-01 ({@code io.debezium.time.Date}) or
 *       "2026-12-01"</td></tr>
 *   <tr><td>TIME</td><td>BIGINT, microseconds since midnight (the table has no TIME type)</td>
 *       <td>milliseconds ({@code io.debezium.time.Time}, the default, an INT), microseconds
 *       ({@code MicroTime}) or nanoseconds ({@code NanoTime}) as the envelope names them, else in
 *       {@code --timeUnit}; or "13:45:00.5"</td></tr>
 *   <tr><td>TIMESTAMP</td><td>TIMESTAMP(9), no zone</td><td>epoch milli ({@code Timestamp}),
 *       micro ({@code MicroTimestamp}) or nano ({@code NanoTimestamp}) seconds, likewise; or
 *       "2026-12-01T13:45:00"</td></tr>
 *   <tr><td>TIMESTAMP_LTZ</td><td>TIMESTAMP(6) WITH LOCAL TIME ZONE</td><td>ISO strings with an
 *       offset ({@code io.debezium.time.ZonedTimestamp}), or epoch numbers as for TIMESTAMP</td></tr>
 *   <tr><td>BYTES</td><td>BYTES</td><td>base64 ({@code binary.handling.mode=bytes}, the JSON
 *       converter's form)</td></tr>
 * </table>
 */
final class ColumnType implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The kinds of column. */
  enum Kind {
    BOOLEAN,
    INT,
    BIGINT,
    DOUBLE,
    STRING,
    DECIMAL,
    DATE,
    TIME,
    TIMESTAMP,
    TIMESTAMP_LTZ,
    BYTES
  }

  /** Epoch units of Debezium's time types. */
  enum Unit {
    MILLIS(1_000_000L),
    MICROS(1_000L),
    NANOS(1L);

    final long nanos;

    Unit(long nanos) {
      this.nanos = nanos;
    }
  }

  private static final Pattern DECIMAL_SPEC =
      Pattern.compile(
          "DECIMAL\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)|NUMERIC\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");

  static final String NAMES =
      "BOOLEAN, INT, BIGINT, DOUBLE, STRING, DECIMAL(p,s), DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, BYTES";

  private final Kind kind;
  private final int precision;
  private final int scale;

  private ColumnType(Kind kind, int precision, int scale) {
    this.kind = kind;
    this.precision = precision;
    this.scale = scale;
  }

  static ColumnType of(Kind kind) {
    return new ColumnType(kind, 0, 0);
  }

  static ColumnType decimal(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale > precision) {
      throw new IllegalArgumentException(
          "DECIMAL(" + precision + "," + scale + "): precision 1 to 38, scale at most precision");
    }
    return new ColumnType(Kind.DECIMAL, precision, scale);
  }

  Kind kind() {
    return kind;
  }

  /**
   * The type named {@code name}, case-insensitive; aliases INTEGER (INT), VARCHAR (STRING),
   * NUMERIC(p,s) (DECIMAL).
   */
  static ColumnType named(String name) {
    String upper = name.trim().toUpperCase(Locale.ROOT);
    Matcher decimal = DECIMAL_SPEC.matcher(upper);
    if (decimal.matches()) {
      boolean first = decimal.group(1) != null;
      return decimal(
          Integer.parseInt(decimal.group(first ? 1 : 3)),
          Integer.parseInt(decimal.group(first ? 2 : 4)));
    }
    switch (upper) {
      case "INTEGER":
        return of(Kind.INT);
      case "VARCHAR":
        return of(Kind.STRING);
      default:
        for (Kind k : Kind.values()) {
          if (k.name().equals(upper) && k != Kind.DECIMAL) {
            return of(k);
          }
        }
        throw new IllegalArgumentException("unknown column type '" + name + "': use " + NAMES);
    }
  }

  FieldType fieldType() {
    switch (kind) {
      case BOOLEAN:
        return FieldType.BOOLEAN;
      case INT:
        return FieldType.INT32;
      case BIGINT:
      case TIME:
        return FieldType.INT64;
      case DOUBLE:
        return FieldType.DOUBLE;
      case STRING:
        return FieldType.STRING;
      case DECIMAL:
        return FieldType.logicalType(FixedPrecisionNumeric.of(precision, scale));
      case DATE:
        return FieldType.logicalType(SqlTypes.DATE);
      case TIMESTAMP:
        return FieldType.logicalType(SqlTypes.DATETIME);
      case TIMESTAMP_LTZ:
        return FieldType.logicalType(SqlTypes.TIMESTAMP);
      case BYTES:
        return FieldType.BYTES;
    }
    throw new AssertionError(kind);
  }

  /**
   * The Java value of a JSON value for this type.
   *
   * @param schemaName the Debezium/Connect logical name of the field from the envelope ({@code
   *     io.debezium.time.MicroTimestamp}, ...), or null without one
   * @param unit the epoch unit to assume for TIME and TIMESTAMP numbers without a schema name
   * @throws IllegalArgumentException naming the expected shape, if the value does not fit
   */
  Object fromJson(JsonNode value, String schemaName, Unit unit) {
    try {
      Object converted = convert(value, schemaName, unit);
      if (converted != null) {
        return converted;
      }
    } catch (ArithmeticException | DateTimeParseException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected " + this + ", found " + value + ": " + e.getMessage());
    }
    throw new IllegalArgumentException("expected " + this + ", found " + value);
  }

  private Object convert(JsonNode value, String schemaName, Unit unit) {
    switch (kind) {
      case BOOLEAN:
        return value.isBoolean() ? value.booleanValue() : null;
      case INT:
        return value.isIntegralNumber() && value.canConvertToInt() ? value.intValue() : null;
      case BIGINT:
        return value.isIntegralNumber() && value.canConvertToLong() ? value.longValue() : null;
      case DOUBLE:
        return value.isNumber() ? value.doubleValue() : null;
      case STRING:
        return value.isTextual() ? value.textValue() : null;
      case DECIMAL:
        return decimalOf(value, schemaName);
      case DATE:
        if (value.isIntegralNumber()) {
          return LocalDate.ofEpochDay(value.longValue());
        }
        return value.isTextual() ? LocalDate.parse(value.textValue()) : null;
      case TIME:
        if (value.isIntegralNumber()) {
          return value.longValue() * unitOf(schemaName, unit).nanos / 1_000L;
        }
        return value.isTextual() ? LocalTime.parse(value.textValue()).toNanoOfDay() / 1_000L : null;
      case TIMESTAMP:
        if (value.isIntegralNumber()) {
          return LocalDateTime.ofInstant(
              instant(value.longValue(), unitOf(schemaName, unit)), ZoneOffset.UTC);
        }
        return value.isTextual() ? LocalDateTime.parse(value.textValue().replace(' ', 'T')) : null;
      case TIMESTAMP_LTZ:
        if (value.isIntegralNumber()) {
          return instant(value.longValue(), unitOf(schemaName, unit));
        }
        return value.isTextual() ? OffsetDateTime.parse(value.textValue()).toInstant() : null;
      case BYTES:
        if (!value.isTextual()) {
          return null;
        }
        return Base64.getDecoder().decode(value.textValue());
    }
    throw new AssertionError(kind);
  }

  private BigDecimal decimalOf(JsonNode value, String schemaName) {
    BigDecimal decimal;
    if (value.isObject() && value.has("scale") && value.has("value")) {
      decimal =
          new BigDecimal(
              new BigInteger(Base64.getDecoder().decode(value.get("value").asText())),
              value.get("scale").asInt());
    } else if (value.isNumber()) {
      decimal = value.decimalValue();
    } else if (!value.isTextual()) {
      return null;
    } else if ("org.apache.kafka.connect.data.Decimal".equals(schemaName)) {
      decimal =
          new BigDecimal(new BigInteger(Base64.getDecoder().decode(value.textValue())), scale);
    } else if (schemaName == null
        && !value.textValue().matches("[-+]?\\d*\\.?\\d+([eE][-+]?\\d+)?")) {
      decimal =
          new BigDecimal(new BigInteger(Base64.getDecoder().decode(value.textValue())), scale);
    } else {
      decimal = new BigDecimal(value.textValue());
    }
    BigDecimal scaled = decimal.setScale(scale, RoundingMode.UNNECESSARY);
    if (scaled.precision() > precision) {
      throw new IllegalArgumentException("more than " + precision + " digits");
    }
    return scaled;
  }

  private static Unit unitOf(String schemaName, Unit unit) {
    if (schemaName == null) {
      return unit;
    }
    if (schemaName.startsWith("io.debezium.time.Micro")) {
      return Unit.MICROS;
    }
    if (schemaName.startsWith("io.debezium.time.Nano")) {
      return Unit.NANOS;
    }
    if (schemaName.startsWith("io.debezium.time.")
        || schemaName.startsWith("org.apache.kafka.connect.data.")) {
      return Unit.MILLIS;
    }
    return unit;
  }

  private static Instant instant(long value, Unit unit) {
    long perSecond = 1_000_000_000L / unit.nanos;
    return Instant.ofEpochSecond(
        Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * unit.nanos);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ColumnType t
        && t.kind == kind
        && t.precision == precision
        && t.scale == scale;
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 * 31 + precision * 31 + scale;
  }

  @Override
  public String toString() {
    return kind == Kind.DECIMAL ? "DECIMAL(" + precision + "," + scale + ")" : kind.name();
  }
}
