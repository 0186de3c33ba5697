package io.changelake.mergetree.lookup;

import static io.changelake.mergetree.lookup.LocalBucket.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.Levels;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LookupLevelsTest {

  private static final long UNLIMITED = Long.MAX_VALUE;
  private static final long MEMORY = 64L << 20;

  /** A memory budget below one copy of the tests' files: every copy is spilled to disk. */
  private static final long SPILLING = 16L << 10;

  @TempDir Path dir;

  /** Keys {@code from, from + step, ...} below {@code to}, all with one sequence and kind. */
  private static List<KeyValue> rows(long from, long to, long step, long sequence, RowKind kind) {
    List<KeyValue> rows = new ArrayList<>();
    for (long id = from; id < to; id += step) {
      rows.add(row(id, sequence, kind, id * 10 + sequence));
    }
    return rows;
  }

  private static void assertFound(KeyValue expected, KeyValue actual) {
    assertTrue(actual != null, "no key-value found for " + expected);
    assertArrayEquals(expected.key(), actual.key());
    assertEquals(expected.sequenceNumber(), actual.sequenceNumber());
    assertEquals(expected.kind(), actual.kind());
    assertArrayEquals(expected.value(), actual.value());
  }

  @Test
  void lookupReturnsTheVersionOfTheFirstLevelThatHoldsTheKey() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    // Level 3 holds every even key, level 2 every fourth, level 1 every eighth: newer, fewer.
    List<DataFileMeta> files = new ArrayList<>();
    files.addAll(bucket.writeRun(3, rows(0, 10_000, 2, 1, RowKind.INSERT), 3_000));
    files.addAll(bucket.writeRun(2, rows(0, 10_000, 4, 2, RowKind.UPDATE_AFTER), 1_000));
    files.addAll(bucket.writeRun(1, rows(0, 10_000, 8, 3, RowKind.UPDATE_AFTER), 700));
    Levels levels = new Levels(LocalBucket.KEY, 4, files);
    try (LookupLevels lookup = bucket.lookupLevels(levels, MEMORY, UNLIMITED)) {
      for (long id = 0; id < 10_000; id += 2) {
        long sequence = id % 8 == 0 ? 3 : id % 4 == 0 ? 2 : 1;
        RowKind kind = sequence == 1 ? RowKind.INSERT : RowKind.UPDATE_AFTER;
        assertFound(row(id, sequence, kind, id * 10 + sequence), LocalBucket.find(lookup, id, 1));
      }
      assertFound(row(8, 2, RowKind.UPDATE_AFTER, 82), LocalBucket.find(lookup, 8L, 2));
      assertFound(row(8, 1, RowKind.INSERT, 81), LocalBucket.find(lookup, 8L, 3));
    }
  }

  @Test
  void keysNoLevelHoldsReturnNull() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    List<DataFileMeta> files = new ArrayList<>();
    files.addAll(bucket.writeRun(1, rows(1_000, 2_000, 2, 2, RowKind.INSERT), 100));
    files.addAll(bucket.writeRun(2, rows(1_000, 5_000, 3, 1, RowKind.INSERT), 500));
    Levels levels = new Levels(LocalBucket.KEY, 3, files);
    try (LookupLevels lookup = bucket.lookupLevels(levels, MEMORY, UNLIMITED)) {
      for (long id : new long[] {-5, 0, 999, 1_001, 1_007, 4_997, 5_000, 1L << 40}) {
        assertNull(LocalBucket.find(lookup, id, 1), "key " + id);
      }
      assertNull(LocalBucket.find(lookup, 1_000L + 2, 2), "key only at level 1");
    }
  }

  @Test
  void retractionsAreReturnedAsStored() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    DataFileMeta top = bucket.write(2, rows(0, 100, 1, 1, RowKind.INSERT));
    DataFileMeta deletes = bucket.write(1, rows(10, 20, 1, 5, RowKind.DELETE));
    DataFileMeta befores = bucket.write(1, rows(30, 40, 1, 6, RowKind.UPDATE_BEFORE));
    Levels levels = new Levels(LocalBucket.KEY, 3, List.of(top, deletes, befores));
    try (LookupLevels lookup = bucket.lookupLevels(levels, MEMORY, UNLIMITED)) {
      assertFound(row(15, 5, RowKind.DELETE, 155), LocalBucket.find(lookup, 15L, 1));
      assertFound(row(35, 6, RowKind.UPDATE_BEFORE, 356), LocalBucket.find(lookup, 35L, 1));
      assertFound(row(25, 1, RowKind.INSERT, 251), LocalBucket.find(lookup, 25L, 1));
    }
  }

  @Test
  void filesThatLeaveTheLevelsStopAnswering() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    DataFileMeta top = bucket.write(2, rows(0, 1_000, 1, 1, RowKind.INSERT));
    DataFileMeta newer = bucket.write(1, rows(0, 1_000, 2, 2, RowKind.UPDATE_AFTER));
    Levels levels = new Levels(LocalBucket.KEY, 3, List.of(top, newer));
    try (LookupLevels lookup = bucket.lookupLevels(levels, SPILLING, UNLIMITED)) {
      assertEquals(2, LocalBucket.find(lookup, 10L, 1).sequenceNumber());
      assertEquals(1, LocalBucket.find(lookup, 11L, 1).sequenceNumber());
      assertEquals(2, lookup.stats().localFiles());

      levels.update(List.of(newer), List.of());
      lookup.remove(newer);

      assertEquals(1, LocalBucket.find(lookup, 10L, 1).sequenceNumber());
      assertEquals(1, lookup.stats().localFiles());
      assertEquals(1, localCopies(bucket).size(), "the removed file's local copy is deleted");

      levels.update(List.of(top), List.of());
      lookup.remove(top);
      assertNull(LocalBucket.find(lookup, 10L, 1));
      assertEquals(0, lookup.stats().diskBytes());
      assertEquals(0, lookup.stats().memoryBytes());
    }
  }

  /**
   * A copy handed over answers from the blocks it cached as it was written: no disk read. Within
   * the memory budget it is held there and never written; leaving the levels frees it.
   */
  @Test
  void aHandedOverFileWithinTheBudgetAnswersFromMemoryAndIsNeverWritten() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    Levels levels = new Levels(LocalBucket.KEY, 3, List.of());
    try (LookupLevels lookup = bucket.lookupLevels(levels, MEMORY, UNLIMITED)) {
      DataFileMeta file;
      try (LookupFileBuilder builder = lookup.newFile()) {
        file = bucket.write(2, rows(0, 50_000, 1, 7, RowKind.INSERT), builder);
      }
      levels.update(List.of(), List.of(file));
      for (long id = 0; id < 50_000; id += 97) {
        assertFound(row(id, 7, RowKind.INSERT, id * 10 + 7), LocalBucket.find(lookup, id, 1));
      }
      assertEquals(0, bucket.opened());
      assertEquals(0, lookup.stats().filesBuilt());
      assertEquals(0, lookup.stats().blocksRead());
      assertEquals(1, lookup.stats().heldFiles());
      assertEquals(0, lookup.stats().diskBytes());
      assertEquals(List.of(), localCopies(bucket), "nothing is written");

      levels.update(List.of(file), List.of());
      lookup.remove(file);
      assertEquals(0, lookup.stats().memoryBytes());
      assertEquals(List.of(), localCopies(bucket));
    }
  }

  /**
   * Copies held in memory are spilled to disk, oldest first, as new copies need the budget's room,
   * and answer the same from their files; a copy larger than the budget spills as it is built.
   */
  @Test
  void heldCopiesSpillWhenTheBudgetNeedsTheirRoomAndAnswerTheSameFromDisk() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    Levels levels = new Levels(LocalBucket.KEY, 3, List.of());
    // Each copy of 2,000 rows takes about 80 KiB raw: the budget holds two of them.
    long budget = 200L << 10;
    List<long[]> ranges = List.of(new long[] {0, 2_000}, new long[] {2_000, 4_000});
    try (LookupLevels lookup = bucket.lookupLevels(levels, budget, UNLIMITED)) {
      List<DataFileMeta> written = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        long[] range = ranges.get(i % 2);
        try (LookupFileBuilder builder = lookup.newFile()) {
          DataFileMeta file =
              bucket.write(2 - i % 2, rows(range[0], range[1], 1, i, RowKind.INSERT), builder);
          written.add(file);
        }
        assertTrue(lookup.stats().memoryBytes() <= budget, "memory " + lookup.stats());
      }
      // The two newest copies answer: every third file of each level is the newest, and the
      // older ones stay in the levels as other keys' sources, spilled.
      levels.update(List.of(), written.subList(4, 6));
      LookupLevels.CacheStats spilled = lookup.stats();
      assertEquals(6, spilled.localFiles());
      assertTrue(spilled.heldFiles() < 6 && spilled.diskBytes() > 0, "spilled: " + spilled);
      assertEquals(6 - spilled.heldFiles(), localCopies(bucket).size());
      for (long id = 0; id < 4_000; id += 3) {
        long sequence = id < 2_000 ? 4 : 5;
        assertFound(
            row(id, sequence, RowKind.INSERT, id * 10 + sequence), LocalBucket.find(lookup, id, 1));
      }
      assertEquals(0, bucket.opened(), "every copy answered, held or spilled");

      // A copy alone larger than the budget is spilled while it is built.
      try (LookupFileBuilder builder = lookup.newFile()) {
        DataFileMeta large = bucket.write(1, rows(10_000, 20_000, 1, 9, RowKind.INSERT), builder);
        levels.update(List.of(), List.of(large));
      }
      for (long id = 10_000; id < 20_000; id += 7) {
        assertFound(row(id, 9, RowKind.INSERT, id * 10 + 9), LocalBucket.find(lookup, id, 1));
      }
      assertTrue(lookup.stats().blocksRead() > 0, "blocks read back from the spilled copy");
      assertTrue(lookup.stats().memoryBytes() <= budget, "memory " + lookup.stats());
      assertEquals(0, bucket.opened());
    }
    assertEquals(List.of(), localCopies(bucket), "closing deletes the spilled copies");
  }

  @Test
  void anAbandonedHandOverLeavesNoFile() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    try (LookupLevels lookup =
        bucket.lookupLevels(new Levels(LocalBucket.KEY, 3, List.of()), MEMORY, UNLIMITED)) {
      try (LookupFileBuilder builder = lookup.newFile()) {
        for (long id = 0; id < 5_000; id++) {
          builder.add(row(id, 1, RowKind.INSERT, 1));
        }
        assertTrue(lookup.stats().memoryBytes() > 0, "the blocks written are cached");
      }
      assertEquals(List.of(), localCopies(bucket));
      assertEquals(0, lookup.stats().memoryBytes(), "and dropped with the abandoned copy");
    }
  }

  @Test
  void aHandOverOutOfKeyOrderOrShortOfTheFileFails() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    DataFileMeta file = bucket.write(1, rows(0, 10, 1, 1, RowKind.INSERT));
    try (LookupLevels lookup =
        bucket.lookupLevels(new Levels(LocalBucket.KEY, 3, List.of()), MEMORY, UNLIMITED)) {
      try (LookupFileBuilder builder = lookup.newFile()) {
        builder.add(row(5, 1, RowKind.INSERT, 1));
        assertThrows(
            IllegalArgumentException.class, () -> builder.add(row(5, 2, RowKind.INSERT, 1)));
        assertThrows(IllegalStateException.class, () -> builder.finish(file));
      }
      assertEquals(List.of(), localCopies(bucket));
    }
  }

  @Test
  void copiesEvictedForDiskAreRebuiltWithTheSameAnswers() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    List<DataFileMeta> files = new ArrayList<>();
    files.addAll(bucket.writeRun(2, rows(0, 20_000, 1, 1, RowKind.INSERT), 5_000));
    files.addAll(bucket.writeRun(1, rows(0, 20_000, 3, 2, RowKind.DELETE), 2_000));
    Levels levels = new Levels(LocalBucket.KEY, 3, files);
    try (LookupLevels roomy = bucket.lookupLevels(levels, SPILLING, UNLIMITED)) {
      List<KeyValue> expected = new ArrayList<>();
      for (long id = -1; id <= 20_000; id += 7) {
        expected.add(LocalBucket.find(roomy, id, 1));
      }
      assertEquals(files.size(), roomy.stats().filesBuilt());
      // Room for about two copies: the level-1 and level-2 files of the keys being looked up.
      long tinyDisk = 5 * roomy.stats().diskBytes() / files.size() / 2;
      try (LookupLevels tiny =
          new LookupLevels(
              levels,
              LocalBucket.KEY,
              LocalBucket.VALUE,
              bucket.opener(),
              dir.resolve("tiny"),
              SPILLING,
              tinyDisk)) {
        for (int pass = 0; pass < 2; pass++) {
          int i = 0;
          for (long id = -1; id <= 20_000; id += 7) {
            KeyValue actual = LocalBucket.find(tiny, id, 1);
            if (expected.get(i) == null) {
              assertNull(actual, "key " + id);
            } else {
              assertFound(expected.get(i), actual);
            }
            i++;
          }
          assertTrue(tiny.stats().diskBytes() <= tinyDisk, "disk " + tiny.stats().diskBytes());
        }
        long built = tiny.stats().filesBuilt();
        assertTrue(
            built > files.size() && built <= 3 * files.size(),
            "copies rebuilt in the second pass, without thrashing: " + built);
      }
    }
  }

  @Test
  void theMemoryBudgetBoundsFiltersIndexesAndBlocks() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    List<DataFileMeta> files = bucket.writeRun(1, rows(0, 200_000, 1, 1, RowKind.INSERT), 40_000);
    Levels levels = new Levels(LocalBucket.KEY, 2, files);
    long budget = 512 << 10;
    try (LookupLevels lookup = bucket.lookupLevels(levels, budget, UNLIMITED)) {
      long peak = 0;
      java.util.Random random = new java.util.Random(7);
      for (int i = 0; i < 20_000; i++) {
        long id = random.nextInt(200_000);
        assertEquals(id * 10 + 1, LocalBucket.find(lookup, id, 1).value()[2]);
        peak = Math.max(peak, lookup.stats().memoryBytes());
      }
      LookupLevels.CacheStats stats = lookup.stats();
      System.out.printf(
          "memory budget %,d bytes: peak %,d, disk %,d, blocks read %,d%n",
          budget, peak, stats.diskBytes(), stats.blocksRead());
      assertTrue(peak <= budget, "peak " + peak + " over budget " + budget);
      assertTrue(peak > budget / 2, "the cache uses its budget: peak " + peak);
      assertTrue(
          stats.blocksRead() > stats.diskBytes() / LookupFileBuilder.BLOCK_BYTES,
          "blocks evicted and read again");
    }
  }

  @Test
  void closeDeletesEveryLocalCopy() throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    List<DataFileMeta> files = bucket.writeRun(1, rows(0, 1_000, 1, 1, RowKind.INSERT), 100);
    LookupLevels lookup =
        bucket.lookupLevels(new Levels(LocalBucket.KEY, 2, files), SPILLING, UNLIMITED);
    for (long id = 0; id < 1_000; id += 50) {
      LocalBucket.find(lookup, id, 1);
    }
    LookupLevels.CacheStats stats = lookup.stats();
    assertEquals(10, stats.localFiles());
    assertTrue(stats.heldFiles() < 10, "copies spilled: " + stats);
    assertEquals(10 - stats.heldFiles(), localCopies(bucket).size());
    lookup.close();
    assertEquals(List.of(), localCopies(bucket));
    assertEquals(0, lookup.stats().memoryBytes(), "held copies are freed too");
  }

  private static List<Path> localCopies(LocalBucket bucket) throws IOException {
    try (Stream<Path> files = Files.list(bucket.cacheFolder)) {
      return files.toList();
    }
  }
}
