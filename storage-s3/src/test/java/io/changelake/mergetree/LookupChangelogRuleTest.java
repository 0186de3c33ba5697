package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.row;
import static io.changelake.mergetree.KeyMergeTest.versions;
import static io.changelake.mergetree.RandomRuns.assertGettersAgree;
import static io.changelake.mergetree.RandomRuns.closeAll;
import static io.changelake.mergetree.RandomRuns.cursors;
import static io.changelake.mergetree.RandomRuns.open;
import static io.changelake.mergetree.RandomRuns.text;
import static io.changelake.mergetree.RandomRuns.writeRuns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.RandomRuns.Key;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each row of {@link LookupChangelogRule}'s table, with a {@link Recording} merge engine (its
 * result lists the sequence numbers merged) and a lookup that records where it was asked.
 */
class LookupChangelogRuleTest {

  private static final RowType ROW =
      RowType.of(
          new String[] {"id", "amount"}, new DataType[] {DataType.bigint(), DataType.bigint()});
  private static final int MAX_LEVEL = 5;

  @TempDir Path dir;

  private final List<String> lookups = new ArrayList<>();
  private final List<String> changelog = new ArrayList<>();
  private KeyValue stored;

  @Test
  void aVersionFromAboveLevelZeroIsTheBeforeImageAndNoLookupIsMade() throws IOException {
    KeyValue upper = row(1, 3, RowKind.INSERT, 0);
    KeyVersions versions =
        versions(new int[] {0, 2}, List.of(row(1, 8, RowKind.INSERT, 0)), List.of(upper));

    KeyValue after = keyValue(rule(true, false).merge(versions, 2, MAX_LEVEL, this::emit));

    assertEquals(List.of(3L, 8L), after.value()[0]);
    assertEquals(List.of(), lookups);
    assertEquals(List.of("-U 3", "+U 8"), changelog);
  }

  @Test
  void withoutAnUpperVersionTheKeyIsLookedUpAboveTheOutputLevelAndMergedAtItsPlace()
      throws IOException {
    stored = row(1, 5, RowKind.INSERT, 0);
    KeyVersions versions =
        versions(
            new int[] {0, 0},
            List.of(row(1, 9, RowKind.INSERT, 0)),
            List.of(row(1, 2, RowKind.INSERT, 0)));

    KeyValue after = keyValue(rule(true, false).merge(versions, 3, MAX_LEVEL, this::emit));

    assertEquals(List.of("key 1 from level 4"), lookups);
    assertEquals(List.of(2L, 5L, 9L), after.value()[0]);
    assertEquals(List.of("-U 5", "+U 9"), changelog);
  }

  @Test
  void aNewKeyIsAnInsertAndAtTheTopLevelNothingIsLookedUp() throws IOException {
    KeyVersions versions = versions(new int[] {0}, List.of(row(1, 4, RowKind.INSERT, 0)));

    KeyValue below = keyValue(rule(true, false).merge(versions, 2, MAX_LEVEL, this::emit));
    assertEquals(List.of("key 1 from level 3"), lookups);
    assertEquals(List.of("+I 4"), changelog);
    assertEquals(List.of(4L), below.value()[0]);

    lookups.clear();
    changelog.clear();
    rule(true, false).merge(versions, MAX_LEVEL, MAX_LEVEL, this::emit);
    assertEquals(List.of(), lookups);
    assertEquals(List.of("+I 4"), changelog);
  }

  @Test
  void aFirstRowTableDropsTheNewerRowsOfAKeyFoundAbove() throws IOException {
    stored = row(1, 1, RowKind.INSERT, 0);
    KeyVersions versions = versions(new int[] {0}, List.of(row(1, 7, RowKind.INSERT, 0)));

    assertNull(rule(true, true).merge(versions, 1, MAX_LEVEL, this::emit));
    assertEquals(List.of(), changelog);
  }

  @Test
  void aProducerOtherThanLookupLooksUpWithoutEmitting() throws IOException {
    KeyVersions versions = versions(new int[] {0}, List.of(row(1, 7, RowKind.INSERT, 0)));

    KeyValue after = keyValue(rule(false, true).merge(versions, 1, MAX_LEVEL, this::emit));

    assertEquals(List.of("key 1 from level 2"), lookups);
    assertEquals(List.of(7L), after.value()[0]);
    assertEquals(List.of(), changelog);
  }

  @Test
  void aKeyTakenOnlyFromAboveLevelZeroGoesThroughTheEngineEvenAloneAndEmitsNothing()
      throws IOException {
    KeyValue upper = row(1, 3, RowKind.UPDATE_AFTER, 0);
    KeyVersions versions =
        versions(new int[] {1, 3}, List.of(upper), List.of(row(1, 2, RowKind.INSERT, 0)));

    KeyValue after = keyValue(rule(true, false).merge(versions, 4, MAX_LEVEL, this::emit));

    assertEquals(List.of(3L), after.value()[0]);
    assertEquals(RowKind.INSERT, after.kind());
    assertEquals(List.of(), lookups);
    assertEquals(List.of(), changelog);
  }

  /**
   * For a table whose newest version wins, {@link LookupChangelogRule#mergeNewest} over the views
   * {@link RunKeys#nextNewestOverUpper} gives stores, emits and looks up, key for key, what {@link
   * LookupChangelogRule#merge} does over the sort merge's key-values: over random runs, one to
   * three of them at level 0 and the others at levels above, sequence numbers in any order across
   * levels, and a lookup that finds nothing, a retraction, an older version or one not older than
   * any the compaction takes; output below the top level and at it.
   */
  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysAndSeeds")
  void mergeNewestOverViewsStoresEmitsAndLooksUpWhatMergeDoesOverKeyValues(Key key, long seed)
      throws Exception {
    TableSchema schema = RandomRuns.schema(key, false);
    Comparator<ChangeRow> bySequence = Comparator.comparingLong(ChangeRow::sequenceNumber);
    RowComparator keyOrder = new RowComparator(schema.keyType());
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeRuns(store, schema, seed);
      Random random = new Random(seed);
      int zeros = 1 + random.nextInt(Math.min(3, runs.size()));
      int[] runLevels = new int[runs.size()];
      List<String> paths = new ArrayList<>();
      List<Integer> fileLevels = new ArrayList<>();
      for (int r = 0; r < runs.size(); r++) {
        runLevels[r] = r < zeros ? 0 : r - zeros + 1;
        for (String path : runs.get(r)) {
          paths.add(path);
          fileLevels.add(runLevels[r]);
        }
      }
      int highest = Math.max(1, runLevels[runs.size() - 1]);
      int lookedUp = 0;
      for (int outputLevel : new int[] {highest, MAX_LEVEL}) {
        LookupChangelogRule rule = rule(schema, seed);
        List<String> expected = new ArrayList<>();
        List<KeyValueFileReader> readers = open(store, schema, paths);
        try {
          SortMergeReader merged = new SortMergeReader(readers, keyOrder, bySequence);
          KeyVersions versions = new KeyVersions();
          int[] levels = fileLevels.stream().mapToInt(Integer::intValue).toArray();
          SortMergedKeys keys = new SortMergedKeys(merged, levels, keyOrder);
          while (keys.next(versions)) {
            KeyValue stored =
                keyValue(rule.merge(versions, outputLevel, MAX_LEVEL, this::emitWhole));
            expected.add(outcome(stored));
          }
        } finally {
          closeAll(readers);
        }
        List<String> expectedLookups = List.copyOf(lookups);
        lookups.clear();
        List<String> actual = new ArrayList<>();
        List<RunCursor> cursors = cursors(store, schema, runs);
        try {
          RunKeys keys = new RunKeys(cursors, runLevels, keyOrder, bySequence);
          while (keys.nextNewestOverUpper()) {
            ChangeRow stored = rule.mergeNewest(keys, outputLevel, MAX_LEVEL, this::emitWhole);
            assertGettersAgree(stored);
            actual.add(outcome(stored.toKeyValue()));
          }
        } finally {
          closeAll(cursors);
        }
        assertEquals(expected, actual, "output level " + outputLevel);
        assertEquals(expectedLookups, lookups, "output level " + outputLevel);
        lookedUp += lookups.size();
        lookups.clear();
      }
      assertTrue(lookedUp > 0, "no key was looked up");
    }
  }

  /** What a key's merge stored, and the changelog it emitted since the last call. */
  private String outcome(KeyValue stored) {
    String text = (stored == null ? "nothing" : text(stored)) + " | " + changelog;
    changelog.clear();
    return text;
  }

  /**
   * A deduplicate lookup table's rule whose lookup finds, for a key, what a random generator seeded
   * by it and {@code seed} draws: nothing, or a version of any kind and sequence number.
   */
  private LookupChangelogRule rule(TableSchema schema, long seed) {
    int[] keyIndexes = schema.keyIndexes();
    RowType rowType = schema.rowType();
    Function<Object[], KeyValue> found =
        k -> {
          Random random = new Random(Arrays.hashCode(k) * 31L + seed);
          if (random.nextInt(3) == 0) {
            return null;
          }
          Object[] value = new Object[rowType.size()];
          for (int c = 0; c < value.length; c++) {
            value[c] =
                rowType.type(c).root() == TypeRoot.VARCHAR
                    ? "looked-up"
                    : (long) random.nextInt(1000);
          }
          for (int i = 0; i < keyIndexes.length; i++) {
            value[keyIndexes[i]] = k[i];
          }
          return new KeyValue(k, random.nextInt(450), RowKind.values()[random.nextInt(4)], value);
        };
    return new LookupChangelogRule(
        new KeyMerge(
            MergeFunctions.create(schema),
            Comparator.comparingLong(ChangeRow::sequenceNumber),
            true),
        new ChangelogRule(TableOptions.of(Map.of("changelog-producer", "lookup")), rowType),
        new LookupChangelogRule.KeyLookup() {
          @Override
          public ChangeRow lookup(ChangeRow row, int startLevel) {
            Object[] k = new Object[keyIndexes.length];
            for (int i = 0; i < k.length; i++) {
              k[i] = row.get(keyIndexes[i]);
            }
            lookups.add(Arrays.toString(k) + " from level " + startLevel);
            return found.apply(k);
          }
        },
        true,
        false);
  }

  private LookupChangelogRule rule(boolean emits, boolean firstRow) {
    Map<String, String> options =
        firstRow ? Map.of("merge-engine", "first-row") : Map.of("changelog-producer", "lookup");
    KeyMerge keyMerge =
        new KeyMerge(new Recording(), Comparator.comparingLong(ChangeRow::sequenceNumber), true);
    return new LookupChangelogRule(
        keyMerge,
        new ChangelogRule(TableOptions.of(options), ROW),
        new LookupChangelogRule.KeyLookup() {
          @Override
          public ChangeRow lookup(ChangeRow row, int startLevel) {
            lookups.add("key " + row.getLong(0) + " from level " + startLevel);
            return stored;
          }
        },
        emits,
        firstRow);
  }

  private void emit(ChangeRow kv, RowKind kind) {
    changelog.add(kind.shortString() + " " + kv.sequenceNumber());
  }

  /** Records a change whole, read while it is valid (a view is, until the next). */
  private void emitWhole(ChangeRow kv, RowKind kind) {
    KeyValue whole = kv.toKeyValue();
    changelog.add(text(new KeyValue(whole.key(), whole.sequenceNumber(), kind, whole.value())));
  }

  /** A merge's result as a key-value of its own, or null. */
  private static KeyValue keyValue(ChangeRow merged) {
    return merged == null ? null : merged.toKeyValue();
  }
}
