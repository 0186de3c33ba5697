package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ParquetFileOptions;
import io.changelake.mergetree.merge.MergeFunctions;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NewestVersionMerge} gives, key for key, what the merge engine's path gives a deduplicate
 * table (the sort merge, the versions of each key, the deduplicate merge, additions kept), over
 * random overlapping sorted runs of one to three files each: every kind of version, ties of
 * sequence numbers between runs, with and without {@code ignore-delete}, for unboxed keys (BIGINT,
 * INT) and compared ones (a string, a composite key).
 */
class NewestVersionMergeTest {

  @TempDir Path dir;

  /** A key type, and how to make its value for a key number. */
  private enum Key {
    BIGINT(DataType.bigint()),
    INT(DataType.intType()),
    STRING(DataType.string()),
    COMPOSITE(DataType.bigint());

    final DataType first;

    Key(DataType first) {
      this.first = first;
    }

    RowType rowType() {
      List<DataField> fields = new ArrayList<>();
      fields.add(new DataField(0, "k", first.notNull()));
      if (this == COMPOSITE) {
        fields.add(new DataField(1, "k2", DataType.intType().notNull()));
      }
      fields.add(new DataField(2, "v", DataType.bigint()));
      fields.add(new DataField(3, "s", DataType.string()));
      return new RowType(fields);
    }

    List<String> primaryKey() {
      return this == COMPOSITE ? List.of("k", "k2") : List.of("k");
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
        default:
          return new Object[] {(long) key / 3, key % 3 - 1, v, s};
      }
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (Key key : Key.values()) {
      for (boolean ignoreDelete : List.of(false, true)) {
        for (long seed = 1; seed <= 4; seed++) {
          cases.add(Arguments.of(key, ignoreDelete, seed));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} ignore-delete={1} seed={2}")
  @MethodSource("cases")
  void givesTheNewestVersionOfEachKeyAsTheDeduplicateMergeDoes(
      Key key, boolean ignoreDelete, long seed) throws Exception {
    TableSchema schema = schema(key, ignoreDelete);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeRuns(store, schema, seed);
      List<String> expected =
          reference(store, schema, runs.stream().flatMap(List::stream).toList(), false);
      List<String> actual = new ArrayList<>();
      List<RunCursor> cursors = cursors(store, schema, runs);
      try {
        NewestVersionMerge merge =
            new NewestVersionMerge(cursors, new RowComparator(schema.keyType()), ignoreDelete);
        merge.forEachRemaining(kv -> actual.add(text(kv)));
      } finally {
        closeAll(cursors);
      }
      assertFalse(expected.isEmpty());
      assertEquals(expected, actual);
      assertEquals(
          expected,
          viewed(
              store,
              schema,
              runs,
              c -> new NewestVersionMerge(c, new RowComparator(schema.keyType()), ignoreDelete)));
    }
  }

  static Stream<Arguments> keys() {
    List<Arguments> cases = new ArrayList<>();
    for (Key key : Key.values()) {
      for (long seed = 1; seed <= 4; seed++) {
        cases.add(Arguments.of(key, seed));
      }
    }
    return cases.stream();
  }

  /**
   * What a compaction that keeps retractions writes of a table whose newest version wins: the merge
   * engine's result for each key whatever its kind, a -U or -D as it is stored.
   */
  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("keys")
  void keepingRetractionsGivesEachKeysNewestVersionOfAnyKind(Key key, long seed) throws Exception {
    TableSchema schema = schema(key, false);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeRuns(store, schema, seed);
      List<String> expected =
          reference(store, schema, runs.stream().flatMap(List::stream).toList(), true);
      assertTrue(expected.stream().anyMatch(row -> row.startsWith("-")), "retractions kept");
      assertEquals(
          expected,
          viewed(
              store,
              schema,
              runs,
              c -> NewestVersionMerge.keepingRetractions(c, new RowComparator(schema.keyType()))));
    }
  }

  private static TableSchema schema(Key key, boolean ignoreDelete) {
    return TableSchema.create(
        key.rowType(),
        List.of(),
        key.primaryKey(),
        Map.of("ignore-delete", Boolean.toString(ignoreDelete)),
        null);
  }

  /** One to six random runs, from {@code seed}. */
  private List<List<String>> writeRuns(LocalObjectStore store, TableSchema schema, long seed)
      throws Exception {
    Random random = new Random(seed);
    List<List<String>> runs = new ArrayList<>();
    int runCount = 1 + random.nextInt(6);
    for (int r = 0; r < runCount; r++) {
      runs.add(writeRun(store, schema, "run-" + r, random));
    }
    return runs;
  }

  /**
   * The merge's rows taken as views ({@link NewestVersionMerge#nextRow}), the first after {@link
   * NewestVersionMerge#hasNext} took it as a key-value: each value read by its getter must be what
   * {@link ChangeRow#get} gives, and the row kept is what the view showed.
   */
  private static List<String> viewed(
      LocalObjectStore store,
      TableSchema schema,
      List<List<String>> runs,
      Function<List<RunCursor>, NewestVersionMerge> mergeOf)
      throws Exception {
    List<String> rows = new ArrayList<>();
    List<RunCursor> cursors = cursors(store, schema, runs);
    try {
      NewestVersionMerge merge = mergeOf.apply(cursors);
      merge.hasNext();
      for (ChangeRow row = merge.nextRow(); row != null; row = merge.nextRow()) {
        for (int c = 0; c < row.columnCount(); c++) {
          Object value = row.get(c);
          assertEquals(value == null, row.isNullAt(c));
          if (value instanceof Long) {
            assertEquals(value, row.getLong(c));
          } else if (value instanceof Integer) {
            assertEquals(value, row.getInt(c));
          }
        }
        rows.add(text(row.toKeyValue()));
      }
      assertNull(merge.nextRow(), "the end stays the end");
    } finally {
      closeAll(cursors);
    }
    return rows;
  }

  @Test
  void aFileHoldingAKeyTwiceGivesItsLaterVersion() throws Exception {
    TableSchema schema =
        TableSchema.create(Key.BIGINT.rowType(), List.of(), List.of("k"), Map.of(), null);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      try (KeyValueFileWriter writer =
          KeyValueFileWriter.create(
              store,
              "twice.parquet",
              schema.keyType(),
              schema.rowType(),
              ParquetFileOptions.DEFAULTS)) {
        writer.write(kv(1, 1, RowKind.INSERT, 10L));
        writer.write(kv(1, 2, RowKind.UPDATE_AFTER, 11L));
        writer.write(kv(2, 3, RowKind.INSERT, 20L));
        writer.write(kv(2, 4, RowKind.DELETE, 20L));
        writer.write(kv(3, 5, RowKind.INSERT, 30L));
        writer.finish();
      }
      try (KeyValueFileReader file =
          KeyValueFileReader.open(store, "twice.parquet", schema.keyType(), schema.rowType())) {
        assertTrue(file.hasIntegralKey());
      }
      List<RunCursor> cursors = cursors(store, schema, List.of(List.of("twice.parquet")));
      try {
        List<String> rows = new ArrayList<>();
        new NewestVersionMerge(cursors, new RowComparator(schema.keyType()), false)
            .forEachRemaining(kv -> rows.add(text(kv)));
        assertEquals(List.of("+U[1] 2 [1, 11, s]", "+I[3] 5 [3, 30, s]"), rows);
      } finally {
        closeAll(cursors);
      }
    }
  }

  private static KeyValue kv(long key, long sequence, RowKind kind, long v) {
    return new KeyValue(new Object[] {key}, sequence, kind, new Object[] {key, v, "s"});
  }

  /**
   * A sorted run of random versions of random keys: each key once, in key order, written as one to
   * three files of consecutive key ranges. Sequence numbers are drawn from a small range so that
   * runs tie now and then.
   */
  private List<String> writeRun(
      LocalObjectStore store, TableSchema schema, String name, Random random) throws Exception {
    Key key = keyOf(schema);
    RowComparator order = new RowComparator(schema.keyType());
    TreeMap<Object[], KeyValue> run = new TreeMap<>(order);
    int versions = 1 + random.nextInt(120);
    for (int i = 0; i < versions; i++) {
      Object[] row = key.row(random.nextInt(90), random);
      Object[] k = project(row, schema.keyIndexes());
      RowKind kind = RowKind.values()[random.nextInt(4)];
      run.put(k, new KeyValue(k, random.nextInt(400), kind, row));
    }
    List<KeyValue> versionsInKeyOrder = new ArrayList<>(run.values());
    int files = 1 + random.nextInt(Math.min(3, versionsInKeyOrder.size()));
    List<String> paths = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      String path = name + "-" + f + ".parquet";
      try (KeyValueFileWriter writer =
          KeyValueFileWriter.createSortedRun(
              store, path, schema.keyType(), schema.rowType(), ParquetFileOptions.DEFAULTS)) {
        int from = versionsInKeyOrder.size() * f / files;
        int to = versionsInKeyOrder.size() * (f + 1) / files;
        for (KeyValue kv : versionsInKeyOrder.subList(from, to)) {
          writer.write(kv);
        }
        writer.finish();
      }
      paths.add(path);
    }
    return paths;
  }

  /** A cursor per run, over files named by their paths. */
  private static List<RunCursor> cursors(
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
    if (schema.primaryKeys().size() == 2) {
      return Key.COMPOSITE;
    }
    DataType type = schema.rowType().type(0);
    return type.root() == DataType.bigint().root()
        ? Key.BIGINT
        : type.root() == DataType.intType().root() ? Key.INT : Key.STRING;
  }

  private static Object[] project(Object[] row, int[] indexes) {
    Object[] projected = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      projected[i] = row[indexes[i]];
    }
    return projected;
  }

  /**
   * The merge engine's path: sort merge, versions per key, deduplicate; additions kept, and
   * retractions when {@code keepRetractions}.
   */
  private static List<String> reference(
      LocalObjectStore store, TableSchema schema, List<String> paths, boolean keepRetractions)
      throws Exception {
    List<KeyValueFileReader> readers = open(store, schema, paths);
    try {
      RowComparator keyOrder = new RowComparator(schema.keyType());
      Comparator<KeyValue> bySequence = Comparator.comparingLong(KeyValue::sequenceNumber);
      SortMergeReader merged = new SortMergeReader(readers, keyOrder, bySequence);
      KeyVersions versions = new KeyVersions(keyOrder);
      KeyMerge keyMerge = new KeyMerge(MergeFunctions.create(schema), bySequence, false);
      List<String> rows = new ArrayList<>();
      while (versions.fill(merged, new int[readers.size()])) {
        KeyValue result = keyMerge.reduce(versions);
        if (result != null && (keepRetractions || result.kind().isAdd())) {
          rows.add(text(result));
        }
      }
      return rows;
    } finally {
      closeAll(readers);
    }
  }

  private static List<KeyValueFileReader> open(
      LocalObjectStore store, TableSchema schema, List<String> paths) throws Exception {
    List<KeyValueFileReader> readers = new ArrayList<>();
    for (String path : paths) {
      readers.add(KeyValueFileReader.open(store, path, schema.keyType(), schema.rowType()));
    }
    return readers;
  }

  private static void closeAll(List<? extends Closeable> readers) throws Exception {
    for (Closeable r : readers) {
      r.close();
    }
  }

  private static String text(KeyValue kv) {
    return kv.kind().shortString()
        + Arrays.toString(kv.key())
        + " "
        + kv.sequenceNumber()
        + " "
        + Arrays.toString(kv.value());
  }
}
