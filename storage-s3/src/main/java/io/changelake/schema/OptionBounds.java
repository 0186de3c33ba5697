package io.changelake.schema;

import java.util.List;
import java.util.TreeSet;

/**
 * What a parsed option value must be beyond its form: a range, one of a few words, or the one value
 * changelake implements. A failed check throws {@link IllegalArgumentException} saying what the
 * value must be and what it is; {@link OptionRules#check} adds the option's name.
 *
 * @param <T> the parsed value
 */
@FunctionalInterface
public interface OptionBounds<T> {

  /**
   * Checks a value.
   *
   * @throws IllegalArgumentException saying what the value must be and what it is
   */
  void check(T value);

  /** No constraint beyond the form. */
  static <T> OptionBounds<T> none() {
    return value -> {};
  }

  /** A whole number of at least {@code min}. */
  static OptionBounds<Integer> atLeast(int min) {
    return value -> {
      if (value < min) {
        throw new IllegalArgumentException("must be at least " + min + ", got " + value);
      }
    };
  }

  /** A whole number from {@code min} to {@code max}, both included. */
  static OptionBounds<Integer> between(int min, int max) {
    return value -> {
      if (value < min || value > max) {
        throw new IllegalArgumentException("must be from " + min + " to " + max + ", got " + value);
      }
    };
  }

  /**
   * One of {@code accepted}, as written.
   *
   * @param note appended to the message, or empty
   */
  static OptionBounds<String> oneOf(List<String> accepted, String note) {
    return value -> {
      if (!accepted.contains(value)) {
        throw new IllegalArgumentException(
            "use "
                + String.join(", ", accepted.subList(0, accepted.size() - 1))
                + " or "
                + accepted.get(accepted.size() - 1)
                + ", got '"
                + value
                + "'"
                + note);
      }
    };
  }

  /**
   * Only {@code accepted} (any case, surrounding blanks ignored): changelake does not implement
   * what any other value asks for.
   *
   * @param what what another value asks for, named in the message
   */
  static OptionBounds<String> only(String accepted, String what) {
    return value -> {
      if (!value.trim().equalsIgnoreCase(accepted)) {
        throw notImplemented(what, accepted);
      }
    };
  }

  /**
   * The refusal of an option value asking for behaviour changelake lacks, with both fixes.
   *
   * @param accepted the value changelake implements, or empty if the option must be removed
   */
  static IllegalArgumentException notImplemented(String what, String accepted) {
    return new IllegalArgumentException(
        "changelake does not implement "
            + what
            + " and will not ignore it: use Paimon for this table, or "
            + (accepted.isEmpty() ? "remove the option" : "set it to '" + accepted + "'"));
  }

  /** The name of an aggregate function of the aggregation merge engine. */
  static OptionBounds<String> aggregateFunction() {
    return value -> {
      if (!TableOptions.AGGREGATE_FUNCTIONS.contains(value)) {
        throw new IllegalArgumentException(
            "unknown aggregate function; use one of " + aggregateFunctions());
      }
    };
  }

  /** The aggregate functions, sorted, for messages and the manual. */
  static String aggregateFunctions() {
    return String.join(", ", new TreeSet<>(TableOptions.AGGREGATE_FUNCTIONS));
  }
}
