package io.changelake.format;

/**
 * The values of one column of a row group, row after row: each call reads the current row's value
 * and moves to the next row.
 */
interface ColumnValues {

  /** The current row's value, as the column codec's Java value, or null. */
  Object read();

  /** The current row's value of a required INT64 column. */
  long readLong();

  /** The current row's value of a required INT32 column. */
  int readInt();

  /**
   * The value the last {@link #readLong} or {@link #readInt} read, as an object other rows share (a
   * dictionary's value), or null when there is none to share and a caller must box it.
   */
  default Object lastShared() {
    return null;
  }

  /** Moves past the current row without making its value. */
  default void skip() {
    read();
  }
}
