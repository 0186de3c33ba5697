package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.RecordingObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads hold one file open per sorted run, not per file, as Paimon's readers do: a file is opened
 * when the read reaches it (the store is asked for its size then) and closed when it is exhausted.
 * A bucket of many files thus costs a reader one row group in memory per run.
 */
class OneFilePerSortedRunTest {

  private static final TablePath PATH = new TablePath("db", "orders");

  /** Keys written: with 4 kB files (a size check every 1,024 rows), about twenty files. */
  private static final int KEYS = 20_000;

  @TempDir Path warehouse;

  /**
   * A level-0 file beside a top level of many 4 kB files: the first row needs the first file of
   * each of the two runs, and each file is opened once over the whole read, which gives the newest
   * version of every key.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"deduplicate", "partial-update"})
  void aMergedReadOpensOneFileOfEachSortedRunAtATime(String engine) throws Exception {
    try (RecordingObjectStore store = new RecordingObjectStore(new LocalObjectStore(warehouse))) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(Map.of("target-file-size", "4 kb", "merge-engine", engine)));
      RawReadTest.writeUpdates(table, 1, KEYS, CompactionRequest.FULL);
      RawReadTest.writeUpdates(table, 2, 10, CompactionRequest.AUTO);
      BucketSplit split = RawReadTest.onlySplit(table);
      long levelZero = split.files().stream().filter(f -> f.level() == 0).count();
      assertEquals(1, levelZero, split.files().toString());
      assertTrue(split.files().size() > 10, "many files at the top: " + split.files().size());

      List<Object[]> rows = new ArrayList<>();
      int statsBefore = store.stats().size();
      try (TableRead.MergedRows merged = table.newRead().read(split)) {
        assertFalse(merged.raw());
        rows.add(merged.next());
        assertEquals(2, dataFilesOpened(store, statsBefore), "one file of each run");
        merged.forEachRemaining(rows::add);
      }
      assertEquals(
          split.files().size(),
          dataFilesOpened(store, statsBefore),
          "every file, each when reached");
      assertEquals(KEYS, rows.size());
      for (int k = 0; k < rows.size(); k++) {
        assertEquals((long) k, rows.get(k)[0]);
        assertEquals(k < 10 ? 2L : 1L, rows.get(k)[1], "the newest version of key " + k);
      }
    }
  }

  @Test
  void aRawReadOpensEachFileWhenItReachesIt() throws Exception {
    try (RecordingObjectStore store = new RecordingObjectStore(new LocalObjectStore(warehouse))) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of("target-file-size", "4 kb")));
      RawReadTest.writeUpdates(table, 1, KEYS, CompactionRequest.FULL);
      BucketSplit split = RawReadTest.onlySplit(table);
      int statsBefore = store.stats().size();
      long rows = 0;
      try (TableRead.MergedRows raw = table.newRead().read(split)) {
        assertTrue(raw.raw());
        assertEquals(0L, raw.next()[0]);
        rows++;
        assertEquals(1, dataFilesOpened(store, statsBefore));
        for (; raw.hasNext(); rows++) {
          assertEquals(rows, raw.next()[0]);
        }
      }
      assertEquals(KEYS, rows);
      assertEquals(split.files().size(), dataFilesOpened(store, statsBefore));
    }
  }

  /**
   * A full compaction's changelog, rolled into many files written in key order, is read as one run:
   * its first change needs its first file alone.
   */
  @Test
  void aChangelogReadOpensOneFileOfACommitsChangelogAtATime() throws Exception {
    try (RecordingObjectStore store = new RecordingObjectStore(new LocalObjectStore(warehouse))) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(
                  Map.of("target-file-size", "4 kb", "changelog-producer", "full-compaction")));
      RawReadTest.writeUpdates(table, 1, KEYS, CompactionRequest.FULL);
      ChangelogScan scan = table.newChangelogScan();
      List<ChangelogTask> tasks = scan.changes(1);
      assertEquals(1, tasks.size());
      assertTrue(tasks.get(0).files().size() > 10, "files: " + tasks.get(0).files().size());

      int statsBefore = store.stats().size();
      long changes = 0;
      try (ChangelogScan.ChangelogReader reader = scan.read(tasks.get(0))) {
        assertEquals(0L, reader.next().key()[0]);
        changes++;
        assertEquals(1, changelogFilesOpened(store, statsBefore));
        for (; reader.hasNext(); changes++) {
          assertEquals(RowKind.INSERT, reader.next().kind());
        }
      }
      assertEquals(KEYS, changes);
      assertEquals(tasks.get(0).files().size(), changelogFilesOpened(store, statsBefore));
    }
  }

  /**
   * Files of one level that overlap, which no merge tree writes, are not read as one run: the merge
   * takes each as its own run and still gives each key once, its newest version.
   */
  @Test
  void overlappingFilesOfOneLevelAreMergedAsRunsOfTheirOwn() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      RawReadTest.writeUpdates(table, 1, 50, CompactionRequest.AUTO);
      RawReadTest.writeUpdates(table, 2, 10, CompactionRequest.AUTO);
      BucketSplit levelZero = RawReadTest.onlySplit(table);
      List<DataFileMeta> atLevelOne = new ArrayList<>();
      for (DataFileMeta f : levelZero.files()) {
        assertEquals(0, f.level());
        atLevelOne.add(f.upgrade(1));
      }
      atLevelOne.sort(Comparator.comparingLong(DataFileMeta::maxSequenceNumber));
      BucketSplit overlapping =
          new BucketSplit(
              levelZero.snapshotId(), levelZero.partition(), levelZero.bucket(), atLevelOne);

      TableRead read = table.newRead();
      assertEquals(2, read.sortedRuns(atLevelOne).size());
      List<Object[]> rows = new ArrayList<>();
      try (TableRead.MergedRows merged = read.merged(overlapping)) {
        merged.forEachRemaining(rows::add);
      }
      assertEquals(50, rows.size());
      for (int k = 0; k < rows.size(); k++) {
        assertEquals((long) k, rows.get(k)[0]);
        assertEquals(k < 10 ? 2L : 1L, rows.get(k)[1]);
      }
    }
  }

  /** Data files the store was asked the size of since {@code from}, each counted once. */
  private static long dataFilesOpened(RecordingObjectStore store, int from) {
    return filesOpened(store, from, "/data-");
  }

  private static long changelogFilesOpened(RecordingObjectStore store, int from) {
    return filesOpened(store, from, "/changelog-");
  }

  private static long filesOpened(RecordingObjectStore store, int from, String kind) {
    List<String> stats = store.stats();
    return stats.subList(from, stats.size()).stream()
        .filter(p -> p.contains(kind))
        .distinct()
        .count();
  }
}
