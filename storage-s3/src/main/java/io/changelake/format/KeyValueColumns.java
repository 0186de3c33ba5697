package io.changelake.format;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Hands rows to a {@link RowGroupWriter} value by value, straight into each column's writer, with
 * no intermediate record object and no boxing of the sequence number or the row kind: this runs
 * once per row on the write path. A row that is not a {@link KeyValue} (a view of a column batch a
 * compaction read) has its BIGINT, INT, DOUBLE, FLOAT and BOOLEAN columns written through its
 * unboxed getters, and its key taken from its key columns.
 */
final class KeyValueColumns {

  private final MessageType schema;
  private final String[] names;
  private final int[] definitionLevels;
  private final ColumnCodec[] keyCodecs;
  private final ColumnCodec[] valueCodecs;
  private final int[] keyPositions;

  KeyValueColumns(RowType keyType, RowType valueType) {
    this.schema = KeyValueFileSchema.messageType(keyType, valueType);
    this.names = schema.getFields().stream().map(Type::getName).toArray(String[]::new);
    this.definitionLevels = new int[names.length];
    for (int i = 0; i < names.length; i++) {
      // A flat schema: a present value of an optional column has definition level 1.
      definitionLevels[i] = schema.getType(i).isRepetition(Type.Repetition.REQUIRED) ? 0 : 1;
    }
    this.keyCodecs = KeyValueFileSchema.codecs(keyType);
    this.valueCodecs = KeyValueFileSchema.codecs(valueType);
    this.keyPositions = valueType.positionsOf(keyType);
  }

  MessageType schema() {
    return schema;
  }

  /**
   * Where each key column stands among the value columns: a row that is not a key-value has its key
   * there. Null when the value columns do not hold the key.
   */
  int[] keyPositions() {
    return keyPositions;
  }

  /**
   * Writes one row under {@code kind}: a key-value's key from {@link KeyValue#key()}, any other
   * row's from its key columns ({@link #keyPositions}). The row is checked for its shape and for
   * nulls in NOT NULL columns before any column is written; a value of the wrong class fails
   * midway, and the file is then unusable.
   */
  void write(RowGroupWriter out, ChangeRow row, RowKind kind) throws IOException {
    // Key-values and views go their own ways: each way's calls then meet one or two kinds of row
    // and are inlined, where calls meeting every kind go through an interface dispatch per value
    // (a warm lookup write spent 5% of its thread in those dispatches).
    if (row instanceof KeyValue kv) {
      writeKeyValue(out, kv, kind);
    } else {
      writeView(out, row, kind);
    }
  }

  private void writeKeyValue(RowGroupWriter out, KeyValue kv, RowKind kind) throws IOException {
    Object[] key = kv.key();
    Object[] value = kv.value();
    requireShape(key.length, value.length);
    for (int i = 0; i < key.length; i++) {
      requireNotNull(key[i] == null, i);
    }
    for (int i = 0; i < value.length; i++) {
      requireNotNull(value[i] == null, keyCodecs.length + 2 + i);
    }
    int column = 0;
    for (int i = 0; i < key.length; i++) {
      writeField(out, column++, keyCodecs[i], key[i]);
    }
    column = writeSystemColumns(out, column, kv.sequenceNumber(), kind);
    for (int i = 0; i < value.length; i++) {
      writeField(out, column++, valueCodecs[i], value[i]);
    }
    out.endRow();
  }

  private void writeView(RowGroupWriter out, ChangeRow row, RowKind kind) throws IOException {
    requireShape(keyCodecs.length, row.columnCount());
    if (keyPositions == null) {
      throw new IllegalArgumentException(
          "a row that is not a key-value needs the key among its columns: " + schema);
    }
    for (int i = 0; i < valueCodecs.length; i++) {
      requireNotNull(row.isNullAt(i), keyCodecs.length + 2 + i);
    }
    int column = 0;
    for (int i = 0; i < keyCodecs.length; i++) {
      writeField(out, column++, keyCodecs[i], row, keyPositions[i]);
    }
    column = writeSystemColumns(out, column, row.sequenceNumber(), kind);
    for (int i = 0; i < valueCodecs.length; i++) {
      writeField(out, column++, valueCodecs[i], row, i);
    }
    out.endRow();
  }

  private int writeSystemColumns(RowGroupWriter out, int column, long sequenceNumber, RowKind kind)
      throws IOException {
    out.column(column).write(sequenceNumber, 0, 0);
    out.column(column + 1).write((int) kind.toByteValue(), 0, 0);
    return column + 2;
  }

  private void requireShape(int keyColumns, int valueColumns) {
    if (keyColumns != keyCodecs.length || valueColumns != valueCodecs.length) {
      throw new IllegalArgumentException(
          "a row has "
              + keyColumns
              + " key and "
              + valueColumns
              + " value columns, the file "
              + keyCodecs.length
              + " and "
              + valueCodecs.length);
    }
  }

  private void requireNotNull(boolean isNull, int column) {
    if (isNull && definitionLevels[column] == 0) {
      throw new IllegalArgumentException("column " + names[column] + " is NOT NULL but got null");
    }
  }

  private void writeField(RowGroupWriter out, int column, ColumnCodec codec, Object value) {
    if (value == null) {
      out.column(column).writeNull(0, 0);
      return;
    }
    try {
      codec.write(out.column(column), value, definitionLevels[column]);
    } catch (ClassCastException e) {
      throw cannotHold(column, value, e);
    }
  }

  private void writeField(
      RowGroupWriter out, int column, ColumnCodec codec, ChangeRow row, int rowColumn) {
    if (row.isNullAt(rowColumn)) {
      out.column(column).writeNull(0, 0);
      return;
    }
    try {
      codec.write(out.column(column), row, rowColumn, definitionLevels[column]);
    } catch (ClassCastException e) {
      throw cannotHold(column, row.get(rowColumn), e);
    }
  }

  private IllegalArgumentException cannotHold(int column, Object value, ClassCastException e) {
    return new IllegalArgumentException(
        "column "
            + names[column]
            + " cannot hold a "
            + value.getClass().getName()
            + "; see TypeRoot for the Java class of each type",
        e);
  }
}
