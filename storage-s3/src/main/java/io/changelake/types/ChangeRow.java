package io.changelake.types;

/**
 * One change to a key, read column by column: what a changelog read hands a visitor, and a batch
 * read a sink, without building a {@link KeyValue} for it (a row of a batch read is an insert); a
 * lookup copy is built from such rows too. A {@link KeyValue} is one; a row of a file read in
 * column batches ({@link io.changelake.format.KeyValueBatch}) is another, a view over the batch's
 * decoded columns, valid only until the reader moves on. A visitor that counts, filters on a column
 * or sums a BIGINT column reads it through {@link #getLong} and nothing is boxed or allocated per
 * row; one that keeps the change takes {@link #toKeyValue}. A batch holds BIGINT, INT, SMALLINT,
 * TINYINT, DOUBLE, FLOAT and BOOLEAN columns unboxed, for their getters; other columns are objects
 * ({@link #get}).
 *
 * <p>Columns are the positions of the values read: the table's columns, or a projection's in its
 * order.
 */
public interface ChangeRow {

  /** What the change does to its key. */
  RowKind kind();

  /** The change's sequence number. */
  long sequenceNumber();

  /** The number of columns. */
  int columnCount();

  /** Whether column {@code column} is null. */
  boolean isNullAt(int column);

  /**
   * The value of a BIGINT column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not BIGINT
   * @throws NullPointerException if the column is null
   */
  long getLong(int column);

  /**
   * The value of an INT column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not INT
   * @throws NullPointerException if the column is null
   */
  int getInt(int column);

  /**
   * The value of a DOUBLE column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not DOUBLE
   * @throws NullPointerException if the column is null
   */
  double getDouble(int column);

  /**
   * The value of a FLOAT column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not FLOAT
   * @throws NullPointerException if the column is null
   */
  float getFloat(int column);

  /**
   * The value of a SMALLINT column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not SMALLINT
   * @throws NullPointerException if the column is null
   */
  short getShort(int column);

  /**
   * The value of a TINYINT column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not TINYINT
   * @throws NullPointerException if the column is null
   */
  byte getByte(int column);

  /**
   * The value of a BOOLEAN column that is not null, unboxed.
   *
   * @throws ClassCastException if the column is not BOOLEAN
   * @throws NullPointerException if the column is null
   */
  boolean getBoolean(int column);

  /**
   * The value of integer column {@code column} of {@code row}, of type {@code root} (TINYINT to
   * BIGINT) and not null, through its unboxed getter, as a long.
   */
  static long integral(ChangeRow row, int column, TypeRoot root) {
    return switch (root) {
      case BIGINT -> row.getLong(column);
      case INT -> row.getInt(column);
      case SMALLINT -> row.getShort(column);
      case TINYINT -> row.getByte(column);
      default -> throw new IllegalArgumentException(root + " is not an integer type");
    };
  }

  /** The value of a column as {@link KeyValue#value()} holds it: boxed, converted, or null. */
  Object get(int column);

  /** The change as a key-value of its own, which stays valid when the reader moves on. */
  KeyValue toKeyValue();
}
