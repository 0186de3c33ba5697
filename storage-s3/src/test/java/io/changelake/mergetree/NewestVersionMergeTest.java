package io.changelake.mergetree;

import static io.changelake.mergetree.RandomRuns.assertGettersAgree;
import static io.changelake.mergetree.RandomRuns.closeAll;
import static io.changelake.mergetree.RandomRuns.cursors;
import static io.changelake.mergetree.RandomRuns.open;
import static io.changelake.mergetree.RandomRuns.schema;
import static io.changelake.mergetree.RandomRuns.text;
import static io.changelake.mergetree.RandomRuns.writeFile;
import static io.changelake.mergetree.RandomRuns.writeRuns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.RandomRuns.Key;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
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

  @ParameterizedTest(name = "{0} ignore-delete={1} seed={2}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysFlagsAndSeeds")
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

  /**
   * What a compaction that keeps retractions writes of a table whose newest version wins: the merge
   * engine's result for each key whatever its kind, a -U or -D as it is stored.
   */
  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysAndSeeds")
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
        assertGettersAgree(row);
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
      writeFile(
          store,
          schema,
          "twice.parquet",
          kv(1, 1, RowKind.INSERT, 10L),
          kv(1, 2, RowKind.UPDATE_AFTER, 11L),
          kv(2, 3, RowKind.INSERT, 20L),
          kv(2, 4, RowKind.DELETE, 20L),
          kv(3, 5, RowKind.INSERT, 30L));
      try (KeyValueFileReader file =
          KeyValueFileReader.open(store, "twice.parquet", schema.keyType(), schema.rowType())) {
        assertTrue(file.readsKeyColumnUnboxed(0));
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
   * The merge engine's path: sort merge, versions per key, deduplicate; additions kept, and
   * retractions when {@code keepRetractions}.
   */
  private static List<String> reference(
      LocalObjectStore store, TableSchema schema, List<String> paths, boolean keepRetractions)
      throws Exception {
    List<KeyValueFileReader> readers = open(store, schema, paths);
    try {
      RowComparator keyOrder = new RowComparator(schema.keyType());
      Comparator<ChangeRow> bySequence = Comparator.comparingLong(ChangeRow::sequenceNumber);
      SortMergeReader merged = new SortMergeReader(readers, keyOrder, bySequence);
      KeyVersions versions = new KeyVersions();
      KeyMerge keyMerge = new KeyMerge(MergeFunctions.create(schema), bySequence, false);
      List<String> rows = new ArrayList<>();
      SortMergedKeys keys = new SortMergedKeys(merged, new int[readers.size()], keyOrder);
      while (keys.next(versions)) {
        ChangeRow result = keyMerge.reduce(versions);
        if (result != null && (keepRetractions || result.kind().isAdd())) {
          rows.add(text(result.toKeyValue()));
        }
      }
      return rows;
    } finally {
      closeAll(readers);
    }
  }
}
