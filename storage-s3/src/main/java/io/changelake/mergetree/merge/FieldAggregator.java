package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
import io.changelake.schema.TableOptions;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.util.TreeSet;

/**
 * Folds the values of one column across the versions of a key into the {@link MergedRow}: the
 * {@code fields.<f>.aggregate-function} of the aggregation engine, also used by partial-update for
 * the columns of a sequence group. Mirrors Paimon 1.3's {@code FieldAggregator} family one function
 * at a time; a null input leaves the row's value as it is unless the function says otherwise. A
 * version's value is read through its unboxed getter where the column has one, and the row holds it
 * unboxed ({@link MergedRow}).
 *
 * <p>An instance belongs to one merge function and one column: first_value and first_non_null_value
 * remember, until {@link #reset()}, whether they have taken their value.
 */
abstract class FieldAggregator {

  /** Name of Paimon's aggregator for primary-key columns: they keep the value of the record. */
  static final String PRIMARY_KEY = "primary-key";

  /** The column's name, for messages. */
  final String name;

  final String function;

  /** The column folded, in the row and in each version. */
  final int column;

  FieldAggregator(String name, String function, int column) {
    this.name = name;
    this.function = function;
    this.column = column;
  }

  /** Folds the version's value into the row's. */
  abstract void agg(MergedRow row, ChangeRow version);

  /**
   * Folds the value of a version older than the row's (partial-update, a version behind its
   * sequence group): Paimon's fold with the operands swapped, the version's value as the
   * accumulator and the row's as the input.
   */
  abstract void aggReversed(MergedRow row, ChangeRow version);

  /**
   * Retracts the version's value from the row's.
   *
   * @throws MergeException naming the column and the options that fix it, for a function that
   *     cannot undo
   */
  void retract(MergedRow row, ChangeRow version) {
    throw new MergeException(
        "column '"
            + name
            + "' (aggregate function '"
            + function
            + "') cannot take a retraction"
            + " (-U/-D): set 'fields."
            + name
            + ".ignore-retract' = 'true' to ignore retractions"
            + " for it, or 'aggregation.remove-record-on-delete' = 'true' to remove the row on -D,"
            + " or use a function that retracts (sum, product, last_value, last_non_null_value)");
  }

  /** Forgets the previous key. */
  void reset() {}

  /**
   * The aggregator Paimon's {@code FieldAggregatorFactory} builds for a column.
   *
   * @param function a name from {@link TableOptions#AGGREGATE_FUNCTIONS} or {@link #PRIMARY_KEY}
   * @throws IllegalArgumentException naming the column, option and fix when the function is
   *     unknown, does not fit the column type, or conflicts with another option
   */
  static FieldAggregator create(RowType rowType, int index, String function, TableOptions options) {
    String column = rowType.field(index).name();
    DataType type = rowType.type(index);
    boolean ignoreRetract = options.ignoreRetract(column);
    if (ignoreRetract && options.aggregationRemoveRecordOnDelete()) {
      throw new IllegalArgumentException(
          "table options 'aggregation.remove-record-on-delete' and 'fields."
              + column
              + ".ignore-retract' conflict: a -D cannot both remove the row and be ignored;"
              + " unset one of them");
    }
    FieldAggregator aggregator = forFunction(rowType, index, column, type, function, options);
    return ignoreRetract ? new IgnoreRetract(aggregator) : aggregator;
  }

  private static FieldAggregator forFunction(
      RowType rowType,
      int index,
      String column,
      DataType type,
      String function,
      TableOptions options) {
    switch (function) {
      case PRIMARY_KEY:
        return new PrimaryKey(column, index);
      case "sum":
        return new Sum(column, index, numeric(column, type, function));
      case "product":
        return new Product(column, index, numeric(column, type, function));
      case "min":
      case "max":
        if (type.root() == TypeRoot.BOOLEAN) {
          // Paimon accepts this and fails at the first comparison; fail before any write.
          throw typeMismatch(column, type, function, "a type with an order (not BOOLEAN)");
        }
        return new Extremum(column, function, index, new RowComparator(rowType));
      case "last_value":
        return new LastValue(column, function, index);
      case "last_non_null_value":
        return new LastNonNullValue(column, index);
      case "first_value":
        return new FirstValue(column, function, index, false);
      case "first_non_null_value":
      case "first_not_null_value":
        return new FirstValue(column, function, index, true);
      case "listagg":
        if (type.root() != TypeRoot.VARCHAR) {
          throw typeMismatch(column, type, function, "VARCHAR or STRING");
        }
        return new ListAgg(column, index, options.listAggDelimiter(column));
      case "bool_and":
      case "bool_or":
        if (type.root() != TypeRoot.BOOLEAN) {
          throw typeMismatch(column, type, function, "BOOLEAN");
        }
        return new BoolFold(column, function, index, function.equals("bool_and"));
      default:
        throw new IllegalArgumentException(
            "table option 'fields."
                + column
                + ".aggregate-function' (or"
                + " 'fields.default-aggregate-function') = '"
                + function
                + "' is no aggregate"
                + " function of Paimon 1.3 that changelake supports; use one of "
                + String.join(", ", new TreeSet<>(TableOptions.AGGREGATE_FUNCTIONS))
                + (function.equals("count")
                    ? " (for a count, write 1 in the column and use 'sum')"
                    : ""));
    }
  }

  private static Arithmetic numeric(String column, DataType type, String function) {
    Arithmetic arithmetic = Arithmetic.of(type);
    if (arithmetic == null) {
      throw typeMismatch(column, type, function, "a numeric type");
    }
    return arithmetic;
  }

  private static IllegalArgumentException typeMismatch(
      String column, DataType type, String function, String expected) {
    return new IllegalArgumentException(
        "aggregate function '"
            + function
            + "' of column '"
            + column
            + "' needs "
            + expected
            + ", but the column is "
            + type
            + ": change 'fields."
            + column
            + ".aggregate-function'");
  }

  /**
   * A function that leaves the row's value as it is for a null input and takes the first non-null
   * value as it is (Paimon's null handling of sum, product, min, max, listagg, bool_and and
   * bool_or): only two values fold.
   */
  private abstract static class NonNullFold extends FieldAggregator {
    NonNullFold(String name, String function, int column) {
      super(name, function, column);
    }

    /** Folds the version's value into the row's, neither null. */
    abstract void fold(MergedRow row, ChangeRow version);

    /** {@link #fold} with the version's value as the accumulator; the same where it commutes. */
    void foldReversed(MergedRow row, ChangeRow version) {
      fold(row, version);
    }

    @Override
    final void agg(MergedRow row, ChangeRow version) {
      if (version.isNullAt(column)) {
        return;
      }
      if (row.isNullAt(column)) {
        row.copyValue(column, version);
      } else {
        fold(row, version);
      }
    }

    @Override
    final void aggReversed(MergedRow row, ChangeRow version) {
      if (version.isNullAt(column)) {
        return;
      }
      if (row.isNullAt(column)) {
        row.copyValue(column, version);
      } else {
        foldReversed(row, version);
      }
    }
  }

  /** sum: adds; a retraction subtracts (from null: the negated input). */
  private static final class Sum extends NonNullFold {
    private final Arithmetic arithmetic;

    Sum(String name, int column, Arithmetic arithmetic) {
      super(name, "sum", column);
      this.arithmetic = arithmetic;
    }

    @Override
    void fold(MergedRow row, ChangeRow version) {
      arithmetic.add(row, column, version);
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {
      if (version.isNullAt(column)) {
        return;
      }
      if (row.isNullAt(column)) {
        arithmetic.negate(row, column, version);
      } else {
        arithmetic.subtract(row, column, version);
      }
    }
  }

  /** product: multiplies; a retraction divides (a null accumulator stays null). */
  private static final class Product extends NonNullFold {
    private final Arithmetic arithmetic;

    Product(String name, int column, Arithmetic arithmetic) {
      super(name, "product", column);
      this.arithmetic = arithmetic;
    }

    @Override
    void fold(MergedRow row, ChangeRow version) {
      arithmetic.multiply(row, column, version);
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {
      if (row.isNullAt(column) || version.isNullAt(column)) {
        return;
      }
      try {
        arithmetic.divide(row, column, version);
      } catch (ArithmeticException e) {
        throw new MergeException(
            "column '"
                + name
                + "' (aggregate function 'product') cannot retract "
                + version.get(column)
                + " from "
                + row.get(column)
                + ": "
                + e.getMessage()
                + "; set 'fields."
                + name
                + ".ignore-retract' = 'true' to ignore retractions for it");
      }
    }
  }

  /** min and max; on a tie min takes the input and max keeps the accumulator, as Paimon. */
  private static final class Extremum extends NonNullFold {
    private final RowComparator comparator;
    private final boolean max;

    Extremum(String name, String function, int column, RowComparator comparator) {
      super(name, function, column);
      this.comparator = comparator;
      this.max = function.equals("max");
    }

    @Override
    void fold(MergedRow row, ChangeRow version) {
      if (comparator.compareField(column, row, version) < 0 == max) {
        row.copyValue(column, version);
      }
    }

    @Override
    void foldReversed(MergedRow row, ChangeRow version) {
      // The version's value is the accumulator: it stays unless the function takes the row's.
      if (comparator.compareField(column, version, row) < 0 != max) {
        row.copyValue(column, version);
      }
    }
  }

  /** last_value: the newest value, null included; a retraction nulls it. */
  private static class LastValue extends FieldAggregator {
    LastValue(String name, String function, int column) {
      super(name, function, column);
    }

    @Override
    final void agg(MergedRow row, ChangeRow version) {
      row.copy(column, version);
    }

    @Override
    final void aggReversed(MergedRow row, ChangeRow version) {
      // The row's value is the newer: it stays.
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {
      row.setNull(column);
    }
  }

  /**
   * Primary-key columns: the key's value, whatever the function of other columns; it is the
   * version's, as last_value takes it, a retraction's included.
   */
  private static final class PrimaryKey extends LastValue {
    PrimaryKey(String name, int column) {
      super(name, PRIMARY_KEY, column);
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {
      row.copy(column, version);
    }
  }

  /** last_non_null_value: the newest non-null value; retracting a non-null value nulls it. */
  private static final class LastNonNullValue extends FieldAggregator {
    LastNonNullValue(String name, int column) {
      super(name, "last_non_null_value", column);
    }

    @Override
    void agg(MergedRow row, ChangeRow version) {
      if (!version.isNullAt(column)) {
        row.copyValue(column, version);
      }
    }

    @Override
    void aggReversed(MergedRow row, ChangeRow version) {
      if (row.isNullAt(column)) {
        row.copy(column, version);
      }
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {
      if (!version.isNullAt(column)) {
        row.setNull(column);
      }
    }
  }

  /**
   * first_value (the first value of the key, null included) and first_non_null_value (the first
   * non-null one). "First" is per merge: the first version added after {@link #reset()}.
   */
  private static final class FirstValue extends FieldAggregator {
    private final boolean skipNulls;
    private boolean taken;

    FirstValue(String name, String function, int column, boolean skipNulls) {
      super(name, function, column);
      this.skipNulls = skipNulls;
    }

    @Override
    void agg(MergedRow row, ChangeRow version) {
      if (taken || (skipNulls && version.isNullAt(column))) {
        return;
      }
      taken = true;
      row.copy(column, version);
    }

    @Override
    void aggReversed(MergedRow row, ChangeRow version) {
      // Paimon's fold with the version as accumulator: once a value is taken the accumulator
      // stays, so the older version's value wins; before, the row's value is taken.
      if (taken || (skipNulls && row.isNullAt(column))) {
        row.copy(column, version);
      } else {
        taken = true;
      }
    }

    @Override
    void reset() {
      taken = false;
    }
  }

  /** listagg: the values joined by {@code fields.<f>.list-agg-delimiter}, oldest first. */
  private static final class ListAgg extends NonNullFold {
    private final String delimiter;

    ListAgg(String name, int column, String delimiter) {
      super(name, "listagg", column);
      this.delimiter = delimiter;
    }

    @Override
    void fold(MergedRow row, ChangeRow version) {
      row.setObject(column, row.get(column) + delimiter + version.get(column));
    }

    @Override
    void foldReversed(MergedRow row, ChangeRow version) {
      row.setObject(column, version.get(column) + delimiter + row.get(column));
    }
  }

  /** bool_and and bool_or. */
  private static final class BoolFold extends NonNullFold {
    private final boolean and;

    BoolFold(String name, String function, int column, boolean and) {
      super(name, function, column);
      this.and = and;
    }

    @Override
    void fold(MergedRow row, ChangeRow version) {
      boolean a = row.getBoolean(column);
      boolean b = version.getBoolean(column);
      row.setBoolean(column, and ? a && b : a || b);
    }
  }

  /** {@code fields.<f>.ignore-retract}: a retraction leaves the row's value as it is. */
  private static final class IgnoreRetract extends FieldAggregator {
    private final FieldAggregator aggregator;

    IgnoreRetract(FieldAggregator aggregator) {
      super(aggregator.name, aggregator.function, aggregator.column);
      this.aggregator = aggregator;
    }

    @Override
    void agg(MergedRow row, ChangeRow version) {
      aggregator.agg(row, version);
    }

    @Override
    void aggReversed(MergedRow row, ChangeRow version) {
      aggregator.aggReversed(row, version);
    }

    @Override
    void retract(MergedRow row, ChangeRow version) {}

    @Override
    void reset() {
      aggregator.reset();
    }
  }
}
