package io.changelake.mergetree.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.Levels;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds and queries a bucket of millions of keys and prints what it costs; asserts answers, not
 * timings. Level 3 holds every key (ids {@code 0, 2, 4, ...}: odd ids are misses), level 2 every
 * tenth, level 1 every hundredth.
 *
 * <p>{@code -Dlookup.scale=10000000} runs the same with that many keys.
 */
class LookupLevelsScaleTest {

  private static final int KEYS_PER_FILE = 500_000;
  private static final int LOOKUPS = 100_000;

  @TempDir Path dir;

  @Test
  void twoMillionKeys() throws IOException {
    measure(2_000_000);
  }

  @Test
  @EnabledIfSystemProperty(named = "lookup.scale", matches = "\\d+")
  void keysOfLookupScale() throws IOException {
    measure(Integer.parseInt(System.getProperty("lookup.scale")));
  }

  private static long levelOf(long index) {
    return index % 100 == 0 ? 1 : index % 10 == 0 ? 2 : 3;
  }

  private static KeyValue version(long index, int level) {
    long id = 2 * index;
    return LocalBucket.row(
        id, 10 - level, level == 3 ? RowKind.INSERT : RowKind.UPDATE_AFTER, id * 100 + level);
  }

  private void measure(int keys) throws IOException {
    LocalBucket bucket = new LocalBucket(dir);
    Levels levels = new Levels(LocalBucket.KEY, 4, List.of());
    long memoryBudget = 256L << 20;
    try (LookupLevels handedOver =
            new LookupLevels(
                levels,
                LocalBucket.KEY,
                LocalBucket.VALUE,
                bucket.opener(),
                dir.resolve("handed-over"),
                memoryBudget,
                Long.MAX_VALUE);
        LookupLevels built =
            new LookupLevels(
                levels,
                LocalBucket.KEY,
                LocalBucket.VALUE,
                bucket.opener(),
                dir.resolve("built"),
                memoryBudget,
                Long.MAX_VALUE);
        LookupLevels small =
            new LookupLevels(
                levels,
                LocalBucket.KEY,
                LocalBucket.VALUE,
                bucket.opener(),
                dir.resolve("small"),
                16L << 20,
                Long.MAX_VALUE)) {
      long start = System.nanoTime();
      long rows = 0;
      for (int level = 1; level <= 3; level++) {
        int step = level == 1 ? 100 : level == 2 ? 10 : 1;
        for (long from = 0; from < keys; from += (long) KEYS_PER_FILE * step) {
          List<KeyValue> file = new ArrayList<>();
          for (long i = from; i < Math.min(keys, from + (long) KEYS_PER_FILE * step); i += step) {
            file.add(version(i, level));
          }
          try (LookupFileBuilder builder = handedOver.newFile()) {
            DataFileMeta meta = bucket.write(level, file, builder);
            levels.update(List.of(), List.of(meta));
          }
          rows += file.size();
        }
      }
      double writeSeconds = seconds(start);
      System.out.printf(
          "%,d keys, %,d rows in %d files: Parquet write with hand-over %.1f s (%,.0f rows/s)%n",
          keys, rows, levels.allFiles().size(), writeSeconds, rows / writeSeconds);

      start = System.nanoTime();
      for (DataFileMeta file : levels.allFiles()) {
        LocalBucket.find(built, (Long) levels.minKey(file)[0], file.level());
      }
      double buildSeconds = seconds(start);
      System.out.printf(
          "build from data files: %.1f s (%,.0f rows/s), disk %,d bytes (%.1f bytes/row)%n",
          buildSeconds,
          rows / buildSeconds,
          built.stats().diskBytes(),
          (double) built.stats().diskBytes() / rows);

      long[] random = new SplittableRandom(3).longs(LOOKUPS, 0, 2L * keys).toArray();
      long[] sorted = random.clone();
      Arrays.sort(sorted);
      for (LookupLevels lookup : List.of(handedOver, built, small)) {
        String name =
            lookup == handedOver
                ? "handed over, 256 MiB"
                : lookup == built ? "built, 256 MiB" : "built lazily, 16 MiB";
        time(lookup, name + ", random, cold", random);
        time(lookup, name + ", random, warm", random);
        time(lookup, name + ", sorted, warm", sorted);
        System.out.printf("  %s%n", lookup.stats());
      }
      Runtime runtime = Runtime.getRuntime();
      System.gc();
      System.out.printf(
          "heap used after GC with three caches open: %,d bytes%n",
          runtime.totalMemory() - runtime.freeMemory());
    }
  }

  private static void time(LookupLevels lookup, String name, long[] ids) throws IOException {
    long start = System.nanoTime();
    int found = 0;
    for (long id : ids) {
      KeyValue kv = LocalBucket.find(lookup, id, 1);
      if (id % 2 == 1) {
        assertNull(kv);
        continue;
      }
      long index = id / 2;
      int level = (int) levelOf(index);
      assertEquals(version(index, level).value()[2], kv.value()[2], "key " + id);
      found++;
    }
    double s = seconds(start);
    System.out.printf(
        "  %-32s %,d lookups (%,d found) in %.3f s: %,.0f lookups/s%n",
        name, ids.length, found, s, ids.length / s);
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }
}
