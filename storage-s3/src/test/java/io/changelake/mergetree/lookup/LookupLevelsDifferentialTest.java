package io.changelake.mergetree.lookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.Levels;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compares lookups against a model, the levels as sorted maps, while random compactions replace the
 * content of levels, under budgets small enough that blocks, indexes and copies are evicted: each
 * key looked up as a key and as a row of the table, whose answer is a view of the block.
 */
class LookupLevelsDifferentialTest {

  private static final RowType KEY =
      RowType.of(
          new String[] {"region", "id"}, new DataType[] {DataType.string(), DataType.intType()});
  private static final RowType VALUE =
      RowType.of(
          new String[] {"region", "id", "amount", "note"},
          new DataType[] {
            DataType.string(), DataType.intType(), DataType.bigint(), DataType.string()
          });
  private static final String[] REGIONS = {
    "", "a", "b", "ü-region", "a-very-long-region-name", "a region name whose key outgrows 64 bytes"
  };
  private static final int IDS = 3_000;
  private static final int LEVELS = 5;

  @TempDir Path dir;

  @Test
  void lookupsAgreeWithAModelOfTheLevelsAcrossCompactions() throws IOException {
    SplittableRandom random = new SplittableRandom(20240611);
    RowComparator order = new RowComparator(KEY);
    LocalBucket bucket = new LocalBucket(dir, KEY, VALUE);
    List<TreeMap<Object[], KeyValue>> model = new ArrayList<>();
    List<List<DataFileMeta>> files = new ArrayList<>();
    for (int level = 0; level < LEVELS; level++) {
      model.add(new TreeMap<>(order));
      files.add(List.of());
    }
    Levels levels = new Levels(KEY, LEVELS, List.of());
    long sequence = 0;
    int lookups = 0;
    try (LookupLevels lookup = bucket.lookupLevels(levels, 256 << 10, 6 << 20)) {
      for (int round = 0; round < 40; round++) {
        int level = 1 + random.nextInt(LEVELS - 1);
        TreeMap<Object[], KeyValue> content = new TreeMap<>(order);
        double density = random.nextDouble();
        sequence++;
        for (String region : REGIONS) {
          for (int id = 0; id < IDS; id++) {
            if (random.nextDouble() < density) {
              Object[] key = {region, id};
              content.put(key, new KeyValue(key, sequence, kind(random), value(key, random)));
            }
          }
        }
        List<DataFileMeta> written = write(bucket, lookup, level, content, random);
        levels.update(files.get(level), written);
        for (DataFileMeta gone : files.get(level)) {
          lookup.remove(gone);
        }
        files.set(level, written);
        model.set(level, content);

        for (int i = 0; i < 1_000; i++) {
          Object[] key = {REGIONS[random.nextInt(REGIONS.length)], random.nextInt(-5, IDS + 5)};
          int startLevel = 1 + random.nextInt(LEVELS - 1);
          String expected = describe(modelLookup(model, key, startLevel));
          String what =
              "round " + round + ", key " + Arrays.toString(key) + " from level " + startLevel;
          // The key in a row of the table, as a compaction looks it up: a view of the block.
          KeyValue row =
              new KeyValue(key, 0, RowKind.INSERT, new Object[] {key[0], key[1], 1L, "unread"});
          ChangeRow found = lookup.lookup(row, startLevel);
          assertEquals(expected, describe(found == null ? null : found.toKeyValue()), what);
          if (found != null) {
            assertEquals(key[1], found.getInt(1), what);
            assertEquals(found.get(2), found.getLong(2), what);
          }
          lookups++;
        }
      }
      LookupLevels.CacheStats stats = lookup.stats();
      System.out.printf("%,d lookups agreed with the model; %s%n", lookups, stats);
    }
  }

  /**
   * A copy handed a key of several columns that does not follow the last one, equal to it or before
   * it by a later column, fails naming both keys, and leaves no file.
   */
  @ParameterizedTest
  @ValueSource(ints = {7, 6})
  void aHandOverOfAKeyNotAfterTheLastFailsNamingBoth(int id) throws IOException {
    LocalBucket bucket = new LocalBucket(dir, KEY, VALUE);
    try (LookupLevels lookup =
            bucket.lookupLevels(new Levels(KEY, 3, List.of()), 1 << 20, 1 << 20);
        LookupFileBuilder builder = lookup.newFile()) {
      SplittableRandom random = new SplittableRandom(id);
      for (Object[] key : new Object[][] {{"a", 9}, {"b", 1}, {"b", 7}}) {
        builder.add(new KeyValue(key, 1, RowKind.INSERT, value(key, random)));
      }
      Object[] key = {"b", id};
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () -> builder.add(new KeyValue(key, 2, RowKind.INSERT, value(key, random))));
      assertTrue(
          refused.getMessage().startsWith("key [b, " + id + "] follows [b, 7] in "),
          refused.getMessage());
    }
    try (Stream<Path> left = Files.list(bucket.cacheFolder)) {
      assertEquals(List.of(), left.toList());
    }
  }

  /** Writes a level's content as files of random sizes, half of them handed over. */
  private static List<DataFileMeta> write(
      LocalBucket bucket,
      LookupLevels lookup,
      int level,
      TreeMap<Object[], KeyValue> content,
      SplittableRandom random)
      throws IOException {
    List<KeyValue> sorted = new ArrayList<>(content.values());
    List<DataFileMeta> written = new ArrayList<>();
    for (int from = 0; from < sorted.size(); ) {
      int to = Math.min(sorted.size(), from + 200 + random.nextInt(3_000));
      List<KeyValue> part = sorted.subList(from, to);
      if (random.nextBoolean()) {
        try (LookupFileBuilder builder = lookup.newFile()) {
          written.add(bucket.write(level, part, builder));
        }
      } else {
        written.add(bucket.write(level, part));
      }
      from = to;
    }
    return written;
  }

  private static RowKind kind(SplittableRandom random) {
    int r = random.nextInt(10);
    return r < 5
        ? RowKind.INSERT
        : r < 8 ? RowKind.UPDATE_AFTER : r < 9 ? RowKind.DELETE : RowKind.UPDATE_BEFORE;
  }

  /** A row whose note is null, short, long, or rarely larger than a block. */
  private static Object[] value(Object[] key, SplittableRandom random) {
    int r = random.nextInt(1_000);
    String note =
        r < 200
            ? null
            : r < 600
                ? "n" + r
                : r < 999
                    ? "a longer note " + r + " that needs the variable part"
                    : "x".repeat(LookupFileBuilder.BLOCK_BYTES + r);
    return new Object[] {key[0], key[1], random.nextLong(), note};
  }

  private static KeyValue modelLookup(
      List<TreeMap<Object[], KeyValue>> model, Object[] key, int startLevel) {
    for (int level = startLevel; level < LEVELS; level++) {
      KeyValue kv = model.get(level).get(key);
      if (kv != null) {
        return kv;
      }
    }
    return null;
  }

  private static String describe(KeyValue kv) {
    return kv == null
        ? "null"
        : Arrays.deepToString(new Object[] {kv.key(), kv.sequenceNumber(), kv.kind(), kv.value()});
  }
}
