package io.changelake.format;

import java.io.Closeable;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * A flat Parquet file written column by column: the caller hands each value of a row straight to
 * its column's {@link ColumnWriter} ({@link #column}), then ends the row ({@link #endRow}). Row
 * groups are cut where Parquet's own {@code ParquetWriter} cuts them (the buffered size checked at
 * the same row counts against the same threshold), and pages, dictionaries, compression and the
 * footer are Parquet's (the values of number columns written by {@link NumberValuesWriters}, to the
 * same bytes), so the file has the bytes {@code ParquetWriter} would write for the same rows and
 * settings.
 *
 * <p>Why not {@code ParquetWriter}: its record layer (a {@code RecordConsumer} over {@code
 * MessageColumnIO}) tracks every field of every row, for nesting a flat file does not have; on the
 * merge tree's write path that bookkeeping took a third of the Parquet encoding's time.
 *
 * <p>Not thread-safe. {@link #finish} for a whole file, {@link #close} to abandon it.
 */
final class RowGroupWriter implements Closeable {

  private final MessageType schema;
  private final ParquetProperties properties;
  private final ParquetFileWriter file;
  private final CodecFactory codecs;
  private final BytesInputCompressor compressor;
  private final long rowGroupSize;
  private final List<ColumnDescriptor> descriptors;
  private final ColumnWriter[] writers;
  private ColumnChunkPageWriteStore pages;
  private ColumnWriteStore columns;
  private long rows;
  private long rowsAtNextSizeCheck;
  private long nextRowGroupSize;
  private long flushedBytes;
  private int rowGroupOrdinal;
  private boolean done;

  RowGroupWriter(OutputFile out, MessageType schema, ParquetFileOptions options)
      throws IOException {
    this(out, schema, options, Set.of());
  }

  /**
   * @param withoutDictionary the columns written plain from their first value: for columns whose
   *     values are unique in the file, where Parquet's dictionary writer would fall back to plain
   *     at the end of the first page anyway (a dictionary of unique values alone is as large as the
   *     plain values), so the bytes are the same and the dictionary's hash map is not filled for
   *     nothing
   */
  RowGroupWriter(
      OutputFile out, MessageType schema, ParquetFileOptions options, Set<String> withoutDictionary)
      throws IOException {
    this.schema = schema;
    ParquetProperties.Builder settings =
        ParquetProperties.builder()
            .withPageSize(options.pageSize())
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withValuesWriterFactory(new NumberValuesWriters());
    for (String column : withoutDictionary) {
      settings.withDictionaryEncoding(column, false);
    }
    this.properties = settings.build();
    this.rowGroupSize = options.rowGroupSize();
    this.nextRowGroupSize = rowGroupSize;
    this.descriptors = schema.getColumns();
    this.writers = new ColumnWriter[descriptors.size()];
    Configuration conf = new Configuration(false);
    conf.set("parquet.compression.codec.zstd.level", Integer.toString(options.zstdLevel()));
    this.codecs = new CodecFactory(conf, properties.getPageSizeThreshold());
    this.compressor = codecs.getCompressor(options.codec());
    this.file =
        new ParquetFileWriter(
            out,
            schema,
            ParquetFileWriter.Mode.CREATE,
            rowGroupSize,
            ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
            null,
            properties);
    file.start();
    startRowGroup();
    this.rowsAtNextSizeCheck = properties.getMinRowCountForPageSizeCheck();
  }

  /** The writer of column {@code i} (in schema order) for the open row group. */
  ColumnWriter column(int i) {
    return writers[i];
  }

  /** Ends the row whose values were just written; may close the row group. */
  void endRow() throws IOException {
    columns.endRecord();
    rows++;
    if (rows < rowsAtNextSizeCheck) {
      return;
    }
    // Parquet's rule: flush when within about two rows of the threshold, else check again
    // halfway to where the threshold would be reached, at most a fixed number of rows ahead.
    long buffered = columns.getBufferedSize();
    long rowSize = buffered / rows;
    int minCheck = properties.getMinRowCountForPageSizeCheck();
    int maxCheck = properties.getMaxRowCountForPageSizeCheck();
    if (buffered > nextRowGroupSize - 2 * rowSize) {
      flushRowGroup();
      startRowGroup();
      // Parquet halves the row count here after the flush has reset it: the minimum.
      rowsAtNextSizeCheck = Math.min(minCheck, maxCheck);
      flushedBytes = file.getPos();
    } else {
      rowsAtNextSizeCheck =
          Math.min(
              Math.max(minCheck, (rows + (long) (nextRowGroupSize / ((float) rowSize))) / 2),
              rows + maxCheck);
    }
  }

  /** Bytes written so far plus those buffered in the open row group. */
  long dataSize() {
    return flushedBytes + columns.getBufferedSize();
  }

  /** Writes the last row group and the footer, closes the file, and returns the footer. */
  ParquetMetadata finish() throws IOException {
    done = true;
    try {
      flushRowGroup();
      file.end(new HashMap<>());
      return file.getFooter();
    } finally {
      codecs.release();
    }
  }

  /** Closes the file without a footer (an abandoned output); after {@link #finish}, nothing. */
  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    try {
      if (columns != null) {
        columns.close();
        pages.close();
        columns = null;
      }
      file.close();
    } finally {
      codecs.release();
    }
  }

  private void startRowGroup() {
    pages =
        new ColumnChunkPageWriteStore(
            compressor,
            schema,
            properties.getAllocator(),
            properties.getColumnIndexTruncateLength(),
            properties.getPageWriteChecksumEnabled(),
            null,
            rowGroupOrdinal);
    columns = properties.newColumnWriteStore(schema, pages, pages);
    for (int i = 0; i < writers.length; i++) {
      writers[i] = columns.getColumnWriter(descriptors.get(i));
    }
  }

  private void flushRowGroup() throws IOException {
    try {
      if (rows > 0) {
        rowGroupOrdinal++;
        file.startBlock(rows);
        columns.flush();
        pages.flushToFileWriter(file);
        rows = 0;
        file.endBlock();
        nextRowGroupSize = Math.min(file.getNextRowGroupSize(), rowGroupSize);
      }
    } finally {
      columns.close();
      pages.close();
      columns = null;
    }
  }
}
