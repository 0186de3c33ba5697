package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ParquetFileOptions;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Test fixture: random overlapping sorted runs of one bucket, one to three files each, every kind
 * of version and sequence numbers that tie between runs now and then, over a key of one BIGINT, one
 * INT, a string, two integral columns or three of several types ({@link Key}); and what merges of
 * them are compared by.
 */
final class RandomRuns {

  private RandomRuns() {}

  /** Every key type with seeds 1 to 4: the cases of a test of merges over random runs. */
  static Stream<Arguments> keysAndSeeds() {
    return keysAndSeeds(false).map(a -> Arguments.of(a.get()[0], a.get()[2]));
  }

  /** Every key type, with a flag false and true, with seeds 1 to 4. */
  static Stream<Arguments> keysFlagsAndSeeds() {
    return Stream.concat(keysAndSeeds(false), keysAndSeeds(true))
        .sorted(Comparator.comparing(a -> ((Key) a.get()[0]).ordinal()));
  }

  private static Stream<Arguments> keysAndSeeds(boolean flag) {
    List<Arguments> cases = new ArrayList<>();
    for (Key key : Key.values()) {
      for (long seed = 1; seed <= 4; seed++) {
        cases.add(Arguments.of(key, flag, seed));
      }
    }
    return cases.stream();
  }

  /** Each value of a view read by its getter is what {@link ChangeRow#get} gives. */
  static void assertGettersAgree(ChangeRow row) {
    for (int c = 0; c < row.columnCount(); c++) {
      Object value = row.get(c);
      assertEquals(value == null, row.isNullAt(c));
      if (value instanceof Long) {
        assertEquals(value, row.getLong(c));
      } else if (value instanceof Integer) {
        assertEquals(value, row.getInt(c));
      }
    }
  }

  /** A key type, and how to make its value for a key number. */
  enum Key {
    BIGINT(DataType.bigint()),
    INT(DataType.intType()),
    STRING(DataType.string()),
    COMPOSITE(DataType.bigint(), DataType.intType()),
    /**
     * Integral columns narrower than INT around a string: a merge compares each column its own way
     * (the integral ones as longs, read unboxed), the first deciding most keys.
     */
    MIXED(DataType.smallint(), DataType.string(), DataType.tinyint());

    private final DataType[] columns;

    Key(DataType... columns) {
      this.columns = columns;
    }

    RowType rowType() {
      List<DataField> fields = new ArrayList<>();
      for (String name : primaryKey()) {
        fields.add(new DataField(fields.size(), name, columns[fields.size()].notNull()));
      }
      fields.add(new DataField(fields.size(), "v", DataType.bigint()));
      fields.add(new DataField(fields.size(), "s", DataType.string()));
      return new RowType(fields);
    }

    List<String> primaryKey() {
      List<String> names = new ArrayList<>(List.of("k"));
      for (int k = 2; k <= columns.length; k++) {
        names.add("k" + k);
      }
      return names;
    }

    Object[] row(int key, Random random) {
      Long v = random.nextInt(5) == 0 ? null : (long) random.nextInt(1000);
      String s = "s" + random.nextInt(50);
      switch (this) {
        case BIGINT:
          return new Object[] {(long) key - 40, v, s};
        case INT:
          return new Object[] {key - 40, v, s};
        case STRING:
          return new Object[] {String.format("key-%04d", key), v, s};
        case COMPOSITE:
          return new Object[] {(long) key / 3, key % 3 - 1, v, s};
        default:
          return new Object[] {
            (short) (key / 9 - 5), "g" + key / 3 % 3, (byte) (key % 3 - 1), v, s
          };
      }
    }
  }

  static TableSchema schema(Key key, boolean ignoreDelete) {
    return TableSchema.create(
        key.rowType(),
        List.of(),
        key.primaryKey(),
        Map.of("ignore-delete", Boolean.toString(ignoreDelete)),
        null);
  }

  /** One to six random runs, from {@code seed}. */
  static List<List<String>> writeRuns(LocalObjectStore store, TableSchema schema, long seed)
      throws Exception {
    return writeRuns(store, schema, seed, 1);
  }

  /**
   * One to six random runs of changes, from {@code seed}: as {@link #writeRuns}, but a run holds a
   * key's records up to three times, in the order they were drawn, their sequence numbers in any
   * order (as a changelog file holds a key's -U and +U).
   */
  static List<List<String>> writeChangeRuns(LocalObjectStore store, TableSchema schema, long seed)
      throws Exception {
    return writeRuns(store, schema, seed, 3);
  }

  private static List<List<String>> writeRuns(
      LocalObjectStore store, TableSchema schema, long seed, int recordsPerKey) throws Exception {
    Random random = new Random(seed);
    List<List<String>> runs = new ArrayList<>();
    int runCount = 1 + random.nextInt(6);
    for (int r = 0; r < runCount; r++) {
      runs.add(writeRun(store, schema, "run-" + r, random, recordsPerKey));
    }
    return runs;
  }

  /**
   * A run of random versions of random keys, in key order, a key's records up to {@code
   * recordsPerKey} (one: a sorted run), written as one to three files of consecutive key ranges.
   * Sequence numbers are drawn from a small range so that runs tie now and then.
   */
  private static List<String> writeRun(
      LocalObjectStore store, TableSchema schema, String name, Random random, int recordsPerKey)
      throws Exception {
    Key key = keyOf(schema);
    RowComparator order = new RowComparator(schema.keyType());
    TreeMap<Object[], List<KeyValue>> run = new TreeMap<>(order);
    int versions = 1 + random.nextInt(120);
    for (int i = 0; i < versions; i++) {
      Object[] row = key.row(random.nextInt(90), random);
      Object[] k = project(row, schema.keyIndexes());
      RowKind kind = RowKind.values()[random.nextInt(4)];
      List<KeyValue> records = run.computeIfAbsent(k, unused -> new ArrayList<>());
      if (records.size() == recordsPerKey) {
        records.remove(0);
      }
      records.add(new KeyValue(k, random.nextInt(400), kind, row));
    }
    List<KeyValue> inKeyOrder = run.values().stream().flatMap(List::stream).toList();
    int files = 1 + random.nextInt(Math.min(3, run.size()));
    List<Object[]> keys = new ArrayList<>(run.keySet());
    List<String> paths = new ArrayList<>();
    int written = 0;
    for (int f = 0; f < files; f++) {
      String path = name + "-" + f + ".parquet";
      // Files split between keys: a key's records stay in one file.
      int toKey = keys.size() * (f + 1) / files;
      try (KeyValueFileWriter writer =
          recordsPerKey == 1
              ? KeyValueFileWriter.createSortedRun(
                  store, path, schema.keyType(), schema.rowType(), ParquetFileOptions.DEFAULTS)
              : KeyValueFileWriter.create(
                  store, path, schema.keyType(), schema.rowType(), ParquetFileOptions.DEFAULTS)) {
        while (written < inKeyOrder.size()
            && (toKey == keys.size()
                || order.compare(inKeyOrder.get(written).key(), keys.get(toKey)) < 0)) {
          writer.write(inKeyOrder.get(written++));
        }
        writer.finish();
      }
      paths.add(path);
    }
    return paths;
  }

  /** Writes {@code records} as they are, in their order, into one data file at {@code path}. */
  static void writeFile(
      LocalObjectStore store, TableSchema schema, String path, KeyValue... records)
      throws Exception {
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(
            store, path, schema.keyType(), schema.rowType(), ParquetFileOptions.DEFAULTS)) {
      for (KeyValue record : records) {
        writer.write(record);
      }
      writer.finish();
    }
  }

  /** A cursor per run, over files named by their paths. */
  static List<RunCursor> cursors(
      LocalObjectStore store, TableSchema schema, List<List<String>> runs) {
    List<RunCursor> cursors = new ArrayList<>();
    for (List<String> run : runs) {
      List<DataFileMeta> files = run.stream().map(path -> Bucket.file(path, 1, 0)).toList();
      cursors.add(
          new RunCursor(
              files,
              f ->
                  KeyValueFileReader.open(
                      store, f.fileName(), schema.keyType(), schema.rowType())));
    }
    return cursors;
  }

  private static Key keyOf(TableSchema schema) {
    for (Key key : Key.values()) {
      if (key.rowType().equals(schema.rowType())) {
        return key;
      }
    }
    throw new IllegalArgumentException("no key type makes " + schema.rowType());
  }

  private static Object[] project(Object[] row, int[] indexes) {
    Object[] projected = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      projected[i] = row[indexes[i]];
    }
    return projected;
  }

  static List<KeyValueFileReader> open(
      LocalObjectStore store, TableSchema schema, List<String> paths) throws Exception {
    List<KeyValueFileReader> readers = new ArrayList<>();
    for (String path : paths) {
      readers.add(KeyValueFileReader.open(store, path, schema.keyType(), schema.rowType()));
    }
    return readers;
  }

  static void closeAll(List<? extends Closeable> readers) throws Exception {
    for (Closeable r : readers) {
      r.close();
    }
  }

  static String text(KeyValue kv) {
    return kv.kind().shortString()
        + Arrays.toString(kv.key())
        + " "
        + kv.sequenceNumber()
        + " "
        + Arrays.toString(kv.value());
  }
}
