package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A compaction that leaves an older sorted run out (universal compaction's size-ratio pick: small
 * level-0 runs merged, the large top run left where it is) keeps the retractions it merges, which
 * must go on shadowing the versions in that run; the full compaction after it drops them. A merge
 * that dropped them there would bring deleted keys back.
 */
class PartialCompactionTest {

  private static final int KEYS = 20_000;
  private static final int DELETED = 100;

  @TempDir Path warehouse;

  @ParameterizedTest(name = "{0} sequence.field={1}")
  @CsvSource({
    "none, false",
    "input, false",
    "lookup, false",
    "full-compaction, false",
    "none, true",
    "input, true",
    "lookup, true",
    "full-compaction, true"
  })
  void retractionsMergedBesideALargerRunLeftOutKeepShadowingIt(
      String producer, boolean bySequenceField) throws Exception {
    Map<String, String> options = new HashMap<>(Map.of("changelog-producer", producer));
    if (bySequenceField) {
      // The commit's identifier, rising: each version orders after the ones before it.
      options.put("sequence.field", "store_id");
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "orders"), Orders.schema(options));
      RawReadTest.writeUpdates(table, 1, KEYS, CompactionRequest.FULL);
      SnapshotCommit commit = table.newCommit("test");
      long id = 2;
      try (TableWriter writer = table.newWriter()) {
        for (long k = 0; k < DELETED; k++) {
          writer.write(RowKind.DELETE, Orders.row(k, 1L, k));
        }
        commit.commit(id, writer.prepareCommit(id, CompactionRequest.NORMAL));
        // Small commits of other keys until universal compaction merges the small runs (NORMAL:
        // never the full compaction a full-compaction table makes on AUTO).
        for (id = 3; id < 9; id++) {
          for (long k = DELETED; k < DELETED + 10; k++) {
            writer.write(RowKind.UPDATE_AFTER, Orders.row(k, id, k * id));
          }
          commit.commit(id, writer.prepareCommit(id, CompactionRequest.NORMAL));
        }
      }
      BucketSplit split = RawReadTest.onlySplit(table);
      int top = split.files().stream().mapToInt(DataFileMeta::level).max().orElseThrow();
      List<DataFileMeta> between =
          split.files().stream().filter(f -> f.level() > 0 && f.level() < top).toList();
      assertFalse(between.isEmpty(), "a run merged below the top: " + split.files());
      assertEquals(
          DELETED,
          between.stream().mapToLong(DataFileMeta::deleteRowCount).sum(),
          "the retractions kept: " + between);
      assertKeysRead(table, split);

      try (TableWriter writer = table.newWriter()) {
        // A bucket is compacted by the writer that writes it: a key already deleted, again.
        writer.write(RowKind.DELETE, Orders.row(0, 1L, 0L));
        commit.commit(id, writer.prepareCommit(id, CompactionRequest.FULL));
      }
      BucketSplit full = RawReadTest.onlySplit(table);
      assertTrue(full.files().stream().allMatch(f -> f.level() == top && f.deleteRowCount() == 0));
      assertKeysRead(table, full);
    }
  }

  /** Every key but the deleted ones, the newest version of each. */
  private static void assertKeysRead(Table table, BucketSplit split) throws Exception {
    List<Object[]> rows = new ArrayList<>();
    try (TableRead.MergedRows merged = table.newRead().read(split)) {
      merged.forEachRemaining(rows::add);
    }
    assertEquals(KEYS - DELETED, rows.size());
    for (int i = 0; i < rows.size(); i++) {
      long key = DELETED + i;
      assertEquals(key, rows.get(i)[0]);
      assertEquals(key < DELETED + 10 ? 8L : 1L, rows.get(i)[1], "key " + key);
    }
  }
}
