package io.changelake.format;

import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Hands key-values to Parquet's record consumer column by column, with no intermediate record
 * object: this runs once per row on the write path.
 */
final class KeyValueWriteSupport extends WriteSupport<KeyValue> {

  private final MessageType schema;
  private final String[] names;
  private final boolean[] required;
  private final ColumnCodec[] keyCodecs;
  private final ColumnCodec[] valueCodecs;
  private final ColumnCodec sequenceCodec;
  private final ColumnCodec kindCodec;
  private RecordConsumer consumer;

  KeyValueWriteSupport(RowType keyType, RowType valueType) {
    this.schema = KeyValueFileSchema.messageType(keyType, valueType);
    this.names = schema.getFields().stream().map(Type::getName).toArray(String[]::new);
    this.required = new boolean[names.length];
    for (int i = 0; i < names.length; i++) {
      required[i] = schema.getType(i).isRepetition(Type.Repetition.REQUIRED);
    }
    this.keyCodecs = KeyValueFileSchema.codecs(keyType);
    this.valueCodecs = KeyValueFileSchema.codecs(valueType);
    this.sequenceCodec = ColumnCodec.of(DataType.bigint());
    this.kindCodec = ColumnCodec.of(DataType.tinyint());
  }

  MessageType schema() {
    return schema;
  }

  // Parquet deprecates this overload yet still declares it abstract: it must be written.
  @SuppressWarnings("deprecation")
  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(schema, Map.of());
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(KeyValue kv) {
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
    consumer.startMessage();
    int column = 0;
    for (int i = 0; i < key.length; i++) {
      writeField(column++, keyCodecs[i], key[i]);
    }
    writeField(column++, sequenceCodec, kv.sequenceNumber());
    writeField(column++, kindCodec, kv.kind().toByteValue());
    for (int i = 0; i < value.length; i++) {
      writeField(column++, valueCodecs[i], value[i]);
    }
    consumer.endMessage();
  }

  private void writeField(int column, ColumnCodec codec, Object value) {
    if (value == null) {
      if (required[column]) {
        throw new IllegalArgumentException("column " + names[column] + " is NOT NULL but got null");
      }
      return;
    }
    consumer.startField(names[column], column);
    try {
      codec.write(consumer, value);
    } catch (ClassCastException e) {
      throw new IllegalArgumentException(
          "column "
              + names[column]
              + " cannot hold a "
              + value.getClass().getName()
              + "; see TypeRoot for the Java class of each type",
          e);
    }
    consumer.endField(names[column], column);
  }
}
