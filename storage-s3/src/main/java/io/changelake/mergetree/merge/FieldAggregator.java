package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
import io.changelake.schema.TableOptions;
import io.changelake.types.DataType;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.util.TreeSet;

/**
 * Folds the values of one column across the versions of a key: the {@code
 * fields.<f>.aggregate-function} of the aggregation engine, also used by partial-update for the
 * columns of a sequence group. Mirrors Paimon 1.3's {@code FieldAggregator} family one function at
 * a time; a null input leaves the accumulator as it is unless the function says otherwise.
 *
 * <p>An instance belongs to one merge function: first_value and first_non_null_value remember,
 * until {@link #reset()}, whether they have taken their value.
 */
abstract class FieldAggregator {

  /** Name of Paimon's aggregator for primary-key columns: they keep the value of the record. */
  static final String PRIMARY_KEY = "primary-key";

  final String column;
  final String function;

  FieldAggregator(String column, String function) {
    this.column = column;
    this.function = function;
  }

  /** The accumulator after adding {@code input}. */
  abstract Object agg(Object accumulator, Object input);

  /**
   * The accumulator after adding {@code input} that is older than it (partial-update, a version
   * behind its sequence group): the fold with the operands swapped.
   */
  Object aggReversed(Object accumulator, Object input) {
    return agg(input, accumulator);
  }

  /**
   * The accumulator after retracting {@code input}.
   *
   * @throws MergeException naming the column and the options that fix it, for a function that
   *     cannot undo
   */
  Object retract(Object accumulator, Object input) {
    throw new MergeException(
        "column '"
            + column
            + "' (aggregate function '"
            + function
            + "') cannot take a retraction"
            + " (-U/-D): set 'fields."
            + column
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
        return new PrimaryKey(column);
      case "sum":
        return new Sum(column, numeric(column, type, function));
      case "product":
        return new Product(column, numeric(column, type, function));
      case "min":
      case "max":
        if (type.root() == TypeRoot.BOOLEAN) {
          // Paimon accepts this and fails at the first comparison; fail before any write.
          throw typeMismatch(column, type, function, "a type with an order (not BOOLEAN)");
        }
        return new Extremum(column, function, new RowComparator(rowType), index);
      case "last_value":
        return new LastValue(column);
      case "last_non_null_value":
        return new LastNonNullValue(column);
      case "first_value":
        return new FirstValue(column, function, false);
      case "first_non_null_value":
      case "first_not_null_value":
        return new FirstValue(column, function, true);
      case "listagg":
        if (type.root() != TypeRoot.VARCHAR) {
          throw typeMismatch(column, type, function, "VARCHAR or STRING");
        }
        return new ListAgg(column, options.listAggDelimiter(column));
      case "bool_and":
      case "bool_or":
        if (type.root() != TypeRoot.BOOLEAN) {
          throw typeMismatch(column, type, function, "BOOLEAN");
        }
        return new BoolFold(column, function, function.equals("bool_and"));
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

  /** Primary-key columns: the key's value, whatever the function of other columns. */
  private static final class PrimaryKey extends FieldAggregator {
    PrimaryKey(String column) {
      super(column, PRIMARY_KEY);
    }

    @Override
    Object agg(Object accumulator, Object input) {
      return input;
    }

    @Override
    Object retract(Object accumulator, Object input) {
      return input;
    }
  }

  /** sum: adds; a retraction subtracts (from null: the negated input). */
  private static final class Sum extends FieldAggregator {
    private final Arithmetic arithmetic;

    Sum(String column, Arithmetic arithmetic) {
      super(column, "sum");
      this.arithmetic = arithmetic;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null ? input : accumulator;
      }
      return arithmetic.add(accumulator, input);
    }

    @Override
    Object retract(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null && input != null ? arithmetic.negate(input) : accumulator;
      }
      return arithmetic.subtract(accumulator, input);
    }
  }

  /** product: multiplies; a retraction divides (a null accumulator stays null). */
  private static final class Product extends FieldAggregator {
    private final Arithmetic arithmetic;

    Product(String column, Arithmetic arithmetic) {
      super(column, "product");
      this.arithmetic = arithmetic;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null ? input : accumulator;
      }
      return arithmetic.multiply(accumulator, input);
    }

    @Override
    Object retract(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator;
      }
      try {
        return arithmetic.divide(accumulator, input);
      } catch (ArithmeticException e) {
        throw new MergeException(
            "column '"
                + column
                + "' (aggregate function 'product') cannot retract "
                + input
                + " from "
                + accumulator
                + ": "
                + e.getMessage()
                + "; set 'fields."
                + column
                + ".ignore-retract' = 'true' to ignore retractions for it");
      }
    }
  }

  /** min and max; on a tie min takes the input and max keeps the accumulator, as Paimon. */
  private static final class Extremum extends FieldAggregator {
    private final RowComparator comparator;
    private final int index;
    private final boolean max;

    Extremum(String column, String function, RowComparator comparator, int index) {
      super(column, function);
      this.comparator = comparator;
      this.index = index;
      this.max = function.equals("max");
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null ? input : accumulator;
      }
      boolean accumulatorSmaller = comparator.compareField(index, accumulator, input) < 0;
      return accumulatorSmaller == max ? input : accumulator;
    }
  }

  /** last_value: the newest value, null included; a retraction nulls it. */
  private static final class LastValue extends FieldAggregator {
    LastValue(String column) {
      super(column, "last_value");
    }

    @Override
    Object agg(Object accumulator, Object input) {
      return input;
    }

    @Override
    Object retract(Object accumulator, Object input) {
      return null;
    }
  }

  /** last_non_null_value: the newest non-null value; retracting a non-null value nulls it. */
  private static final class LastNonNullValue extends FieldAggregator {
    LastNonNullValue(String column) {
      super(column, "last_non_null_value");
    }

    @Override
    Object agg(Object accumulator, Object input) {
      return input == null ? accumulator : input;
    }

    @Override
    Object retract(Object accumulator, Object input) {
      return input != null ? null : accumulator;
    }
  }

  /**
   * first_value (the first value of the key, null included) and first_non_null_value (the first
   * non-null one). "First" is per merge: the first version added after {@link #reset()}.
   */
  private static final class FirstValue extends FieldAggregator {
    private final boolean skipNulls;
    private boolean taken;

    FirstValue(String column, String function, boolean skipNulls) {
      super(column, function);
      this.skipNulls = skipNulls;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (taken || (skipNulls && input == null)) {
        return accumulator;
      }
      taken = true;
      return input;
    }

    @Override
    void reset() {
      taken = false;
    }
  }

  /** listagg: the values joined by {@code fields.<f>.list-agg-delimiter}, oldest first. */
  private static final class ListAgg extends FieldAggregator {
    private final String delimiter;

    ListAgg(String column, String delimiter) {
      super(column, "listagg");
      this.delimiter = delimiter;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null ? input : accumulator;
      }
      return (String) accumulator + delimiter + (String) input;
    }
  }

  /** bool_and and bool_or. */
  private static final class BoolFold extends FieldAggregator {
    private final boolean and;

    BoolFold(String column, String function, boolean and) {
      super(column, function);
      this.and = and;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      if (accumulator == null || input == null) {
        return accumulator == null ? input : accumulator;
      }
      return and
          ? (Boolean) accumulator && (Boolean) input
          : (Boolean) accumulator || (Boolean) input;
    }
  }

  /** {@code fields.<f>.ignore-retract}: a retraction leaves the accumulator as it is. */
  private static final class IgnoreRetract extends FieldAggregator {
    private final FieldAggregator aggregator;

    IgnoreRetract(FieldAggregator aggregator) {
      super(aggregator.column, aggregator.function);
      this.aggregator = aggregator;
    }

    @Override
    Object agg(Object accumulator, Object input) {
      return aggregator.agg(accumulator, input);
    }

    @Override
    Object retract(Object accumulator, Object input) {
      return accumulator;
    }

    @Override
    void reset() {
      aggregator.reset();
    }
  }
}
