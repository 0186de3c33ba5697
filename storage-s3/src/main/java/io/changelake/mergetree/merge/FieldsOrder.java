package io.changelake.mergetree.merge;

import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.util.List;

/**
 * Orders rows by some of their columns, one after another, nulls first, as Paimon's
 * UserDefinedSeqComparator (ascending) does: the order of {@code sequence.field} and of the
 * sequence fields of a {@code fields.<g>.sequence-group}.
 */
final class FieldsOrder {

  private final int[] fields;
  private final RowComparator comparator;

  private FieldsOrder(int[] fields, RowComparator comparator) {
    this.fields = fields;
    this.comparator = comparator;
  }

  /**
   * The order of the named columns of {@code rowType}.
   *
   * @throws IllegalArgumentException naming the option and the column if one does not exist
   */
  static FieldsOrder of(RowType rowType, List<String> columns, String option) {
    int[] fields = new int[columns.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = rowType.indexOf(columns.get(i));
      if (fields[i] < 0) {
        throw new IllegalArgumentException(
            "table option '"
                + option
                + "' names no column '"
                + columns.get(i)
                + "': columns are "
                + rowType.names());
      }
    }
    return new FieldsOrder(fields, new RowComparator(rowType));
  }

  /** The positions of the ordering columns in the row. */
  int[] fields() {
    return fields;
  }

  /**
   * Negative, zero or positive as row {@code a} orders before, with or after row {@code b}: two
   * versions, or a version and the row partial-update builds. Only the ordering columns are read,
   * through their unboxed getters where they have one, so a view compares without its row decoded
   * and nothing boxed.
   */
  int compare(ChangeRow a, ChangeRow b) {
    for (int field : fields) {
      int c = comparator.compareField(field, a, b);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Whether every ordering column of the row is null: a version that does not touch the group. */
  boolean allNull(ChangeRow row) {
    for (int field : fields) {
      if (!row.isNullAt(field)) {
        return false;
      }
    }
    return true;
  }
}
