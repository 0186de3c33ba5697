package io.changelake.mergetree.merge;

import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The arithmetic of one numeric column type, as Paimon's sum and product aggregators compute it:
 * integers wrap around in their own width (a TINYINT sum is a TINYINT), floats use IEEE rules, and
 * decimals keep the column's scale and turn into null when the result overflows its precision. Sum
 * and product share it so that every numeric type behaves the same way in both.
 *
 * <p>Each operation folds a version's value of a column into the {@link MergedRow}'s, neither of
 * them null: integers and floats unboxed, decimals as {@link BigDecimal}s.
 */
abstract class Arithmetic {

  /** The row's value plus the version's. */
  abstract void add(MergedRow row, int column, ChangeRow version);

  /** The row's value minus the version's. */
  abstract void subtract(MergedRow row, int column, ChangeRow version);

  /** The row's value times the version's. */
  abstract void multiply(MergedRow row, int column, ChangeRow version);

  /**
   * The row's value divided by the version's.
   *
   * @throws ArithmeticException on an integer or inexact decimal division by zero; the row is left
   *     as it was
   */
  abstract void divide(MergedRow row, int column, ChangeRow version);

  /** The version's value negated. */
  abstract void negate(MergedRow row, int column, ChangeRow version);

  /** The arithmetic of {@code type}, or null if it is no numeric type. */
  static Arithmetic of(DataType type) {
    return switch (type.root()) {
      case TINYINT -> new Integral(Byte.SIZE);
      case SMALLINT -> new Integral(Short.SIZE);
      case INT -> new Integral(Integer.SIZE);
      case BIGINT -> new Integral(Long.SIZE);
      case FLOAT -> new Floating(true);
      case DOUBLE -> new Floating(false);
      case DECIMAL -> new DecimalArithmetic(type.precision(), type.scale());
      default -> null;
    };
  }

  /**
   * TINYINT, SMALLINT, INT and BIGINT, computed on longs and cut to the column's width: the low
   * bits of a sum, difference or product do not depend on the width it was computed in, and a
   * quotient of two values of the width fits a long (the one overflow, the smallest value over -1,
   * wraps to itself when cut, as in its own width).
   */
  private static final class Integral extends Arithmetic {
    private final int bits;

    Integral(int bits) {
      this.bits = bits;
    }

    @Override
    void add(MergedRow row, int column, ChangeRow version) {
      row.setIntegral(column, cut(row.integral(column) + row.integralOf(version, column)));
    }

    @Override
    void subtract(MergedRow row, int column, ChangeRow version) {
      row.setIntegral(column, cut(row.integral(column) - row.integralOf(version, column)));
    }

    @Override
    void multiply(MergedRow row, int column, ChangeRow version) {
      row.setIntegral(column, cut(row.integral(column) * row.integralOf(version, column)));
    }

    @Override
    void divide(MergedRow row, int column, ChangeRow version) {
      row.setIntegral(column, cut(row.integral(column) / row.integralOf(version, column)));
    }

    @Override
    void negate(MergedRow row, int column, ChangeRow version) {
      row.setIntegral(column, cut(-row.integralOf(version, column)));
    }

    private long cut(long value) {
      return bits == Long.SIZE ? value : (value << (Long.SIZE - bits)) >> (Long.SIZE - bits);
    }
  }

  /**
   * FLOAT and DOUBLE, computed on doubles; a FLOAT result is rounded to a float after each
   * operation, which gives the float operation's own result (a double carries more than twice a
   * float's digits, so rounding twice cannot differ from rounding once).
   */
  private static final class Floating extends Arithmetic {
    private final boolean isFloat;

    Floating(boolean isFloat) {
      this.isFloat = isFloat;
    }

    @Override
    void add(MergedRow row, int column, ChangeRow version) {
      row.setFloating(column, round(row.floating(column) + row.floatingOf(version, column)));
    }

    @Override
    void subtract(MergedRow row, int column, ChangeRow version) {
      row.setFloating(column, round(row.floating(column) - row.floatingOf(version, column)));
    }

    @Override
    void multiply(MergedRow row, int column, ChangeRow version) {
      row.setFloating(column, round(row.floating(column) * row.floatingOf(version, column)));
    }

    @Override
    void divide(MergedRow row, int column, ChangeRow version) {
      row.setFloating(column, round(row.floating(column) / row.floatingOf(version, column)));
    }

    @Override
    void negate(MergedRow row, int column, ChangeRow version) {
      row.setFloating(column, -row.floatingOf(version, column));
    }

    private double round(double value) {
      return isFloat ? (float) value : value;
    }
  }

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
    void add(MergedRow row, int column, ChangeRow version) {
      row.setObject(column, fitSum(decimal(row, column).add(decimal(version, column))));
    }

    @Override
    void subtract(MergedRow row, int column, ChangeRow version) {
      row.setObject(column, fitSum(decimal(row, column).subtract(decimal(version, column))));
    }

    @Override
    void multiply(MergedRow row, int column, ChangeRow version) {
      row.setObject(column, fit(decimal(row, column).multiply(decimal(version, column))));
    }

    @Override
    void divide(MergedRow row, int column, ChangeRow version) {
      row.setObject(column, fit(decimal(row, column).divide(decimal(version, column))));
    }

    @Override
    void negate(MergedRow row, int column, ChangeRow version) {
      row.setObject(column, decimal(version, column).negate());
    }

    private static BigDecimal decimal(ChangeRow row, int column) {
      return (BigDecimal) row.get(column);
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
