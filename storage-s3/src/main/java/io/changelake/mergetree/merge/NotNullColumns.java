package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowType;
import java.util.Arrays;

/**
 * The NOT NULL columns of a table (the primary key at least). A row that partial-update or
 * aggregation deletes, or starts from a retraction, keeps only these columns, as Paimon's {@code
 * initRow} does: a stored row must have them even when it is a -D.
 */
final class NotNullColumns {

  private final RowType rowType;
  private final int[] columns;
  private final boolean[] isNotNull;

  NotNullColumns(RowType rowType) {
    this.rowType = rowType;
    int[] found = new int[rowType.size()];
    int count = 0;
    for (int i = 0; i < rowType.size(); i++) {
      if (!rowType.type(i).nullable()) {
        found[count++] = i;
      }
    }
    this.columns = Arrays.copyOf(found, count);
    this.isNotNull = new boolean[rowType.size()];
    for (int i : columns) {
      isNotNull[i] = true;
    }
  }

  /**
   * Copies the NOT NULL columns of {@code from} into {@code to}, leaving the others as they are.
   *
   * @throws MergeException naming the column if {@code from} holds null in one
   */
  void copy(ChangeRow from, MergedRow to) {
    for (int i : columns) {
      require(from, i);
      to.copyValue(i, from);
    }
  }

  /** Makes {@code to} the row that only has the NOT NULL columns of {@code from}. */
  void reset(ChangeRow from, MergedRow to) {
    to.clear();
    copy(from, to);
  }

  /** Whether column {@code i} is NOT NULL. */
  boolean contains(int i) {
    return isNotNull[i];
  }

  /**
   * Checks that column {@code i} of {@code row}, which is NOT NULL, holds a value.
   *
   * @throws MergeException naming the column if the value is null
   */
  void require(ChangeRow row, int i) {
    if (row.isNullAt(i)) {
      throw new MergeException(
          "column '"
              + rowType.field(i).name()
              + "' is NOT NULL but a record holds null in it: "
              + "fix the input, or make the column nullable");
    }
  }
}
