package io.changelake.mergetree.merge;

import io.changelake.types.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The arithmetic of one numeric column type, as Paimon's sum and product aggregators compute it:
 * integers wrap around in their own width (a TINYINT sum is a TINYINT), floats use IEEE rules, and
 * decimals keep the column's scale and turn into null when the result overflows its precision. Sum
 * and product share it so that every numeric type behaves the same way in both.
 */
abstract class Arithmetic {

  abstract Object add(Object a, Object b);

  abstract Object subtract(Object a, Object b);

  abstract Object multiply(Object a, Object b);

  /**
   * @throws ArithmeticException on an integer or inexact decimal division by zero
   */
  abstract Object divide(Object a, Object b);

  abstract Object negate(Object a);

  /** The arithmetic of {@code type}, or null if it is no numeric type. */
  static Arithmetic of(DataType type) {
    switch (type.root()) {
      case TINYINT:
        return TINYINT;
      case SMALLINT:
        return SMALLINT;
      case INT:
        return INT;
      case BIGINT:
        return BIGINT;
      case FLOAT:
        return FLOAT;
      case DOUBLE:
        return DOUBLE;
      case DECIMAL:
        return new DecimalArithmetic(type.precision(), type.scale());
      default:
        return null;
    }
  }

  private static final Arithmetic TINYINT =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (byte) ((Byte) a + (Byte) b);
        }

        @Override
        Object subtract(Object a, Object b) {
          return (byte) ((Byte) a - (Byte) b);
        }

        @Override
        Object multiply(Object a, Object b) {
          return (byte) ((Byte) a * (Byte) b);
        }

        @Override
        Object divide(Object a, Object b) {
          return (byte) ((Byte) a / (Byte) b);
        }

        @Override
        Object negate(Object a) {
          return (byte) -(Byte) a;
        }
      };

  private static final Arithmetic SMALLINT =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (short) ((Short) a + (Short) b);
        }

        @Override
        Object subtract(Object a, Object b) {
          return (short) ((Short) a - (Short) b);
        }

        @Override
        Object multiply(Object a, Object b) {
          return (short) ((Short) a * (Short) b);
        }

        @Override
        Object divide(Object a, Object b) {
          return (short) ((Short) a / (Short) b);
        }

        @Override
        Object negate(Object a) {
          return (short) -(Short) a;
        }
      };

  private static final Arithmetic INT =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (Integer) a + (Integer) b;
        }

        @Override
        Object subtract(Object a, Object b) {
          return (Integer) a - (Integer) b;
        }

        @Override
        Object multiply(Object a, Object b) {
          return (Integer) a * (Integer) b;
        }

        @Override
        Object divide(Object a, Object b) {
          return (Integer) a / (Integer) b;
        }

        @Override
        Object negate(Object a) {
          return -(Integer) a;
        }
      };

  private static final Arithmetic BIGINT =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (Long) a + (Long) b;
        }

        @Override
        Object subtract(Object a, Object b) {
          return (Long) a - (Long) b;
        }

        @Override
        Object multiply(Object a, Object b) {
          return (Long) a * (Long) b;
        }

        @Override
        Object divide(Object a, Object b) {
          return (Long) a / (Long) b;
        }

        @Override
        Object negate(Object a) {
          return -(Long) a;
        }
      };

  private static final Arithmetic FLOAT =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (Float) a + (Float) b;
        }

        @Override
        Object subtract(Object a, Object b) {
          return (Float) a - (Float) b;
        }

        @Override
        Object multiply(Object a, Object b) {
          return (Float) a * (Float) b;
        }

        @Override
        Object divide(Object a, Object b) {
          return (Float) a / (Float) b;
        }

        @Override
        Object negate(Object a) {
          return -(Float) a;
        }
      };

  private static final Arithmetic DOUBLE =
      new Arithmetic() {
        @Override
        Object add(Object a, Object b) {
          return (Double) a + (Double) b;
        }

        @Override
        Object subtract(Object a, Object b) {
          return (Double) a - (Double) b;
        }

        @Override
        Object multiply(Object a, Object b) {
          return (Double) a * (Double) b;
        }

        @Override
        Object divide(Object a, Object b) {
          return (Double) a / (Double) b;
        }

        @Override
        Object negate(Object a) {
          return -(Double) a;
        }
      };

  /**
   * DECIMAL(p, s). Paimon adds and subtracts decimals of precision up to 18 on their unscaled longs
   * without a precision check, so a sum may carry more digits than p (it is stored as it is) and
   * turns null only when the long overflows; above 18 digits, and for products and quotients, a
   * result wider than p is null. Products and quotients round half up to the scale.
   */
  private static final class DecimalArithmetic extends Arithmetic {
    private static final int MAX_COMPACT_PRECISION = 18;

    private final int precision;
    private final int scale;

    DecimalArithmetic(int precision, int scale) {
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    Object add(Object a, Object b) {
      return fitSum(((BigDecimal) a).add((BigDecimal) b));
    }

    @Override
    Object subtract(Object a, Object b) {
      return fitSum(((BigDecimal) a).subtract((BigDecimal) b));
    }

    @Override
    Object multiply(Object a, Object b) {
      return fit(((BigDecimal) a).multiply((BigDecimal) b));
    }

    @Override
    Object divide(Object a, Object b) {
      return fit(((BigDecimal) a).divide((BigDecimal) b));
    }

    @Override
    Object negate(Object a) {
      return ((BigDecimal) a).negate();
    }

    private BigDecimal fitSum(BigDecimal sum) {
      if (precision <= MAX_COMPACT_PRECISION) {
        return sum.unscaledValue().bitLength() < Long.SIZE ? sum : null;
      }
      return fit(sum);
    }

    private BigDecimal fit(BigDecimal value) {
      BigDecimal scaled = value.setScale(scale, RoundingMode.HALF_UP);
      return scaled.precision() > precision ? null : scaled;
    }
  }
}
