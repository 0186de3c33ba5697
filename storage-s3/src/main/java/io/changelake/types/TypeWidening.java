package io.changelake.types;

/**
 * The type changes a column may go through without losing a value, and the conversion of a value
 * stored under the old type: TINYINT to SMALLINT to INT to BIGINT, FLOAT to DOUBLE, DECIMAL to a
 * larger precision at the same scale, CHAR and VARCHAR to a larger length, BINARY and VARBINARY to
 * a larger length. Nullability is not part of it: a column may only go from NOT NULL to nullable,
 * which needs no conversion.
 *
 * <p>An alter refuses every other change (a narrowing, a change of kind), since the table's older
 * files would then hold values the new type cannot represent.
 */
public final class TypeWidening {

  private TypeWidening() {}

  /** Whether a value of {@code from} always fits {@code to}, ignoring nullability. */
  public static boolean widens(DataType from, DataType to) {
    TypeRoot a = from.root();
    TypeRoot b = to.root();
    if (a == b) {
      return switch (a) {
        case DECIMAL -> to.scale() == from.scale() && to.precision() >= from.precision();
        case CHAR, VARCHAR, BINARY, VARBINARY -> to.length() >= from.length();
        case TIMESTAMP, TIMESTAMP_LTZ -> to.precision() == from.precision();
        default -> true;
      };
    }
    return (integralRank(a) >= 0 && integralRank(b) > integralRank(a))
        || (a == TypeRoot.FLOAT && b == TypeRoot.DOUBLE);
  }

  private static int integralRank(TypeRoot root) {
    return switch (root) {
      case TINYINT -> 0;
      case SMALLINT -> 1;
      case INT -> 2;
      case BIGINT -> 3;
      default -> -1;
    };
  }

  /**
   * Whether values stored as {@code from} need converting to be values of {@code to}: false when
   * both have the same Java class (a longer VARCHAR, a larger DECIMAL, NOT NULL to nullable).
   */
  public static boolean needsConversion(DataType from, DataType to) {
    return from.root() != to.root();
  }

  /**
   * A value stored under {@code from} as a value of {@code to}, which must {@link #widens widen}
   * it.
   */
  public static Object convert(Object value, DataType to) {
    if (value == null) {
      return null;
    }
    return switch (to.root()) {
      case SMALLINT -> ((Number) value).shortValue();
      case INT -> ((Number) value).intValue();
      case BIGINT -> ((Number) value).longValue();
      // Java's widening, as Paimon's numeric cast: 0.1f reads as 0.10000000149011612.
      case DOUBLE -> ((Number) value).doubleValue();
      default -> value;
    };
  }
}
