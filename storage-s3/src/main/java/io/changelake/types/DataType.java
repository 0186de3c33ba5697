package io.changelake.types;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A column type with its nullability, printed and parsed in Apache Paimon's schema-file form
 * ({@code BIGINT NOT NULL}, {@code DECIMAL(10, 2)}, {@code STRING}, {@code TIMESTAMP(6)}).
 *
 * <p>Length applies to CHAR, VARCHAR, BINARY and VARBINARY ({@link #MAX_LENGTH} for STRING and
 * BYTES); precision and scale to DECIMAL; precision alone to the timestamps (0 to 9). See {@link
 * TypeRoot} for the Java class of each type's values.
 */
public final class DataType {

  /** The length of STRING and BYTES: VARCHAR and VARBINARY of this length print as those names. */
  public static final int MAX_LENGTH = Integer.MAX_VALUE;

  private static final Pattern FORM =
      Pattern.compile(
          "\\s*([A-Z_]+(?:\\s+[A-Z_]+)*?)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?"
              + "(\\s+WITH\\s+LOCAL\\s+TIME\\s+ZONE|\\s+WITHOUT\\s+TIME\\s+ZONE)?"
              + "(\\s+NOT\\s+NULL|\\s+NULL)?\\s*");

  private final TypeRoot root;
  private final boolean nullable;
  private final int length;
  private final int precision;
  private final int scale;

  private DataType(TypeRoot root, boolean nullable, int length, int precision, int scale) {
    this.root = root;
    this.nullable = nullable;
    this.length = length;
    this.precision = precision;
    this.scale = scale;
  }

  public static DataType booleanType() {
    return new DataType(TypeRoot.BOOLEAN, true, 0, 0, 0);
  }

  public static DataType tinyint() {
    return new DataType(TypeRoot.TINYINT, true, 0, 0, 0);
  }

  public static DataType smallint() {
    return new DataType(TypeRoot.SMALLINT, true, 0, 0, 0);
  }

  public static DataType intType() {
    return new DataType(TypeRoot.INT, true, 0, 0, 0);
  }

  public static DataType bigint() {
    return new DataType(TypeRoot.BIGINT, true, 0, 0, 0);
  }

  public static DataType floatType() {
    return new DataType(TypeRoot.FLOAT, true, 0, 0, 0);
  }

  public static DataType doubleType() {
    return new DataType(TypeRoot.DOUBLE, true, 0, 0, 0);
  }

  /** DECIMAL(precision, scale), precision 1 to 38, scale 0 to precision. */
  public static DataType decimal(int precision, int scale) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
      throw new IllegalArgumentException(
          "DECIMAL("
              + precision
              + ", "
              + scale
              + ") is not a valid type: precision must be 1 to 38"
              + " and scale 0 to the precision");
    }
    return new DataType(TypeRoot.DECIMAL, true, 0, precision, scale);
  }

  public static DataType charType(int length) {
    return new DataType(TypeRoot.CHAR, true, checkLength(length), 0, 0);
  }

  public static DataType varchar(int length) {
    return new DataType(TypeRoot.VARCHAR, true, checkLength(length), 0, 0);
  }

  /** VARCHAR of {@link #MAX_LENGTH}. */
  public static DataType string() {
    return varchar(MAX_LENGTH);
  }

  public static DataType binary(int length) {
    return new DataType(TypeRoot.BINARY, true, checkLength(length), 0, 0);
  }

  public static DataType varbinary(int length) {
    return new DataType(TypeRoot.VARBINARY, true, checkLength(length), 0, 0);
  }

  /** VARBINARY of {@link #MAX_LENGTH}. */
  public static DataType bytes() {
    return varbinary(MAX_LENGTH);
  }

  public static DataType date() {
    return new DataType(TypeRoot.DATE, true, 0, 0, 0);
  }

  /** TIMESTAMP(precision), precision 0 (seconds) to 9 (nanoseconds). */
  public static DataType timestamp(int precision) {
    return new DataType(TypeRoot.TIMESTAMP, true, 0, checkTimestampPrecision(precision), 0);
  }

  /** TIMESTAMP(precision) WITH LOCAL TIME ZONE, precision 0 to 9. */
  public static DataType timestampLtz(int precision) {
    return new DataType(TypeRoot.TIMESTAMP_LTZ, true, 0, checkTimestampPrecision(precision), 0);
  }

  private static int checkLength(int length) {
    if (length < 1) {
      throw new IllegalArgumentException("a length must be at least 1, got " + length);
    }
    return length;
  }

  private static int checkTimestampPrecision(int precision) {
    if (precision < 0 || precision > 9) {
      throw new IllegalArgumentException("a timestamp precision must be 0 to 9, got " + precision);
    }
    return precision;
  }

  /** The same type, without NULL. */
  public DataType notNull() {
    return new DataType(root, false, length, precision, scale);
  }

  /** The same type, nullable or not. */
  public DataType withNullable(boolean isNullable) {
    return new DataType(root, isNullable, length, precision, scale);
  }

  public TypeRoot root() {
    return root;
  }

  public boolean nullable() {
    return nullable;
  }

  /** Length of CHAR, VARCHAR, BINARY, VARBINARY; 0 for others. */
  public int length() {
    return length;
  }

  /** Precision of DECIMAL and the timestamps; 0 for others. */
  public int precision() {
    return precision;
  }

  /** Scale of DECIMAL; 0 for others. */
  public int scale() {
    return scale;
  }

  /**
   * Parses Paimon's form, as in schema files: {@code INT}, {@code BIGINT NOT NULL}, {@code
   * DECIMAL(10, 2)}, {@code STRING}, {@code VARCHAR(20)}, {@code BYTES}, {@code TIMESTAMP(3)},
   * {@code TIMESTAMP(6) WITH LOCAL TIME ZONE}. Like Paimon's parser it also takes the aliases
   * {@code INTEGER}, {@code NUMERIC}, {@code DEC}, {@code DOUBLE PRECISION}, {@code
   * TIMESTAMP_LTZ(p)}, {@code TIMESTAMP(p) WITHOUT TIME ZONE}, a trailing {@code NULL}, and the
   * defaults it fills in when a length or precision is left out (length 1, DECIMAL(10, 0),
   * TIMESTAMP(6)).
   *
   * @throws IllegalArgumentException naming the text if it is no type changelake supports
   */
  public static DataType parse(String text) {
    Matcher m = FORM.matcher(text.toUpperCase(Locale.ROOT));
    if (!m.matches()) {
      throw unsupported(text);
    }
    String name = m.group(1).replaceAll("\\s+", " ");
    Integer first = m.group(2) == null ? null : Integer.valueOf(m.group(2));
    Integer second = m.group(3) == null ? null : Integer.valueOf(m.group(3));
    String zone = m.group(4) == null ? null : m.group(4).trim().replaceAll("\\s+", " ");
    boolean notNull = m.group(5) != null && m.group(5).contains("NOT");
    DataType type = fromName(text, name, first, second, zone);
    return notNull ? type.notNull() : type;
  }

  private static DataType fromName(
      String text, String name, Integer first, Integer second, String zone) {
    if (zone != null && !name.equals("TIMESTAMP")) {
      throw unsupported(text);
    }
    switch (name) {
      case "BOOLEAN":
        return booleanType();
      case "TINYINT":
        return tinyint();
      case "SMALLINT":
        return smallint();
      case "INT":
      case "INTEGER":
        return intType();
      case "BIGINT":
        return bigint();
      case "FLOAT":
        return floatType();
      case "DOUBLE":
      case "DOUBLE PRECISION":
        return doubleType();
      case "DECIMAL":
      case "NUMERIC":
      case "DEC":
        return decimal(first == null ? 10 : first, second == null ? 0 : second);
      case "CHAR":
        return charType(first == null ? 1 : first);
      case "VARCHAR":
        return varchar(first == null ? 1 : first);
      case "STRING":
        return string();
      case "BINARY":
        return binary(first == null ? 1 : first);
      case "VARBINARY":
        return varbinary(first == null ? 1 : first);
      case "BYTES":
        return bytes();
      case "DATE":
        return date();
      case "TIMESTAMP":
        int p = first == null ? 6 : first;
        return "WITH LOCAL TIME ZONE".equals(zone) ? timestampLtz(p) : timestamp(p);
      case "TIMESTAMP_LTZ":
        return timestampLtz(first == null ? 6 : first);
      default:
        throw unsupported(text);
    }
  }

  private static IllegalArgumentException unsupported(String text) {
    return new IllegalArgumentException("'" + text + "' is not a data type changelake supports");
  }

  /** Paimon's form, the inverse of {@link #parse}. */
  @Override
  public String toString() {
    String base;
    switch (root) {
      case DECIMAL:
        base = "DECIMAL(" + precision + ", " + scale + ")";
        break;
      case CHAR:
        base = "CHAR(" + length + ")";
        break;
      case VARCHAR:
        base = length == MAX_LENGTH ? "STRING" : "VARCHAR(" + length + ")";
        break;
      case BINARY:
        base = "BINARY(" + length + ")";
        break;
      case VARBINARY:
        base = length == MAX_LENGTH ? "BYTES" : "VARBINARY(" + length + ")";
        break;
      case TIMESTAMP:
        base = "TIMESTAMP(" + precision + ")";
        break;
      case TIMESTAMP_LTZ:
        base = "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE";
        break;
      default:
        base = root.name();
    }
    return nullable ? base : base + " NOT NULL";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DataType t)) {
      return false;
    }
    return root == t.root
        && nullable == t.nullable
        && length == t.length
        && precision == t.precision
        && scale == t.scale;
  }

  @Override
  public int hashCode() {
    return Objects.hash(root, nullable, length, precision, scale);
  }
}
