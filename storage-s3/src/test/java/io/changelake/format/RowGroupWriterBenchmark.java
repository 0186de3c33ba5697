package io.changelake.format;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CPU time of writing the merge tree's file layout for the benchmark table (key, sequence, kind,
 * three BIGINT columns, two of them nullable) through Parquet's record layer ({@code ParquetWriter}
 * with a {@code WriteSupport}, as the writer did before) and column by column ({@link
 * RowGroupWriter}), side by side in one run, alternating, three rounds. Prints; asserts nothing.
 * {@code mvn -B -o -pl storage-s3 test -Dtest=RowGroupWriterBenchmark}.
 */
class RowGroupWriterBenchmark {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 _KEY_order_id; required int64 _SEQUENCE_NUMBER;"
              + " required int32 _VALUE_KIND; required int64 order_id; optional int64 store_id;"
              + " optional int64 amount; }");
  private static final int ROWS = 2_000_000;

  @TempDir Path folder;

  @Test
  void printCpuPerRow() throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int round = 0; round < 3; round++) {
      long start = threads.getCurrentThreadCpuTime();
      writeThroughRecordLayer(folder.resolve("record-" + round));
      double recordLayer = (threads.getCurrentThreadCpuTime() - start) / 1e9;
      start = threads.getCurrentThreadCpuTime();
      writeByColumn(folder.resolve("column-" + round));
      double byColumn = (threads.getCurrentThreadCpuTime() - start) / 1e9;
      System.out.printf(
          "round %d: %d rows, record layer %.2f CPU-s (%.0f rows/CPU-s), by column %.2f CPU-s"
              + " (%.0f rows/CPU-s), by column / record layer %.2fx; bytes %d and %d%n",
          round,
          ROWS,
          recordLayer,
          ROWS / recordLayer,
          byColumn,
          ROWS / byColumn,
          recordLayer / byColumn,
          Files.size(folder.resolve("record-" + round)),
          Files.size(folder.resolve("column-" + round)));
    }
  }

  private static void writeByColumn(Path file) throws IOException {
    Random random = new Random(3);
    try (RowGroupWriter out =
        new RowGroupWriter(new LocalOutputFile(file), SCHEMA, ParquetFileOptions.DEFAULTS)) {
      for (long r = 0; r < ROWS; r++) {
        long key = r * 4 + random.nextInt(4);
        out.column(0).write(key, 0, 0);
        out.column(1).write(r, 0, 0);
        out.column(2).write(0, 0, 0);
        out.column(3).write(key, 0, 0);
        out.column(4).write((long) random.nextInt(100), 0, 1);
        out.column(5).write((long) random.nextInt(1_000_000), 0, 1);
        out.endRow();
      }
      out.finish();
    }
  }

  private static void writeThroughRecordLayer(Path file) throws IOException {
    Random random = new Random(3);
    ParquetFileOptions options = ParquetFileOptions.DEFAULTS;
    try (ParquetWriter<long[]> writer =
        new Builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .config("parquet.compression.codec.zstd.level", Integer.toString(options.zstdLevel()))
            .withCompressionCodec(options.codec())
            .withRowGroupSize(options.rowGroupSize())
            .withPageSize(options.pageSize())
            .withWriterVersion(WriterVersion.PARQUET_1_0)
            .build()) {
      long[] row = new long[6];
      for (long r = 0; r < ROWS; r++) {
        long key = r * 4 + random.nextInt(4);
        row[0] = key;
        row[1] = r;
        row[2] = 0;
        row[3] = key;
        row[4] = random.nextInt(100);
        row[5] = random.nextInt(1_000_000);
        writer.write(row);
      }
    }
  }

  private static final class Builder extends ParquetWriter.Builder<long[], Builder> {
    Builder(OutputFile file) {
      super(file);
    }

    @Override
    protected Builder self() {
      return this;
    }

    @SuppressWarnings("deprecation")
    @Override
    protected WriteSupport<long[]> getWriteSupport(Configuration conf) {
      return new RowSupport();
    }
  }

  /** Writes a row field by field through the record consumer, as the old write support did. */
  private static final class RowSupport extends WriteSupport<long[]> {
    private RecordConsumer consumer;

    @SuppressWarnings("deprecation")
    @Override
    public WriteContext init(Configuration configuration) {
      return new WriteContext(SCHEMA, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      consumer = recordConsumer;
    }

    @Override
    public void write(long[] row) {
      consumer.startMessage();
      for (int i = 0; i < row.length; i++) {
        consumer.startField(SCHEMA.getFieldName(i), i);
        if (i == 2) {
          consumer.addInteger((int) row[i]);
        } else {
          consumer.addLong(row[i]);
        }
        consumer.endField(SCHEMA.getFieldName(i), i);
      }
      consumer.endMessage();
    }
  }
}
