package io.changelake.format;

import io.changelake.types.DataField;
import io.changelake.types.RowType;
import io.changelake.types.TypeWidening;

/**
 * How the table columns of a data file written under an older schema read as the columns of the
 * current schema: matched by field id, as Paimon matches them. A column added since reads as null,
 * a renamed one by its id under its old name, a dropped one is not read, a widened one is read
 * under its old type and converted.
 *
 * <p>Immutable; one per pair of schemas, so a caller keeps one per schema id of its files.
 */
public final class ColumnMapping {

  private final RowType tableType;
  private final DataField[] fileFields;
  private final int[] filePositions;

  private ColumnMapping(RowType tableType, DataField[] fileFields, int[] filePositions) {
    this.tableType = tableType;
    this.fileFields = fileFields;
    this.filePositions = filePositions;
  }

  /**
   * The mapping of a file whose table columns are {@code fileType} to {@code tableType}.
   *
   * @throws IllegalArgumentException if a column's type changed in a way that is not a widening
   */
  public static ColumnMapping of(RowType fileType, RowType tableType) {
    DataField[] fileFields = new DataField[tableType.size()];
    int[] filePositions = new int[tableType.size()];
    for (int i = 0; i < fileFields.length; i++) {
      DataField column = tableType.field(i);
      filePositions[i] = -1;
      for (int j = 0; j < fileType.size(); j++) {
        DataField f = fileType.field(j);
        if (f.id() == column.id()) {
          if (!TypeWidening.widens(f.type(), column.type())) {
            throw new IllegalArgumentException(
                "column '"
                    + column.name()
                    + "' was "
                    + f.type()
                    + " and is now "
                    + column.type()
                    + ", which is no widening: the table's older files cannot be read as the new"
                    + " type");
          }
          fileFields[i] = f;
          filePositions[i] = j;
        }
      }
    }
    return new ColumnMapping(tableType, fileFields, filePositions);
  }

  /** The mapping of a file written under the current schema itself. */
  public static ColumnMapping identity(RowType tableType) {
    int[] positions = new int[tableType.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
    return new ColumnMapping(tableType, tableType.fields().toArray(DataField[]::new), positions);
  }

  /**
   * The values of a row of the older columns ({@code fileType}'s order) as a row of the current
   * ones: a writer that mapped a row under an older schema hands it to a writer of the new one.
   */
  public Object[] map(Object[] fileRow) {
    Object[] row = new Object[fileFields.length];
    for (int i = 0; i < row.length; i++) {
      if (filePositions[i] >= 0) {
        Object value = fileRow[filePositions[i]];
        row[i] = converts(i) ? TypeWidening.convert(value, tableType.type(i)) : value;
      }
    }
    return row;
  }

  /** The table's current columns. */
  RowType tableType() {
    return tableType;
  }

  /**
   * The file's column holding the table column at {@code position}, or null if the file predates
   * the column.
   */
  DataField fileField(int position) {
    return fileFields[position];
  }

  /** The name the file gives the table column at {@code position} (which the file must hold). */
  String fileName(int position) {
    return fileFields[position].name();
  }

  /** Whether values of the table column at {@code position} need converting from the file's. */
  boolean converts(int position) {
    DataField f = fileFields[position];
    return f != null && TypeWidening.needsConversion(f.type(), tableType.type(position));
  }
}
