package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ParquetFileOptions;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NewestVersionMerge} gives, key for key, what the merge engine's path gives a deduplicate
 * table (the sort merge, the versions of each key, the deduplicate merge, additions kept), over
 * random overlapping files: every kind of version, ties of sequence numbers between files, with and
 * without {@code ignore-delete}, for unboxed keys (BIGINT, INT) and compared ones (a string, a
 * composite key).
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
    TableSchema schema =
        TableSchema.create(
            key.rowType(),
            List.of(),
            key.primaryKey(),
            Map.of("ignore-delete", Boolean.toString(ignoreDelete)),
            null);
    Random random = new Random(seed);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<String> paths = new ArrayList<>();
      int files = 1 + random.nextInt(6);
      for (int f = 0; f < files; f++) {
        paths.add(writeRun(store, schema, "run-" + f + ".parquet", random));
      }
      List<String> expected = reference(store, schema, paths);
      List<String> actual = new ArrayList<>();
      List<KeyValueFileReader> readers = open(store, schema, paths);
      try {
        NewestVersionMerge merge =
            new NewestVersionMerge(readers, new RowComparator(schema.keyType()), ignoreDelete);
        merge.forEachRemaining(kv -> actual.add(text(kv)));
      } finally {
        closeAll(readers);
      }
      assertFalse(expected.isEmpty());
      assertEquals(expected, actual);
    }
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
      List<KeyValueFileReader> readers = open(store, schema, List.of("twice.parquet"));
      try {
        assertTrue(readers.get(0).hasIntegralKey());
        List<String> rows = new ArrayList<>();
        new NewestVersionMerge(readers, new RowComparator(schema.keyType()), false)
            .forEachRemaining(kv -> rows.add(text(kv)));
        assertEquals(List.of("+U[1] 2 [1, 11, s]", "+I[3] 5 [3, 30, s]"), rows);
      } finally {
        closeAll(readers);
      }
    }
  }

  private static KeyValue kv(long key, long sequence, RowKind kind, long v) {
    return new KeyValue(new Object[] {key}, sequence, kind, new Object[] {key, v, "s"});
  }

  /**
   * A sorted run of random versions of random keys: each key once, in key order. Sequence numbers
   * are drawn from a small range so that files tie now and then.
   */
  private String writeRun(LocalObjectStore store, TableSchema schema, String path, Random random)
      throws Exception {
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
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.createSortedRun(
            store, path, schema.keyType(), schema.rowType(), ParquetFileOptions.DEFAULTS)) {
      for (KeyValue kv : run.values()) {
        writer.write(kv);
      }
      writer.finish();
    }
    return path;
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

  /** The merge engine's path: sort merge, versions per key, deduplicate, additions kept. */
  private static List<String> reference(
      LocalObjectStore store, TableSchema schema, List<String> paths) throws Exception {
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
        if (result != null && result.kind().isAdd()) {
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

  private static void closeAll(List<KeyValueFileReader> readers) throws Exception {
    for (KeyValueFileReader r : readers) {
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
