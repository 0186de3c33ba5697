package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.format.BinaryRowCodec;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The on-disk key index of cross-partition upsert tables: exact against a map whatever the hashes
 * (colliding ones included), through its doublings and keys longer than its write buffer; and,
 * behind a property, its heap per key at 10,000,000 keys.
 */
class GlobalKeyIndexTest {

  @TempDir Path folder;

  private static byte[] key(long id, int extra) {
    ByteBuffer b = ByteBuffer.allocate(8 + extra);
    b.putLong(id);
    return b.array();
  }

  @Test
  void everyKeyKeepsItsLatestPartitionAndBucketThroughDoublingsAndCollidingHashes()
      throws Exception {
    Random random = new Random(5);
    Map<Long, Long> expected = new HashMap<>();
    try (GlobalKeyIndex index = new GlobalKeyIndex(Files.createDirectories(folder.resolve("i")))) {
      for (int i = 0; i < 150_000; i++) {
        long id = random.nextInt(100_000);
        // One key in a hundred shares one hash: only their bytes tell them apart.
        int hash = id % 100 == 0 ? 42 : Long.hashCode(id * 31);
        byte[] key = key(id, id == 7 ? 100_000 : (int) (id % 13));
        int partition = random.nextInt(5);
        int bucket = random.nextInt(1000);
        boolean added = index.put(key, hash, partition, bucket);
        assertEquals(!expected.containsKey(id), added, "key " + id);
        expected.put(id, ((long) partition << 32) | bucket);
      }
      assertEquals(expected.size(), index.size());
      for (long id = 0; id < 100_000; id++) {
        int hash = id % 100 == 0 ? 42 : Long.hashCode(id * 31);
        long got = index.get(key(id, id == 7 ? 100_000 : (int) (id % 13)), hash);
        Long want = expected.get(id);
        if (want == null) {
          assertEquals(GlobalKeyIndex.ABSENT, got, "key " + id);
        } else {
          assertEquals(want >>> 32, GlobalKeyIndex.partition(got), "partition of " + id);
          assertEquals(want.intValue(), GlobalKeyIndex.bucket(got), "bucket of " + id);
        }
      }
      assertEquals(GlobalKeyIndex.ABSENT, index.get(key(3, 1), Long.hashCode(3 * 31)));
    }
    try (Stream<Path> left = Files.list(folder.resolve("i"))) {
      assertFalse(left.findAny().isPresent(), "close removes the index's files");
    }
  }

  /**
   * Prints the heap the index holds at {@code -Dchangelake.keyindex.keys=10000000} BIGINT keys (as
   * BinaryRows), its disk bytes and its put and get rates; asserts only that every key is found.
   */
  @Test
  void heapAndDiskPerKeyAtScale() throws Exception {
    long count = Long.getLong("changelake.keyindex.keys", 0);
    assumeTrue(count > 0, "a scale run: -Dchangelake.keyindex.keys=10000000");
    BinaryRowCodec codec =
        new BinaryRowCodec(
            new RowType(List.of(new DataField(0, "id", DataType.bigint().notNull()))));
    long before = usedHeapAfterGc();
    try (GlobalKeyIndex index = new GlobalKeyIndex(Files.createDirectories(folder.resolve("i")))) {
      long start = System.nanoTime();
      for (long id = 0; id < count; id++) {
        Object[] key = {id * 7919};
        index.put(codec.encodeRow(key), codec.hash(key), (int) (id % 30), (int) (id % 16));
      }
      long put = System.nanoTime() - start;
      long heap = usedHeapAfterGc() - before;
      long disk = 0;
      try (Stream<Path> files = Files.list(folder.resolve("i"))) {
        for (Path p : (Iterable<Path>) files::iterator) {
          disk += Files.size(p);
        }
      }
      Random random = new Random(1);
      int lookups = 1_000_000;
      start = System.nanoTime();
      for (int i = 0; i < lookups; i++) {
        Object[] key = {(long) random.nextInt((int) Math.min(count, Integer.MAX_VALUE)) * 7919};
        assertTrue(index.get(codec.encodeRow(key), codec.hash(key)) != GlobalKeyIndex.ABSENT);
      }
      long get = System.nanoTime() - start;
      System.out.printf(
          "RESULT key index: %d keys, heap %.2f bytes/key (%d bytes), disk %.1f bytes/key,"
              + " put %.0f keys/s, random get %.0f keys/s%n",
          count,
          (double) heap / count,
          heap,
          (double) disk / count,
          count / (put / 1e9),
          lookups / (get / 1e9));
    }
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
