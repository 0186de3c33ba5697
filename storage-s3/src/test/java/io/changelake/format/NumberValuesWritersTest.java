package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.factory.DefaultV1ValuesWriterFactory;
import org.apache.parquet.column.values.factory.ValuesWriterFactory;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NumberValuesWriters} against Parquet's own PARQUET_1_0 writers, value for value: the same
 * pages (bytes and encoding), whether and where the column falls back to plain, and the same
 * dictionary page, for INT32 and INT64 columns whose dictionaries stay small, fill up in the first
 * page, or fill up after pages that used them, that ascend (a sorted file's key) or stop ascending,
 * whose values are indexed densely, in a table, or first one then the other, and for columns
 * written without a dictionary.
 */
class NumberValuesWritersTest {

  /** A column's values: a name, the physical type, the dictionary threshold, and the values. */
  record Column(
      String name,
      PrimitiveTypeName type,
      int dictionaryBytes,
      int pages,
      LongSupplier values,
      boolean dictionary) {
    @Override
    public String toString() {
      return name + " " + type;
    }
  }

  static Stream<Arguments> columns() {
    List<Column> all = new ArrayList<>();
    for (PrimitiveTypeName type : List.of(PrimitiveTypeName.INT32, PrimitiveTypeName.INT64)) {
      SplittableRandom r = new SplittableRandom(type.ordinal());
      boolean ints = type == PrimitiveTypeName.INT32;
      all.add(stream("ten distinct values", type, 1 << 20, 5, () -> r.nextInt(10) - 3));
      all.add(stream("a few thousand", type, 1 << 20, 4, () -> r.nextLong(1, 5_000)));
      all.add(
          stream(
              "unique values, falling back in the first page",
              type,
              1 << 20,
              3,
              () -> ints ? r.nextInt() : r.nextLong()));
      // Past 2,000 distinct values the dictionary (8 or 16 KiB) overflows its small threshold in a
      // later page, after earlier pages used it.
      all.add(
          stream(
              "overflowing after pages that used it",
              type,
              ints ? 8 * 1024 : 16 * 1024,
              12,
              growingRange(r)));
      // A sorted file's key, falling back in the first page; then one whose runs of equal values
      // (a changelog's -U and +U, a sorted column of few values) keep the dictionary. Neither
      // builds a table.
      long[] key = {-500};
      all.add(stream("ascending", type, 1 << 20, 3, () -> key[0] += 1 + r.nextInt(3)));
      long[] run = {-500};
      all.add(
          stream(
              "never descending, in runs",
              type,
              1 << 20,
              3,
              () -> run[0] += r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0));
      // Ascending at first, then values already seen and new ones below the last: the table is
      // built from the values so far and the ids go on from there.
      all.add(stream("ascending, then repeating", type, 1 << 20, 4, ascendingThenRepeating(r)));
      all.add(
          new Column(
              "no dictionary", type, 1 << 20, 4, () -> ints ? r.nextInt() : r.nextLong(), false));
      // Small values, indexed densely, then one far off or negative: indexed in a table from there.
      long[] drawn = {0};
      all.add(
          stream(
              "small, then far off",
              type,
              1 << 20,
              4,
              () ->
                  drawn[0]++ < 5_000
                      ? r.nextLong(300)
                      : r.nextInt(50) == 0 ? -7 - r.nextInt(3) : r.nextLong(300)));
      // Values too far apart for their number at first, indexed in a table; densely once there
      // are enough of them.
      all.add(stream("spread, then many", type, 1 << 20, 6, () -> r.nextLong(40_000)));
      // Values that differ in their high bits only, and the extremes.
      long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1L << 40, 3L << 40, 1L << 62};
      all.add(
          stream(
              "high bits and extremes",
              type,
              1 << 20,
              3,
              () -> ints ? r.nextInt(64) << 26 : extremes[r.nextInt(extremes.length)]));
    }
    return all.stream().map(Arguments::of);
  }

  /**
   * Columns drawn at random, 200 seeds: each a sequence of stretches of values of one kind (small
   * and dense, from 2 to 70,000 apart, negative, far apart, ascending, the last value repeated), so
   * that a dictionary moves between its dense index and its table, in either direction, at any
   * point of any page, under dictionary limits that overflow or not.
   */
  static Stream<Arguments> randomColumns() {
    List<Column> all = new ArrayList<>();
    int[] limits = {1 << 20, 16 * 1024, 4 * 1024};
    for (int seed = 0; seed < 200; seed++) {
      SplittableRandom r = new SplittableRandom(1_000 + seed);
      PrimitiveTypeName type = r.nextBoolean() ? PrimitiveTypeName.INT32 : PrimitiveTypeName.INT64;
      all.add(
          stream(
              "random " + seed,
              type,
              limits[r.nextInt(limits.length)],
              2 + r.nextInt(5),
              stretches(r)));
    }
    return all.stream().map(Arguments::of);
  }

  /** Values in stretches of 1 to 4,000 of one kind each. */
  private static LongSupplier stretches(SplittableRandom r) {
    long[] state = {0, 0, 0}; // values left in the stretch, its kind, the last value
    long[] ranges = {2, 300, 5_000, 70_000};
    return () -> {
      if (state[0]-- <= 0) {
        state[0] = 1 + r.nextInt(4_000);
        state[1] = r.nextInt(6);
      }
      long v =
          switch ((int) state[1]) {
            case 0 -> r.nextLong(ranges[r.nextInt(ranges.length)]);
            case 1 -> -1 - r.nextLong(300);
            case 2 -> r.nextLong();
            case 3 -> state[2] + r.nextInt(3);
            case 4 -> state[2];
            default -> 200_000 + r.nextLong(100_000);
          };
      state[2] = v;
      return v;
    };
  }

  private static Column stream(
      String name, PrimitiveTypeName type, int dictionaryBytes, int pages, LongSupplier values) {
    return new Column(name, type, dictionaryBytes, pages, values, true);
  }

  /** Values drawn from a range that widens as they are drawn. */
  private static LongSupplier growingRange(SplittableRandom r) {
    long[] drawn = {0};
    return () -> r.nextLong(1 + drawn[0]++ / 4);
  }

  /** 1,000 even values ascending from 0, then values drawn from 0 to 1,500. */
  private static LongSupplier ascendingThenRepeating(SplittableRandom r) {
    long[] drawn = {0};
    return () -> drawn[0] < 1_000 ? 2 * drawn[0]++ : r.nextLong(1_500);
  }

  private static final int VALUES_PER_PAGE = 3_000;

  // BytesInput.toByteArray is deprecated for buffers it may keep; these are consumed at once.
  @SuppressWarnings("deprecation")
  @ParameterizedTest(name = "{0}")
  @MethodSource({"columns", "randomColumns"})
  void writesTheBytesOfParquetsWriters(Column column) throws IOException {
    ColumnDescriptor descriptor =
        new ColumnDescriptor(
            new String[] {"c"}, new PrimitiveType(Repetition.REQUIRED, column.type(), "c"), 0, 0);
    ValuesWriter ours = writer(new NumberValuesWriters(), column, descriptor);
    ValuesWriter theirs = writer(new DefaultV1ValuesWriterFactory(), column, descriptor);
    boolean ints = column.type() == PrimitiveTypeName.INT32;
    List<Encoding> encodings = new ArrayList<>();
    for (int page = 0; page < column.pages(); page++) {
      for (int i = 0; i < VALUES_PER_PAGE; i++) {
        long v = column.values().getAsLong();
        if (ints) {
          ours.writeInteger((int) v);
          theirs.writeInteger((int) v);
        } else {
          ours.writeLong(v);
          theirs.writeLong(v);
        }
      }
      String what = column + ", page " + page;
      assertEquals(theirs.getBufferedSize(), ours.getBufferedSize(), what);
      assertArrayEquals(theirs.getBytes().toByteArray(), ours.getBytes().toByteArray(), what);
      assertEquals(theirs.getEncoding(), ours.getEncoding(), what);
      encodings.add(ours.getEncoding());
      ours.reset();
      theirs.reset();
    }
    DictionaryPage expected = theirs.toDictPageAndClose();
    DictionaryPage actual = ours.toDictPageAndClose();
    if (expected == null) {
      assertNull(actual, column.toString());
    } else {
      assertEquals(expected.getDictionarySize(), actual.getDictionarySize(), column.toString());
      assertEquals(expected.getEncoding(), actual.getEncoding(), column.toString());
      assertArrayEquals(
          expected.getBytes().toByteArray(), actual.getBytes().toByteArray(), column.toString());
    }
    if (column.name().startsWith("overflowing")) {
      assertTrue(
          encodings.get(0) != Encoding.PLAIN && encodings.contains(Encoding.PLAIN),
          "dictionary pages first, plain ones after the overflow: " + encodings);
    }
  }

  private static ValuesWriter writer(
      ValuesWriterFactory factory, Column column, ColumnDescriptor descriptor) {
    ParquetProperties properties =
        ParquetProperties.builder()
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
            .withDictionaryPageSize(column.dictionaryBytes())
            .withDictionaryEncoding(column.dictionary())
            .withValuesWriterFactory(factory)
            .build();
    return properties.newValuesWriter(descriptor);
  }
}
