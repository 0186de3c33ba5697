package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.row;
import static io.changelake.mergetree.KeyMergeTest.versions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.changelake.schema.TableOptions;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each row of {@link LookupChangelogRule}'s table, with a {@link Recording} merge engine (its
 * result lists the sequence numbers merged) and a lookup that records where it was asked.
 */
class LookupChangelogRuleTest {

  private static final RowType ROW =
      RowType.of(
          new String[] {"id", "amount"}, new DataType[] {DataType.bigint(), DataType.bigint()});
  private static final int MAX_LEVEL = 5;

  private final List<String> lookups = new ArrayList<>();
  private final List<String> changelog = new ArrayList<>();
  private KeyValue stored;

  @Test
  void aVersionFromAboveLevelZeroIsTheBeforeImageAndNoLookupIsMade() throws IOException {
    KeyValue upper = row(1, 3, RowKind.INSERT, 0);
    KeyVersions versions =
        versions(new int[] {0, 2}, List.of(row(1, 8, RowKind.INSERT, 0)), List.of(upper));

    KeyValue after = rule(true, false).merge(versions, 2, MAX_LEVEL, this::emit);

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

    KeyValue after = rule(true, false).merge(versions, 3, MAX_LEVEL, this::emit);

    assertEquals(List.of("key 1 from level 4"), lookups);
    assertEquals(List.of(2L, 5L, 9L), after.value()[0]);
    assertEquals(List.of("-U 5", "+U 9"), changelog);
  }

  @Test
  void aNewKeyIsAnInsertAndAtTheTopLevelNothingIsLookedUp() throws IOException {
    KeyVersions versions = versions(new int[] {0}, List.of(row(1, 4, RowKind.INSERT, 0)));

    KeyValue below = rule(true, false).merge(versions, 2, MAX_LEVEL, this::emit);
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

    KeyValue after = rule(false, true).merge(versions, 1, MAX_LEVEL, this::emit);

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

    KeyValue after = rule(true, false).merge(versions, 4, MAX_LEVEL, this::emit);

    assertEquals(List.of(3L), after.value()[0]);
    assertEquals(RowKind.INSERT, after.kind());
    assertEquals(List.of(), lookups);
    assertEquals(List.of(), changelog);
  }

  private LookupChangelogRule rule(boolean emits, boolean firstRow) {
    Map<String, String> options =
        firstRow ? Map.of("merge-engine", "first-row") : Map.of("changelog-producer", "lookup");
    KeyMerge keyMerge =
        new KeyMerge(new Recording(), Comparator.comparingLong(KeyValue::sequenceNumber), true);
    return new LookupChangelogRule(
        keyMerge,
        new ChangelogRule(TableOptions.of(options), ROW),
        (key, startLevel) -> {
          lookups.add("key " + key[0] + " from level " + startLevel);
          return stored;
        },
        emits,
        firstRow);
  }

  private void emit(ChangeRow kv) {
    changelog.add(kv.kind().shortString() + " " + kv.sequenceNumber());
  }
}
