package io.changelake.cli;

import io.changelake.types.RowKind;
import java.util.Arrays;

/**
 * How the commands print a row: its kind and values as the conformance output does, {@code +I[1001,
 * 10, 100]}, so a changelog printed here diffs cleanly against a conformance case.
 */
final class RowText {

  private RowText() {}

  /** {@code +I[1001, 10, 100]}; binary values print as their bytes, not as an array identity. */
  static String of(RowKind kind, Object[] values) {
    return kind.shortString() + values(values);
  }

  /** {@code [1001, 10, 100]}. */
  static String values(Object[] values) {
    return Arrays.deepToString(values);
  }

  /** One value as it prints inside {@link #values}. */
  static String value(Object value) {
    String one = values(new Object[] {value});
    return one.substring(1, one.length() - 1);
  }
}
