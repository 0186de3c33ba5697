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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.RandomRuns.Key;
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
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link RunKeys} hands a compaction, key for key, the versions the plain sort merge gives ({@link
 * SortMergedKeys}), each with its run's level, over random overlapping sorted runs: a key one run
 * holds alone where the caller asks for it alone at that level, as a view equal to it column by
 * column; a key several runs hold as all its versions, in version order, by sequence number or by a
 * value column first (a {@code sequence.field}), as views all valid until the next key.
 */
class RunKeysTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} sequence.field={1} seed={2}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysFlagsAndSeeds")
  void handsEachKeyTheVersionsTheSortMergeGivesALoneOneAsAView(
      Key key, boolean bySequenceField, long seed) throws Exception {
    TableSchema schema = schema(key, false);
    Comparator<ChangeRow> versionOrder = versionOrder(schema, bySequenceField);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeRuns(store, schema, seed);
      int[] runLevels = new int[runs.size()];
      for (int r = 0; r < runLevels.length; r++) {
        runLevels[r] = runs.size() - 1 - r;
      }
      List<List<String>> expected = sortMerged(store, schema, runs, runLevels, versionOrder);
      assertEquals(expected, gathered(store, schema, runs, runLevels, versionOrder));
    }
  }

  /**
   * A run giving a key twice (a sorted run never does) would overwrite its first view with its
   * second: the first is kept as a key-value of its own, and both versions come through.
   */
  @Test
  void aRunGivingAKeyTwiceKeepsBothVersionsAsViews() throws Exception {
    TableSchema schema = schema(Key.BIGINT, false);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      Object[] first = new Object[schema.rowType().size()];
      first[0] = 1L;
      Object[] second = first.clone();
      second[1] = 7L;
      writeFile(
          store,
          schema,
          "twice.parquet",
          new KeyValue(new Object[] {1L}, 1, RowKind.INSERT, first),
          new KeyValue(new Object[] {1L}, 2, RowKind.UPDATE_AFTER, second));
      List<List<String>> oneRun = List.of(List.of("twice.parquet"));
      int[] atLevel0 = {0};
      Comparator<ChangeRow> bySequence = Comparator.comparingLong(ChangeRow::sequenceNumber);
      List<List<String>> expected = sortMerged(store, schema, oneRun, atLevel0, bySequence);
      assertEquals(2, expected.get(0).size(), "the reference gives both");
      assertEquals(expected, gathered(store, schema, oneRun, atLevel0, bySequence));
    }
  }

  /**
   * What {@link RunKeys#next} gives, as text: lone versions of the levels above 0 asked for alone,
   * of level 0 among the key's versions.
   */
  private static List<List<String>> gathered(
      LocalObjectStore store,
      TableSchema schema,
      List<List<String>> runs,
      int[] runLevels,
      Comparator<ChangeRow> versionOrder)
      throws Exception {
    List<List<String>> actual = new ArrayList<>();
    int lone = 0;
    List<RunCursor> cursors = cursors(store, schema, runs);
    try {
      RunKeys keys =
          new RunKeys(cursors, runLevels, new RowComparator(schema.keyType()), versionOrder);
      KeyVersions versions = new KeyVersions();
      // The levels asked about are those of keys one run alone holds: the last is a lone one's.
      int[] askedLevel = {-1};
      IntPredicate alone =
          level -> {
            askedLevel[0] = level;
            return level > 0;
          };
      while (keys.next(versions, alone)) {
        ChangeRow row = keys.lone();
        if (row != null) {
          lone++;
          assertTrue(askedLevel[0] > 0);
          assertGettersAgree(row);
          actual.add(List.of(askedLevel[0] + " " + text(row.toKeyValue())));
        } else {
          assertTrue(
              versions.size() > 1 || versions.level(0) == 0,
              "a key of one version comes alone where asked for alone");
          int views = 0;
          for (int i = 0; i < versions.size(); i++) {
            views += versions.record(i) instanceof KeyValue ? 0 : 1;
            assertGettersAgree(versions.record(i));
          }
          // Views, each but a version its run overwrote (RunKeys#next copies it).
          assertTrue(views > 0, views + " views");
          actual.add(texts(versions));
        }
      }
    } finally {
      closeAll(cursors);
    }
    assertTrue(runs.size() == 1 || (lone > 0 && lone < actual.size()), "lone " + lone);
    return actual;
  }

  /**
   * For a table whose newest version wins, {@link RunKeys#nextNewest} gives each key's newest
   * version and its version at the top level, as the sort merge orders them, each a view whose
   * getters agree; the same view when the top alone holds the key.
   */
  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysAndSeeds")
  void givesEachKeysNewestVersionAndItsVersionAtTheTopAsViews(Key key, long seed) throws Exception {
    TableSchema schema = schema(key, false);
    Comparator<ChangeRow> versionOrder = versionOrder(schema, false);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeRuns(store, schema, seed);
      int[] runLevels = new int[runs.size()];
      for (int r = 0; r < runLevels.length; r++) {
        runLevels[r] = runs.size() - 1 - r;
      }
      int top = runLevels[0];
      List<String> expected = new ArrayList<>();
      for (List<String> versions : sortMerged(store, schema, runs, runLevels, versionOrder)) {
        String newest = versions.get(versions.size() - 1);
        String atTop =
            versions.stream().filter(v -> v.startsWith(top + " ")).findFirst().orElse("none");
        expected.add(withoutLevel(newest) + " | " + withoutLevel(atTop));
      }
      List<String> actual = new ArrayList<>();
      int together = 0;
      List<RunCursor> cursors = cursors(store, schema, runs);
      try {
        RunKeys keys =
            new RunKeys(cursors, runLevels, new RowComparator(schema.keyType()), versionOrder);
        while (keys.nextNewest(top)) {
          ChangeRow newest = keys.newest();
          assertGettersAgree(newest);
          String newestText = text(newest.toKeyValue());
          ChangeRow atTop = keys.atLevel();
          String atTopText = "none";
          if (atTop != null) {
            assertGettersAgree(atTop);
            atTopText = text(atTop.toKeyValue());
            together += atTop == newest ? 1 : 0;
          }
          actual.add(newestText + " | " + atTopText);
        }
      } finally {
        closeAll(cursors);
      }
      assertEquals(expected, actual);
      assertTrue(runs.size() == 1 || together < actual.size(), "lone at the top " + together);
    }
  }

  private static String withoutLevel(String version) {
    return version.equals("none") ? version : version.substring(version.indexOf(' ') + 1);
  }

  /** By sequence number; or by column {@code v}, nulls first, then by sequence number. */
  private static Comparator<ChangeRow> versionOrder(TableSchema schema, boolean bySequenceField) {
    Comparator<ChangeRow> bySequence = Comparator.comparingLong(ChangeRow::sequenceNumber);
    if (!bySequenceField) {
      return bySequence;
    }
    int v = schema.rowType().indexOf("v");
    return Comparator.comparing(
            (ChangeRow kv) -> (Long) kv.get(v), Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(bySequence);
  }

  /** Each key's versions by the sort merge of every file, each with the level of its run. */
  private static List<List<String>> sortMerged(
      LocalObjectStore store,
      TableSchema schema,
      List<List<String>> runs,
      int[] runLevels,
      Comparator<ChangeRow> versionOrder)
      throws Exception {
    List<String> paths = new ArrayList<>();
    List<Integer> fileLevels = new ArrayList<>();
    for (int r = 0; r < runs.size(); r++) {
      for (String path : runs.get(r)) {
        paths.add(path);
        fileLevels.add(runLevels[r]);
      }
    }
    List<KeyValueFileReader> readers = open(store, schema, paths);
    try {
      RowComparator keyOrder = new RowComparator(schema.keyType());
      SortMergeReader merged = new SortMergeReader(readers, keyOrder, versionOrder);
      KeyVersions versions = new KeyVersions();
      List<List<String>> keys = new ArrayList<>();
      int[] levels = fileLevels.stream().mapToInt(Integer::intValue).toArray();
      SortMergedKeys sortMerged = new SortMergedKeys(merged, levels, keyOrder);
      while (sortMerged.next(versions)) {
        keys.add(texts(versions));
      }
      return keys;
    } finally {
      closeAll(readers);
    }
  }

  private static List<String> texts(KeyVersions versions) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < versions.size(); i++) {
      texts.add(versions.level(i) + " " + text(versions.record(i).toKeyValue()));
    }
    return texts;
  }
}
