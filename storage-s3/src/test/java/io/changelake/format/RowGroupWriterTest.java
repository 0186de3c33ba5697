package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowGroupWriterTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional int64 few; optional binary s (STRING);"
              + " required int32 kind; }");

  @TempDir Path folder;

  @Test
  void cutsRowGroupsAndPagesWhereParquetWriterDoes() throws IOException {
    ParquetFileOptions options =
        ParquetFileOptions.DEFAULTS.withRowGroupSize(256 * 1024L).withPageSize(16 * 1024);
    int rows = 200_000;
    Path ours = folder.resolve("ours.parquet");
    Path theirs = folder.resolve("theirs.parquet");

    Random random = new Random(11);
    ParquetMetadata written;
    try (RowGroupWriter out = new RowGroupWriter(new LocalOutputFile(ours), SCHEMA, options)) {
      for (int r = 0; r < rows; r++) {
        out.column(0).write(random.nextLong(), 0, 0);
        if (r % 5 == 0) {
          out.column(1).writeNull(0, 0);
        } else {
          out.column(1).write((long) random.nextInt(10), 0, 1);
        }
        if (r % 7 == 0) {
          out.column(2).writeNull(0, 0);
        } else {
          out.column(2).write(Binary.fromString("s" + random.nextInt(1000)), 0, 1);
        }
        out.column(3).write(r % 3, 0, 0);
        out.endRow();
      }
      written = out.finish();
    }

    random = new Random(11);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    Configuration conf = new Configuration(false);
    conf.set("parquet.compression.codec.zstd.level", Integer.toString(options.zstdLevel()));
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(theirs))
            .withConf(conf)
            .withType(SCHEMA)
            .withCompressionCodec(options.codec())
            .withRowGroupSize(options.rowGroupSize())
            .withPageSize(options.pageSize())
            .withWriterVersion(WriterVersion.PARQUET_1_0)
            .build()) {
      for (int r = 0; r < rows; r++) {
        Group group = groups.newGroup().append("id", random.nextLong());
        if (r % 5 != 0) {
          group.append("few", (long) random.nextInt(10));
        }
        if (r % 7 != 0) {
          group.append("s", "s" + random.nextInt(1000));
        }
        group.append("kind", r % 3);
        writer.write(group);
      }
    }

    List<BlockMetaData> expected = footer(theirs).getBlocks();
    List<BlockMetaData> actual = footer(ours).getBlocks();
    assertTrue(expected.size() > 3, "several row groups: " + expected.size());
    assertEquals(expected.size(), actual.size());
    assertEquals(expected.size(), written.getBlocks().size());
    for (int b = 0; b < expected.size(); b++) {
      assertEquals(expected.get(b).getRowCount(), actual.get(b).getRowCount(), "rows of " + b);
      for (int c = 0; c < SCHEMA.getFieldCount(); c++) {
        ColumnChunkMetaData e = expected.get(b).getColumns().get(c);
        ColumnChunkMetaData a = actual.get(b).getColumns().get(c);
        assertEquals(e.getStartingPos(), a.getStartingPos(), "start of chunk " + b + "/" + c);
        assertEquals(e.getTotalSize(), a.getTotalSize(), "size of chunk " + b + "/" + c);
        assertEquals(e.getEncodings(), a.getEncodings(), "encodings of chunk " + b + "/" + c);
        assertEquals(e.getStatistics(), a.getStatistics(), "stats of chunk " + b + "/" + c);
      }
    }
  }

  private static ParquetMetadata footer(Path file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new LocalInputFile(file),
            ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
      return reader.getFooter();
    }
  }
}
