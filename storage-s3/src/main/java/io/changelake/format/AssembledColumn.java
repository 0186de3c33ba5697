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

  AssembledColumn(ColumnReader reader, ColumnDescriptor descriptor) {
    this.reader = reader;
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
  }

  @Override
  public Object read(ColumnCodec codec) {
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
