package io.changelake.format;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/** Parquet files written and read by Parquet itself: the reference this package's readers meet. */
final class ParquetFiles {

  private ParquetFiles() {}

  /**
   * A writer of small dictionaries, pages and row groups: many pages and row groups from a few
   * thousand rows, and a fall-back from dictionary to plain.
   */
  static ParquetWriter<Group> smallPages(
      Path file,
      MessageType schema,
      WriterVersion version,
      boolean dictionary,
      CompressionCodecName codec)
      throws IOException {
    return ExampleParquetWriter.builder(new LocalOutputFile(file))
        .withConf(new PlainParquetConfiguration())
        .withType(schema)
        .withWriterVersion(version)
        .withDictionaryEncoding(dictionary)
        .withCompressionCodec(codec)
        .withDictionaryPageSize(512)
        .withPageSize(1024)
        .withPageRowCountLimit(700)
        .withRowGroupSize(64 * 1024L)
        .build();
  }

  /** Parquet's own reader of {@code file}. */
  static ParquetFileReader open(Path file) throws IOException {
    return ParquetFileReader.open(
        new LocalInputFile(file),
        ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
  }
}
