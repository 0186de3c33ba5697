package io.changelake.mergetree.merge;

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

  /** The merge of the versions, from a reset function. */
  static KeyValue merge(MergeFunction function, KeyValue... versions) {
    function.reset();
    for (KeyValue kv : versions) {
      function.add(kv);
    }
    ChangeRow result = function.result();
    return result == null ? null : result.toKeyValue();
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
