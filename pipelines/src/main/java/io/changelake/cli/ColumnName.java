package io.changelake.cli;

import io.changelake.types.RowType;

/** A table column a command option names, resolved to its position in the table's rows. */
final class ColumnName {

  private ColumnName() {}

  /**
   * The position of column {@code name}.
   *
   * @param option the option that named it, for the message
   * @throws IllegalArgumentException naming the option and the table's columns if there is none
   */
  static int position(RowType rowType, String name, String option) {
    int index = rowType.indexOf(name);
    if (index < 0) {
      throw new IllegalArgumentException(
          option + " " + name + ": the table has no such column; columns are " + rowType.names());
    }
    return index;
  }
}
