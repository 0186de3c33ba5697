package io.changelake.mergetree.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.List;
import java.util.Map;

/**
 * Test fixture: tables with a BIGINT primary key {@code k} in column 0, and the versions of one key
 * written as {@code +I 1001 10 100} lines, as the conformance scripts write them.
 */
final class Versions {

  private Versions() {}

  /** The conformance table {@code orders(order_id, store_id, amount)} with these options. */
  static TableSchema orders(Map<String, String> options) {
    return table(
        new String[] {"order_id", "store_id", "amount"},
        new DataType[] {DataType.bigint(), DataType.bigint(), DataType.bigint()},
        options);
  }

  /** A table whose first column is the primary key. */
  static TableSchema table(String[] names, DataType[] types, Map<String, String> options) {
    return TableSchema.create(
        RowType.of(names, types), List.of(), List.of(names[0]), options, null);
  }

  /** A version of key {@code value[0]}. */
  static KeyValue version(long sequenceNumber, RowKind kind, Object... value) {
    return new KeyValue(new Object[] {value[0]}, sequenceNumber, kind, value);
  }

  /**
   * Versions of the orders table from lines such as {@code "+I 1001 10 -"} ({@code -} is null),
   * numbered 0, 1, 2, ...
   */
  static KeyValue[] orders(String... lines) {
    KeyValue[] versions = new KeyValue[lines.length];
    for (int i = 0; i < lines.length; i++) {
      String[] parts = lines[i].trim().split("\\s+");
      Object[] value = new Object[parts.length - 1];
      for (int c = 0; c < value.length; c++) {
        value[c] = parts[c + 1].equals("-") ? null : Long.valueOf(parts[c + 1]);
      }
      versions[i] = version(i, RowKind.fromShortString(parts[0]), value);
    }
    return versions;
  }

  /**
   * The merge of the versions, from a reset function; the same merge of them handed over as views
   * (rows that are not key-values, as a file's or a buffer's rows come) must give the same result,
   * and read no BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT or BOOLEAN value boxed ({@link
   * ChangeRow#get}) from them.
   */
  static KeyValue merge(MergeFunction function, KeyValue... versions) {
    KeyValue merged = mergeOnce(function, versions);
    int[] boxedReads = {0};
    View[] views = new View[versions.length];
    for (int i = 0; i < views.length; i++) {
      views[i] = new View(versions[i], boxedReads);
    }
    assertEquals(show(merged), show(mergeOnce(function, views)), "the versions as views");
    assertEquals(0, boxedReads[0], "values of unboxed columns read boxed from the views");
    return merged;
  }

  private static KeyValue mergeOnce(MergeFunction function, ChangeRow... versions) {
    function.reset();
    for (ChangeRow version : versions) {
      function.add(version);
    }
    ChangeRow result = function.result();
    return result == null ? null : result.toKeyValue();
  }

  /**
   * A version read through its getters alone, as a view of a file's or a buffer's row is; counts
   * the values {@link #get} hands out that have an unboxed getter.
   */
  private record View(KeyValue version, int[] boxedReads) implements ChangeRow {
    @Override
    public RowKind kind() {
      return version.kind();
    }

    @Override
    public long sequenceNumber() {
      return version.sequenceNumber();
    }

    @Override
    public int columnCount() {
      return version.columnCount();
    }

    @Override
    public boolean isNullAt(int column) {
      return version.isNullAt(column);
    }

    @Override
    public long getLong(int column) {
      return version.getLong(column);
    }

    @Override
    public int getInt(int column) {
      return version.getInt(column);
    }

    @Override
    public short getShort(int column) {
      return version.getShort(column);
    }

    @Override
    public byte getByte(int column) {
      return version.getByte(column);
    }

    @Override
    public double getDouble(int column) {
      return version.getDouble(column);
    }

    @Override
    public float getFloat(int column) {
      return version.getFloat(column);
    }

    @Override
    public boolean getBoolean(int column) {
      return version.getBoolean(column);
    }

    @Override
    public Object get(int column) {
      Object value = version.get(column);
      if (value instanceof Long
          || value instanceof Integer
          || value instanceof Short
          || value instanceof Byte
          || value instanceof Double
          || value instanceof Float
          || value instanceof Boolean) {
        boxedReads[0]++;
      }
      return value;
    }

    @Override
    public KeyValue toKeyValue() {
      return new KeyValue(
          version.key().clone(), version.sequenceNumber(), version.kind(), version.value().clone());
    }
  }

  /** A result as {@code +I[1001, 10, 80] @3}: kind, row and sequence number. */
  static String show(KeyValue kv) {
    if (kv == null) {
      return "nothing";
    }
    StringBuilder text = new StringBuilder(kv.kind().shortString()).append('[');
    for (int i = 0; i < kv.value().length; i++) {
      text.append(i == 0 ? "" : ", ").append(kv.value()[i]);
    }
    return text.append("] @").append(kv.sequenceNumber()).toString();
  }
}
