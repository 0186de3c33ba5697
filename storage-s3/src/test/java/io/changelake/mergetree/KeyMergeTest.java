package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which versions of a key reach the merge engine, in which order: read off a {@link Recording}
 * merge function's result, the sequence numbers it was given.
 */
class KeyMergeTest {

  private static final RowComparator KEYS = new RowComparator(Bucket.KEY);
  private static final Comparator<ChangeRow> BY_SEQUENCE =
      Comparator.comparingLong(ChangeRow::sequenceNumber);

  @Test
  void aLoneVersionIsKeptAsItIsWithoutTheMergeEngine() {
    Recording engine = new Recording();
    KeyValue retraction = row(1, 4, RowKind.DELETE, 0);
    KeyVersions versions = versions(new int[] {0}, List.of(retraction));

    assertSame(retraction, new KeyMerge(engine, BY_SEQUENCE, false).reduce(versions));
    assertEquals(0, engine.resets());
  }

  @Test
  void severalVersionsGoThroughTheMergeEngineOldestFirst() {
    KeyVersions versions =
        versions(
            new int[] {0, 2},
            List.of(row(1, 9, RowKind.INSERT, 0)),
            List.of(row(1, 3, RowKind.INSERT, 0)));

    KeyValue merged =
        new KeyMerge(new Recording(), BY_SEQUENCE, false).reduce(versions).toKeyValue();

    assertEquals(List.of(3L, 9L), merged.value()[0]);
  }

  @Test
  void aLookupTableCountsOnlyTheNewestUpperLevelVersionWithTheLevelZeroOnes() {
    // Level 1 holds the key's merged value; level 3's older version is superseded by it.
    KeyVersions versions =
        versions(
            new int[] {0, 1, 3},
            List.of(row(1, 9, RowKind.INSERT, 0)),
            List.of(row(1, 5, RowKind.INSERT, 0)),
            List.of(row(1, 2, RowKind.INSERT, 0)));

    KeyValue lookup =
        new KeyMerge(new Recording(), BY_SEQUENCE, true).reduce(versions).toKeyValue();
    KeyValue plain =
        new KeyMerge(new Recording(), BY_SEQUENCE, false).reduce(versions).toKeyValue();

    assertEquals(List.of(5L, 9L), lookup.value()[0]);
    assertEquals(List.of(2L, 5L, 9L), plain.value()[0]);
  }

  @Test
  void aLookupTableKeepsTheNewestUpperVersionAloneWhenNothingElseCounts() {
    KeyValue newest = row(1, 5, RowKind.INSERT, 0);
    KeyVersions versions =
        versions(new int[] {1, 3}, List.of(newest), List.of(row(1, 2, RowKind.INSERT, 0)));

    assertSame(newest, new KeyMerge(new Recording(), BY_SEQUENCE, true).reduce(versions));
  }

  @Test
  void mergeRunsTheEngineEvenOnALoneVersionWithTheLookedUpOneAtItsPlace() {
    KeyMerge merge = new KeyMerge(new Recording(), BY_SEQUENCE, false);
    KeyVersions lone = versions(new int[] {0}, List.of(row(1, 8, RowKind.INSERT, 0)));
    assertEquals(List.of(8L), merge.merge(lone, null).toKeyValue().value()[0]);

    KeyVersions two =
        versions(
            new int[] {0}, List.of(row(1, 4, RowKind.INSERT, 0), row(1, 8, RowKind.INSERT, 0)));
    assertEquals(
        List.of(4L, 6L, 8L),
        merge.merge(two, row(1, 6, RowKind.INSERT, 0)).toKeyValue().value()[0]);
    assertEquals(
        List.of(1L, 4L, 8L),
        merge.merge(two, row(1, 1, RowKind.INSERT, 0)).toKeyValue().value()[0]);
    assertEquals(
        List.of(4L, 8L, 9L),
        merge.merge(two, row(1, 9, RowKind.INSERT, 0)).toKeyValue().value()[0]);
  }

  /** The versions of key 1, one list per run, each run at the level given. */
  @SafeVarargs
  static KeyVersions versions(int[] levels, List<KeyValue>... runs) {
    List<Iterator<KeyValue>> iterators = new ArrayList<>();
    for (List<KeyValue> run : runs) {
      iterators.add(run.stream().sorted(BY_SEQUENCE).iterator());
    }
    KeyVersions versions = new KeyVersions();
    new SortMergedKeys(new SortMergeReader(iterators, KEYS, BY_SEQUENCE), levels, KEYS)
        .next(versions);
    return versions;
  }
}
