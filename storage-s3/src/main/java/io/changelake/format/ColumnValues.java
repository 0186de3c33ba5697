package io.changelake.format;

import java.lang.reflect.Array;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values of one column of a row group, row after row: each call reads the current row's value
 * and moves to the next row.
 */
interface ColumnValues {

  /**
   * The physical types {@link #readPrimitives} reads, of columns whose codec keeps them as stored.
   */
  Set<PrimitiveTypeName> UNBOXED =
      EnumSet.of(
          PrimitiveTypeName.INT64,
          PrimitiveTypeName.INT32,
          PrimitiveTypeName.DOUBLE,
          PrimitiveTypeName.FLOAT,
          PrimitiveTypeName.BOOLEAN);

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

  /**
   * Reads the values of the next {@code count} rows into {@code rows[r][column]}, {@code r} from 0:
   * as many {@link #read} calls, which a column decoded a page at a time does in one loop.
   */
  default void readInto(Object[][] rows, int column, int count) {
    for (int r = 0; r < count; r++) {
      rows[r][column] = read();
    }
  }

  /** {@link #readLong} for the next {@code count} rows, into {@code into} from 0. */
  default void readLongs(long[] into, int count) {
    for (int r = 0; r < count; r++) {
      into[r] = readLong();
    }
  }

  /**
   * The values of the next {@code count} rows of a column whose codec keeps them as stored (BIGINT,
   * INT, DOUBLE, FLOAT, BOOLEAN), unboxed, into {@code into} from 0, an array of the column's
   * physical type ({@code long[]}, {@code int[]}, {@code double[]}, {@code float[]} or {@code
   * boolean[]}), and into {@code nulls} whether each row is null (its slot in {@code into} then
   * unspecified). {@code nulls} may be null for a required column.
   */
  default void readPrimitives(Object into, boolean[] nulls, int count) {
    for (int r = 0; r < count; r++) {
      Object value = read();
      if (nulls != null) {
        nulls[r] = value == null;
      }
      if (value != null) {
        // The value is the primitive's box, as the codec keeps it: set unwraps it.
        Array.set(into, r, value);
      }
    }
  }

  /** {@link #readInt} for the next {@code count} rows, into {@code into} from 0. */
  default void readInts(int[] into, int count) {
    for (int r = 0; r < count; r++) {
      into[r] = readInt();
    }
  }

  /** Moves past the current row without making its value. */
  default void skip() {
    read();
  }
}
