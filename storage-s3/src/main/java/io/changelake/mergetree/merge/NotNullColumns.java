package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
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
   */
  void copy(Object[] from, Object[] to) {
    for (int i : columns) {
      to[i] = require(from, i);
    }
  }

  /** Makes {@code to} the row that only has the NOT NULL columns of {@code from}. */
  void reset(Object[] from, Object[] to) {
    Arrays.fill(to, null);
    copy(from, to);
  }

  /** Whether column {@code i} is NOT NULL. */
  boolean contains(int i) {
    return isNotNull[i];
  }

  /**
   * The value of column {@code i} of {@code row}, which is NOT NULL.
   *
   * @throws MergeException naming the column if the value is null
   */
  Object require(Object[] row, int i) {
    Object value = row[i];
    if (value == null) {
      throw new MergeException(
          "column '"
              + rowType.field(i).name()
              + "' is NOT NULL but a record holds null in it: "
              + "fix the input, or make the column nullable");
    }
    return value;
  }
}
