package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.TypeRoot;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The key of the last row a file writer took, for the file's max key: a key-value's key array as it
 * is, a view's key columns copied unboxed where they are BIGINT, INT, SMALLINT, TINYINT, DOUBLE,
 * FLOAT or BOOLEAN. Boxed only when asked for, once a file, where taking the key of every row of a
 * compaction as objects would box it row after row.
 */
final class LastKey {

  /** Per key column, the physical type it is copied unboxed as, or null to keep the object. */
  private final PrimitiveTypeName[] unboxed;

  /** Per key column copied as INT64 or INT32, its integer type (TINYINT to BIGINT); else null. */
  private final TypeRoot[] integer;

  private final int[] positions;
  private final long[] bits;
  private final Object[] objects;
  private Object[] keyValueKey;
  private boolean taken;

  /**
   * @param keyCodecs the key columns' codecs
   * @param positions where each key column stands among a row's columns
   */
  LastKey(ColumnCodec[] keyCodecs, int[] positions) {
    this.unboxed = new PrimitiveTypeName[keyCodecs.length];
    this.integer = new TypeRoot[keyCodecs.length];
    for (int k = 0; k < keyCodecs.length; k++) {
      TypeRoot narrow = keyCodecs[k].narrowInteger();
      unboxed[k] = narrow != null ? PrimitiveTypeName.INT32 : keyCodecs[k].unboxedType();
      if (unboxed[k] == PrimitiveTypeName.INT64) {
        integer[k] = TypeRoot.BIGINT;
      } else if (unboxed[k] == PrimitiveTypeName.INT32) {
        integer[k] = narrow != null ? narrow : TypeRoot.INT;
      }
    }
    this.positions = positions;
    this.bits = new long[keyCodecs.length];
    this.objects = new Object[keyCodecs.length];
  }

  /** Takes the key of {@code row}, which the writer has just written. */
  void take(ChangeRow row) {
    taken = true;
    if (row instanceof KeyValue kv) {
      keyValueKey = kv.key();
      return;
    }
    keyValueKey = null;
    for (int k = 0; k < unboxed.length; k++) {
      int column = positions[k];
      if (unboxed[k] == null) {
        objects[k] = row.get(column);
        continue;
      }
      bits[k] =
          switch (unboxed[k]) {
            case INT64, INT32 -> ChangeRow.integral(row, column, integer[k]);
            case DOUBLE -> Double.doubleToRawLongBits(row.getDouble(column));
            case FLOAT -> Float.floatToRawIntBits(row.getFloat(column));
            default -> row.getBoolean(column) ? 1 : 0;
          };
    }
  }

  /**
   * The key last taken, as a key-value holds it: a new array for a view's key.
   *
   * @throws IllegalStateException if no key was taken
   */
  Object[] get() {
    if (!taken) {
      throw new IllegalStateException("no key was taken");
    }
    if (keyValueKey != null) {
      return keyValueKey;
    }
    Object[] key = new Object[unboxed.length];
    for (int k = 0; k < key.length; k++) {
      key[k] = boxed(k);
    }
    return key;
  }

  private Object boxed(int k) {
    if (unboxed[k] == null) {
      return objects[k];
    }
    return switch (unboxed[k]) {
      case INT64, INT32 -> integer[k].integral(bits[k]);
      case DOUBLE -> Double.valueOf(Double.longBitsToDouble(bits[k]));
      case FLOAT -> Float.valueOf(Float.intBitsToFloat((int) bits[k]));
      default -> Boolean.valueOf(bits[k] != 0);
    };
  }
}
