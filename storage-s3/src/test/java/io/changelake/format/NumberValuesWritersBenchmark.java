package io.changelake.format;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.junit.jupiter.api.Test;

/**
 * CPU time of encoding an INT64 column's pages by {@link NumberValuesWriters} and by Parquet's own
 * PARQUET_1_0 writers, side by side in one run, alternating, for columns of 100, 10,000 and 60,000
 * distinct values (the dictionary kept), a sorted key (never descending, as a changelog file's key
 * column), and unique random values (the dictionary dropped at the end of the first page). Both
 * write the same bytes ({@link NumberValuesWritersTest}); the byte counts printed are the check.
 * Prints; asserts nothing. {@code mvn -B -o -pl storage-s3 test
 * -Dtest=NumberValuesWritersBenchmark}.
 */
class NumberValuesWritersBenchmark {

  private static final int VALUES = 10_000_000;
  private static final int VALUES_PER_PAGE = 65_536;
  private static final int ROUNDS = 4;

  private record Column(String name, LongUnaryOperator value) {}

  @Test
  void printCpuPerValue() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Column[] columns = {
      new Column("100 distinct", i -> mix(i) % 100),
      new Column("10,000 distinct", i -> mix(i) % 10_000),
      new Column("60,000 distinct", i -> mix(i) % 60_000),
      new Column("sorted key in pairs", i -> i / 2),
      new Column("unique random", NumberValuesWritersBenchmark::mix),
    };
    // Each column's values are drawn once, outside the timing, which then holds the encoding alone.
    long[][] values = new long[columns.length][];
    for (int c = 0; c < columns.length; c++) {
      values[c] = new long[VALUES];
      for (int i = 0; i < VALUES; i++) {
        values[c][i] = columns[c].value().applyAsLong(i);
      }
    }
    for (int round = 0; round < ROUNDS; round++) {
      for (int c = 0; c < columns.length; c++) {
        long[] theirs = encode(new DefaultV1ValuesWriterFactory(), values[c], threads);
        long[] ours = encode(new NumberValuesWriters(), values[c], threads);
        System.out.printf(
            "round %d, %s: Parquet's %.3f CPU-s, ours %.3f CPU-s, ours/Parquet's %.2fx values per"
                + " CPU-second; bytes %d and %d%n",
            round,
            columns[c].name(),
            theirs[0] / 1e9,
            ours[0] / 1e9,
            (double) theirs[0] / ours[0],
            theirs[1],
            ours[1]);
      }
    }
  }

  /** Encodes a column's values: the thread's CPU nanoseconds, and the bytes. */
  private static long[] encode(ValuesWriterFactory factory, long[] values, ThreadMXBean threads) {
    ColumnDescriptor descriptor =
        new ColumnDescriptor(
            new String[] {"c"},
            new PrimitiveType(Repetition.REQUIRED, PrimitiveTypeName.INT64, "c"),
            0,
            0);
    ParquetProperties properties =
        ParquetProperties.builder()
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withValuesWriterFactory(factory)
            .build();
    long start = threads.getCurrentThreadCpuTime();
    ValuesWriter writer = properties.newValuesWriter(descriptor);
    long bytes = 0;
    for (int i = 0; i < values.length; i++) {
      writer.writeLong(values[i]);
      if ((i + 1) % VALUES_PER_PAGE == 0 || i == values.length - 1) {
        bytes += writer.getBytes().size();
        writer.reset();
      }
    }
    DictionaryPage dictionary = writer.toDictPageAndClose();
    if (dictionary != null) {
      bytes += dictionary.getBytes().size();
    }
    return new long[] {threads.getCurrentThreadCpuTime() - start, bytes};
  }

  /** A well-spread non-negative value of {@code i}. */
  private static long mix(long i) {
    return new SplittableRandom(i).nextLong() >>> 1;
  }
}
