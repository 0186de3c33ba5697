package io.changelake.types;

/**
 * The kinds of column a changelake table holds, with the Java class a value of each kind has in
 * rows that cross the changelake API.
 *
 * <table>
 *   <caption>Types and their Java values</caption>
 *   <tr><th>type</th><th>Java value</th></tr>
 *   <tr><td>BOOLEAN</td><td>{@link Boolean}</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, BIGINT</td><td>{@link Byte}, {@link Short}, {@link Integer}, {@link Long}</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>{@link Float}, {@link Double}</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>{@link java.math.BigDecimal} with scale s</td></tr>
 *   <tr><td>CHAR(n), VARCHAR(n), STRING</td><td>{@link String}</td></tr>
 *   <tr><td>BINARY(n), VARBINARY(n), BYTES</td><td>{@code byte[]}</td></tr>
 *   <tr><td>DATE</td><td>{@link java.time.LocalDate}</td></tr>
 *   <tr><td>TIMESTAMP(p)</td><td>{@link java.time.LocalDateTime}</td></tr>
 *   <tr><td>TIMESTAMP(p) WITH LOCAL TIME ZONE</td><td>{@link java.time.Instant}</td></tr>
 * </table>
 *
 * <p>Null stands for SQL NULL in every type.
 */
public enum TypeRoot {
  BOOLEAN(Boolean.class),
  TINYINT(Byte.class),
  SMALLINT(Short.class),
  INT(Integer.class),
  BIGINT(Long.class),
  FLOAT(Float.class),
  DOUBLE(Double.class),
  DECIMAL(java.math.BigDecimal.class),
  CHAR(String.class),
  VARCHAR(String.class),
  BINARY(byte[].class),
  VARBINARY(byte[].class),
  DATE(java.time.LocalDate.class),
  TIMESTAMP(java.time.LocalDateTime.class),
  TIMESTAMP_LTZ(java.time.Instant.class);

  private final Class<?> javaClass;

  TypeRoot(Class<?> javaClass) {
    this.javaClass = javaClass;
  }

  /** The class of a non-null value of this type. */
  public Class<?> javaClass() {
    return javaClass;
  }

  /**
   * {@code value} as a value of this integer type (TINYINT to BIGINT): boxed as its {@link
   * #javaClass}, cut to the type's width.
   *
   * @throws IllegalStateException if this is not an integer type
   */
  public Object integral(long value) {
    return switch (this) {
      case BIGINT -> Long.valueOf(value);
      case INT -> Integer.valueOf((int) value);
      case SMALLINT -> Short.valueOf((short) value);
      case TINYINT -> Byte.valueOf((byte) value);
      default -> throw new IllegalStateException(this + " is not an integer type");
    };
  }
}
