package io.changelake.format;

import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.io.IOException;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Hands key-values to a {@link RowGroupWriter} value by value, straight into each column's writer,
 * with no intermediate record object and no boxing of the sequence number or the row kind: this
 * runs once per row on the write path.
 */
final class KeyValueColumns {

  private final MessageType schema;
  private final String[] names;
  private final int[] definitionLevels;
  private final ColumnCodec[] keyCodecs;
  private final ColumnCodec[] valueCodecs;

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
  }

  MessageType schema() {
    return schema;
  }

  /**
   * Writes one key-value as a row. The row is checked for its shape and for nulls in NOT NULL
   * columns before any column is written; a value of the wrong class fails midway, and the file is
   * then unusable.
   */
  void write(RowGroupWriter out, KeyValue kv) throws IOException {
    Object[] key = kv.key();
    Object[] value = kv.value();
    if (key.length != keyCodecs.length || value.length != valueCodecs.length) {
      throw new IllegalArgumentException(
          "a key-value has "
              + key.length
              + " key and "
              + value.length
              + " value columns, the file "
              + keyCodecs.length
              + " and "
              + valueCodecs.length);
    }
    requireNotNull(key, 0);
    requireNotNull(value, key.length + 2);
    int column = 0;
    for (int i = 0; i < key.length; i++) {
      writeField(out, column++, keyCodecs[i], key[i]);
    }
    out.column(column++).write(kv.sequenceNumber(), 0, 0);
    out.column(column++).write((int) kv.kind().toByteValue(), 0, 0);
    for (int i = 0; i < value.length; i++) {
      writeField(out, column++, valueCodecs[i], value[i]);
    }
    out.endRow();
  }

  private void requireNotNull(Object[] values, int firstColumn) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null && definitionLevels[firstColumn + i] == 0) {
        throw new IllegalArgumentException(
            "column " + names[firstColumn + i] + " is NOT NULL but got null");
      }
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
      throw new IllegalArgumentException(
          "column "
              + names[column]
              + " cannot hold a "
              + value.getClass().getName()
              + "; see TypeRoot for the Java class of each type",
          e);
    }
  }
}
