package io.changelake.mergetree.lookup;

import static io.changelake.mergetree.lookup.LocalBucket.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.Levels;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One lookup cache shared by several buckets: fair eviction, compression, retention, threads. */
class LookupCacheTest {

  @TempDir Path dir;

  @Test
  void aBusyOwnerEvictsItsOwnEntriesWhileAnotherHoldsLessThanItsShare() throws IOException {
    long entry = 1000 + MemoryCache.ENTRY_OVERHEAD_BYTES;
    MemoryCache cache = new MemoryCache(10 * entry);
    for (int b = 0; b < 3; b++) {
      cachedOrLoaded(cache, 1, new MemoryCache.Key(1, b));
    }
    for (int b = 0; b < 50; b++) {
      cachedOrLoaded(cache, 2, new MemoryCache.Key(2, b));
    }
    assertEquals(3 * entry, cache.used(1), "the quiet owner keeps what it holds below its share");
    assertEquals(7 * entry, cache.used(2));
    assertEquals(43, cache.evictions());
    assertEquals(53, cache.misses());
    cachedOrLoaded(cache, 1, new MemoryCache.Key(1, 0));
    assertEquals(1, cache.hits());
  }

  /**
   * What a lookup does with a block: takes it from the cache, or loads (1000 bytes) and caches it.
   */
  private static void cachedOrLoaded(MemoryCache cache, long owner, MemoryCache.Key key) {
    if (cache.cached(owner, key) == null) {
      cache.put(owner, key, new byte[1000], 1000, null);
    }
  }

  /**
   * A block held in memory only is never dropped: eviction stops at it, and the next spill writes
   * its copy (once), after which its blocks go like any other.
   */
  @Test
  void aHeldBlockIsSpilledBeforeItIsDroppedAndOnlyOnce() throws IOException {
    long entry = 1000 + MemoryCache.ENTRY_OVERHEAD_BYTES;
    MemoryCache cache = new MemoryCache(4 * entry);
    int[] spills = {0};
    boolean[] held = {true};
    MemoryCache.Spillable copy =
        new MemoryCache.Spillable() {
          @Override
          public boolean held() {
            return held[0];
          }

          @Override
          public void spill() {
            spills[0]++;
            held[0] = false;
          }
        };
    for (int b = 0; b < 3; b++) {
      cache.put(1, new MemoryCache.Key(1, b), new byte[1000], 1000, copy);
    }
    cache.put(1, new MemoryCache.Key(2, 0), new byte[1000], 1000, null);
    cache.put(1, new MemoryCache.Key(2, 1), new byte[1000], 1000, null);
    assertEquals(5 * entry, cache.used(), "the held block to go stays until its copy is spilled");
    assertEquals(0, cache.evictions());
    assertEquals(0, spills[0]);

    cache.spillWhileOver();
    assertEquals(1, spills[0]);
    assertEquals(4 * entry, cache.used());
    assertEquals(1, cache.evictions());
    cache.spillWhileOver();
    assertEquals(1, spills[0], "nothing more to spill");
  }

  @Test
  void bucketsSharingOneCacheAnswerAsWithTheirOwnAndKeepTheDiskNearTheBudget() throws IOException {
    LocalBucket first = new LocalBucket(dir.resolve("first"));
    LocalBucket second = new LocalBucket(dir.resolve("second"));
    Levels firstLevels = new Levels(LocalBucket.KEY, 2, first.writeRun(1, rows(0, 30_000), 3_000));
    Levels secondLevels =
        new Levels(LocalBucket.KEY, 2, second.writeRun(1, rows(0, 30_000), 3_000));
    List<KeyValue> expected = new ArrayList<>();
    long oneBucketDisk;
    // A budget below one copy: every copy is spilled, and its size counted.
    try (LookupLevels own = first.lookupLevels(firstLevels, 16L << 10, Long.MAX_VALUE)) {
      for (long id = 0; id < 30_000; id += 11) {
        expected.add(LocalBucket.find(own, id, 1));
      }
      oneBucketDisk = own.stats().diskBytes();
    }
    // Compressed copies of one bucket take less than that; the budget holds about half of them.
    long budget = oneBucketDisk / 4;
    LookupCache shared = new LookupCache(1L << 20, budget);
    try (LookupLevels a = shared(first, firstLevels, shared, null);
        LookupLevels b = shared(second, secondLevels, shared, null)) {
      for (int pass = 0; pass < 2; pass++) {
        int i = 0;
        for (long id = 0; id < 30_000; id += 11) {
          assertSame(expected.get(i), LocalBucket.find(a, id, 1));
          assertSame(expected.get(i), LocalBucket.find(b, id, 1));
          i++;
        }
      }
      LookupCache.Stats stats = shared.stats();
      long largestCopy = oneBucketDisk / 10;
      assertTrue(
          stats.diskBytes() <= budget + 2 * largestCopy,
          "disk " + stats.diskBytes() + " of " + budget);
      assertTrue(stats.diskEvictions() > 0);
      assertTrue(stats.memoryBytes() <= (1L << 20) + 64 * 1024, "memory " + stats.memoryBytes());
      assertTrue(stats.hitRate() > 0 && stats.hitRate() < 1, "hit rate " + stats.hitRate());
    }
    assertEquals(0, shared.stats().diskBytes(), "closing the buckets deletes their copies");
  }

  /**
   * A worker runs its bucket writers on several threads, and their lookups share one cache: each
   * thread's bucket evicts the others' blocks from memory, and copies are built, replaced and
   * deleted on one thread while another reads its own. Every lookup still answers what its own
   * bucket holds (the amount of a key differs between buckets and between versions of a file).
   */
  @Test
  void bucketsOnFourThreadsSharingASmallCacheAnswerEveryLookupFromTheirOwnFiles() throws Exception {
    int buckets = 4;
    int keys = 8_000;
    int perFile = 1_000;
    int rounds = 6;
    LookupCache shared = new LookupCache(256 * 1024, 512 * 1024);
    ExecutorService threads = Executors.newFixedThreadPool(buckets);
    try {
      List<Future<Long>> lookups = new ArrayList<>();
      for (int b = 0; b < buckets; b++) {
        int bucket = b;
        lookups.add(
            threads.submit(() -> lookUpWhileReplacingFiles(shared, bucket, keys, perFile, rounds)));
      }
      long answered = 0;
      for (Future<Long> f : lookups) {
        answered += f.get(5, TimeUnit.MINUTES);
      }
      assertEquals((long) buckets * rounds * LOOKUPS_PER_ROUND, answered);
    } finally {
      threads.shutdownNow();
    }
    LookupCache.Stats stats = shared.stats();
    assertTrue(stats.memoryEvictions() > 0, "memory evictions " + stats.memoryEvictions());
    assertTrue(stats.diskEvictions() > 0, "disk evictions " + stats.diskEvictions());
    assertEquals(0, stats.diskBytes(), "closing the buckets deletes their copies");
    assertEquals(0, stats.memoryBytes(), "and frees what they held in memory");
  }

  private static final int LOOKUPS_PER_ROUND = 2_000;

  /**
   * One bucket's thread: two levels of files, then rounds of random lookups, each checked against
   * the bucket's model, after each of which one level-1 file is rewritten with new amounts (half of
   * the rewrites handing their copy over as the data file is written). Returns the lookups made.
   */
  private long lookUpWhileReplacingFiles(
      LookupCache shared, int bucket, int keys, int perFile, int rounds) throws IOException {
    LocalBucket local = new LocalBucket(dir.resolve("bucket-" + bucket));
    long[] amounts = new long[keys];
    long[] sequences = new long[keys];
    List<KeyValue> upper = new ArrayList<>();
    List<KeyValue> lower = new ArrayList<>();
    for (int id = 0; id < keys; id++) {
      // Level 2 holds every key; level 1 every other one, newer.
      upper.add(row(id, 1, RowKind.INSERT, 1_000_000L * bucket + id));
      amounts[id] = 1_000_000L * bucket + id;
      sequences[id] = 1;
      if (id % 2 == 0) {
        lower.add(row(id, 2, RowKind.INSERT, 1_000_000L * bucket + 10 * id));
        amounts[id] = 1_000_000L * bucket + 10 * id;
        sequences[id] = 2;
      }
    }
    List<DataFileMeta> level1 = new ArrayList<>(local.writeRun(1, lower, perFile / 2));
    List<DataFileMeta> files = new ArrayList<>(level1);
    files.addAll(local.writeRun(2, upper, perFile));
    Levels levels = new Levels(LocalBucket.KEY, 3, files);
    SplittableRandom random = new SplittableRandom(bucket);
    long answered = 0;
    try (LookupLevels lookups = shared(local, levels, shared, null)) {
      for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < LOOKUPS_PER_ROUND; i++) {
          long id = random.nextLong(keys + 100);
          KeyValue found = LocalBucket.find(lookups, id, 1);
          if (id >= keys) {
            assertNull(found, "bucket " + bucket + " key " + id);
          } else {
            assertEquals(amounts[(int) id], found.value()[2], "bucket " + bucket + " key " + id);
            assertEquals(sequences[(int) id], found.sequenceNumber());
          }
          answered++;
        }
        int replaced = random.nextInt(level1.size());
        DataFileMeta old = level1.get(replaced);
        List<KeyValue> rewritten = new ArrayList<>();
        long sequence = 3 + round;
        for (long id = (long) levels.minKey(old)[0]; id <= (long) levels.maxKey(old)[0]; id += 2) {
          long amount = 1_000_000L * bucket + 100 * id + round;
          rewritten.add(row(id, sequence, RowKind.INSERT, amount));
          amounts[(int) id] = amount;
          sequences[(int) id] = sequence;
        }
        DataFileMeta written;
        if (round % 2 == 0) {
          try (LookupFileBuilder copy = lookups.newFile()) {
            written = local.write(1, rewritten, copy);
          }
        } else {
          written = local.write(1, rewritten);
        }
        levels.update(List.of(old), List.of(written));
        lookups.remove(old);
        level1.set(replaced, written);
      }
    }
    return answered;
  }

  @Test
  void aCopyUnusedPastItsRetentionIsDeletedAndRebuiltWhenNeeded() throws Exception {
    LocalBucket bucket = new LocalBucket(dir);
    List<DataFileMeta> files = new ArrayList<>(bucket.writeRun(1, rows(0, 1_000), 1_000));
    files.addAll(bucket.writeRun(2, rows(1_000, 2_000), 1_000));
    Levels levels = new Levels(LocalBucket.KEY, 3, files);
    LookupCache cache = new LookupCache(1L << 20, Long.MAX_VALUE);
    try (LookupLevels lookup = shared(bucket, levels, cache, Duration.ofMillis(500))) {
      LocalBucket.find(lookup, 1_500L, 1);
      assertEquals(1, lookup.stats().filesBuilt());
      Thread.sleep(1_100);
      LocalBucket.find(lookup, 5L, 1);
      assertEquals(1, lookup.stats().localFiles(), "the level-2 copy expired");
      LocalBucket.find(lookup, 1_500L, 1);
      assertEquals(3, lookup.stats().filesBuilt());
    }
  }

  private LookupLevels shared(
      LocalBucket bucket, Levels levels, LookupCache cache, Duration retention) throws IOException {
    return new LookupLevels(
        levels,
        LocalBucket.KEY,
        LocalBucket.VALUE,
        bucket.opener(),
        dir.resolve("cache-" + System.identityHashCode(levels)),
        cache,
        retention,
        true);
  }

  private static List<KeyValue> rows(long from, long to) {
    List<KeyValue> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(row(id, 1, RowKind.INSERT, id * 10));
    }
    return rows;
  }

  private static void assertSame(KeyValue expected, KeyValue actual) {
    assertEquals(expected == null, actual == null);
    if (expected != null) {
      assertArrayEquals(expected.key(), actual.key());
      assertEquals(expected.sequenceNumber(), actual.sequenceNumber());
      assertEquals(expected.kind(), actual.kind());
      assertArrayEquals(expected.value(), actual.value());
    }
  }
}
