package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

class LevelsTest {

  private final DataFileMeta older0 = file("older-0", 0, 10, 1, 50, 3);
  private final DataFileMeta newer0 = file("newer-0", 0, 20, 10, 90, 7);
  private final DataFileMeta high1 = file("high-1", 1, 30, 60, 99);
  private final DataFileMeta low1 = file("low-1", 1, 40, 1, 59);
  private final DataFileMeta top = file("top", 3, 50, 1, 1000);

  @Test
  void sortedRunsAreEachLevelZeroFileNewestFirstThenEachNonEmptyLevelInKeyOrder() {
    Levels levels = new Levels(Bucket.KEY, 4, List.of(older0, high1, top, newer0, low1));

    assertEquals(
        List.of(
            SortedRun.of(0, List.of(newer0)),
            SortedRun.of(0, List.of(older0)),
            SortedRun.of(1, List.of(low1, high1)),
            SortedRun.of(3, List.of(top))),
        levels.sortedRuns());
    assertEquals(List.of(newer0, older0), levels.level0());
    assertEquals(List.of(), levels.level(2));
    assertEquals(3, levels.maxLevel());
    assertEquals(150, levels.totalSize());
    assertEquals(7, levels.maxSequenceNumber());
  }

  @Test
  void anEmptyBucketHasNoRunsAndSequenceNumberMinusOne() {
    Levels levels = new Levels(Bucket.KEY, 2, List.of());
    assertEquals(List.of(), levels.sortedRuns());
    assertEquals(-1, levels.maxSequenceNumber());
    assertEquals(1, levels.maxLevel());
  }

  @Test
  void updateReplacesConsumedFilesByWrittenOnes() {
    Levels levels = new Levels(Bucket.KEY, 4, List.of(older0, newer0, low1));
    DataFileMeta merged = file("merged", 1, 70, 1, 90);

    levels.update(List.of(older0, newer0, low1), List.of(merged));

    assertEquals(List.of(SortedRun.of(1, List.of(merged))), levels.sortedRuns());
  }

  @Test
  void aMovedFileLeavesItsOldLevel() {
    Levels levels = new Levels(Bucket.KEY, 4, List.of(low1));

    levels.update(List.of(low1), List.of(low1.upgrade(3)));

    assertEquals(List.of(), levels.level(1));
    assertEquals(List.of(low1.upgrade(3)), levels.level(3));
  }

  @Test
  void fileForFindsTheFileWhoseKeyRangeHoldsTheKeyComparedInPlace() {
    Levels levels = new Levels(Bucket.KEY, 4, List.of(high1, low1));

    assertEquals(low1, levels.fileFor(1, key(1)));
    assertEquals(low1, levels.fileFor(1, key(59)));
    assertEquals(high1, levels.fileFor(1, key(60)));
    assertEquals(high1, levels.fileFor(1, key(99)));
    assertNull(levels.fileFor(1, key(100)));
    assertNull(levels.fileFor(2, key(5)));
  }

  @Test
  void keysAreDecodedFromTheFileDescription() {
    Levels levels = new Levels(Bucket.KEY, 4, List.of(high1));
    assertArrayEquals(new Object[] {60L}, levels.minKey(high1));
    assertArrayEquals(new Object[] {99L}, levels.maxKey(high1));
  }

  @Test
  void aFileAboveTheLevelsIsRefusedNamingTheOption() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> new Levels(Bucket.KEY, 3, List.of(top)));
    assertTrue(e.getMessage().contains("num-levels"), e.getMessage());
  }

  @Test
  void fewerThanTwoLevelsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Levels(Bucket.KEY, 1, List.of()));
  }

  private static byte[] key(long id) {
    return new BinaryRowCodec(Bucket.KEY).encodeRow(new Object[] {id});
  }
}
