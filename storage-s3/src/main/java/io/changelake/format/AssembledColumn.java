package io.changelake.format;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;

/**
 * A column chunk read through Parquet's own column reader, value by value: for the encodings {@link
 * DecodedColumnChunk} does not decode (delta, byte-stream-split, RLE booleans).
 */
final class AssembledColumn implements ColumnValues {

  private final ColumnReader reader;
  private final int maxDefinition;
  private final ColumnCodec codec;

  /**
   * @param codec the column's codec, or null for a system column read by {@link #readLong} or
   *     {@link #readInt}
   */
  AssembledColumn(ColumnReader reader, ColumnDescriptor descriptor, ColumnCodec codec) {
    this.reader = reader;
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.codec = codec;
  }

  @Override
  public Object read() {
    Object value = reader.getCurrentDefinitionLevel() == maxDefinition ? codec.read(reader) : null;
    reader.consume();
    return value;
  }

  @Override
  public long readLong() {
    long value = reader.getLong();
    reader.consume();
    return value;
  }

  @Override
  public int readInt() {
    int value = reader.getInteger();
    reader.consume();
    return value;
  }
}
