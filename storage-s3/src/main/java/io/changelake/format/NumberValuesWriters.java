package io.changelake.format;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.column.values.fallback.FallbackValuesWriter;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The values writers of a {@link RowGroupWriter}'s columns: Parquet's PARQUET_1_0 ones, but for
 * INT32 and INT64 columns, whose dictionaries are {@link NumberDictionaryWriter}s and whose plain
 * values (a column written without a dictionary, or one that fell back) a {@link PlainNumberWriter}
 * writes. Both write the bytes Parquet's own would, so the files are the same.
 *
 * <p>Why: these are the columns of every key-value file (sequence number, row kind, and in most
 * tables the key), and Parquet's writers for them were a third of the Parquet encoding in a profile
 * of the lookup and full-compaction writes.
 */
final class NumberValuesWriters implements ValuesWriterFactory {

  private final DefaultV1ValuesWriterFactory parquet = new DefaultV1ValuesWriterFactory();
  private ParquetProperties properties;

  @Override
  public void initialize(ParquetProperties properties) {
    this.properties = properties;
    parquet.initialize(properties);
  }

  @Override
  public ValuesWriter newValuesWriter(ColumnDescriptor column) {
    PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
    boolean number = type == PrimitiveTypeName.INT32 || type == PrimitiveTypeName.INT64;
    if (!number || properties.isByteStreamSplitEnabled(column)) {
      return parquet.newValuesWriter(column);
    }
    // Parquet's: a plain writer sized by its slab and page settings; behind a dictionary if the
    // column has one.
    PlainNumberWriter plain =
        new PlainNumberWriter(properties.getInitialSlabSize(), properties.getPageSizeThreshold());
    if (!properties.isDictionaryEnabled(column)) {
      return plain;
    }
    return FallbackValuesWriter.of(
        new NumberDictionaryWriter(
            type == PrimitiveTypeName.INT32,
            properties.getDictionaryPageSizeThreshold(),
            properties.getAllocator()),
        plain);
  }
}
