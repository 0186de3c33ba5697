package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.format.ManifestEntry;
import io.changelake.mergetree.BucketIncrement;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCommitTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  static List<CommitMessage> writeRows(Table table, long fromKey, long toKey) throws Exception {
    try (TableWriter writer = table.newWriter()) {
      for (long k = fromKey; k < toKey; k++) {
        writer.write(RowKind.INSERT, Orders.row(k, k % 7, k * 10));
      }
      return writer.prepareCommit(1);
    }
  }

  @Test
  void retriedCommitWithTheSameIdentifierLandsOnce() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      List<CommitMessage> messages = writeRows(table, 0, 10);
      List<Snapshot> first = table.newCommit("job").commit(1, messages);
      List<Snapshot> again = table.newCommit("job").commit(1, messages);
      assertEquals(1, first.size());
      assertEquals(first, again);
      assertEquals(List.of(1L), table.snapshots().listIds());
      assertEquals(10, table.newRead().readAll().size());
      assertEquals(10, table.snapshots().read(1).totalRecordCount());
    }
  }

  @Test
  void anotherUsersCommitWithTheSameIdentifierIsNotMistakenForOurs() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      table.newCommit("job-a").commit(1, writeRows(table, 0, 5));
      table.newCommit("job-b").commit(1, writeRows(table, 5, 10));
      assertEquals(List.of(1L, 2L), table.snapshots().listIds());
      assertEquals(10, table.newRead().readAll().size());
    }
  }

  @Test
  void flushedAndCompactedFilesLandAsAppendThenCompactSnapshots() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      CommitMessage first = writeRows(table, 0, 10).get(0);
      table.newCommit("job").commit(1, List.of(first));
      CommitMessage second = writeRows(table, 10, 20).get(0);
      DataFileMeta flushed = first.newFiles().get(0);
      CommitMessage both =
          new CommitMessage(
              second.partition(),
              second.bucket(),
              second.totalBuckets(),
              new BucketIncrement(
                  second.newFiles(),
                  List.of(),
                  List.of(flushed),
                  List.of(flushed.upgrade(5)),
                  List.of()));
      List<Snapshot> snapshots = table.newCommit("job").commit(2, List.of(both));
      assertEquals(
          List.of(CommitKind.APPEND, CommitKind.COMPACT),
          snapshots.stream().map(Snapshot::commitKind).toList());
      Snapshot compact = snapshots.get(1);
      List<ManifestEntry> live = table.newScan().liveFiles(compact);
      assertEquals(List.of(0, 5), live.stream().map(e -> e.file().level()).sorted().toList());
      assertEquals(20, compact.totalRecordCount());
      assertEquals(20, table.newRead().readAll().size());
    }
  }

  @Test
  void replacingAFileThatAnotherCommitAlreadyReplacedIsAConflict() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      CommitMessage flush = writeRows(table, 0, 10).get(0);
      table.newCommit("job").commit(1, List.of(flush));
      DataFileMeta file = flush.newFiles().get(0);
      CommitMessage compaction =
          new CommitMessage(
              flush.partition(),
              flush.bucket(),
              flush.totalBuckets(),
              new BucketIncrement(
                  List.of(), List.of(), List.of(file), List.of(file.upgrade(1)), List.of()));
      table.newCommit("writer-a").commit(1, List.of(compaction));
      CommitConflictException e =
          assertThrows(
              CommitConflictException.class,
              () -> table.newCommit("writer-b").commit(1, List.of(compaction)));
      assertTrue(e.getMessage().contains(file.fileName()), e.getMessage());
      assertFalse(e.retryable());
      assertEquals(List.of(1L, 2L), table.snapshots().listIds());
    }
  }

  @Test
  void overlappingKeysAtTheSameUpperLevelOfABucketAreAConflict() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      CommitMessage low = writeRows(table, 0, 10).get(0);
      CommitMessage high = writeRows(table, 5, 15).get(0);
      table.newCommit("job").commit(1, List.of(low, high));
      DataFileMeta lowFile = low.newFiles().get(0);
      DataFileMeta highFile = high.newFiles().get(0);
      table.newCommit("writer-a").commit(1, List.of(upgrade(low, lowFile, 1)));
      CommitConflictException e =
          assertThrows(
              CommitConflictException.class,
              () -> table.newCommit("writer-b").commit(1, List.of(upgrade(high, highFile, 1))));
      assertTrue(e.getMessage().contains("overlapping"), e.getMessage());
      assertFalse(e.retryable());
      // The same file at another level overlaps nothing there.
      table.newCommit("writer-b").commit(2, List.of(upgrade(high, highFile, 2)));
    }
  }

  private static CommitMessage upgrade(CommitMessage m, DataFileMeta file, int level) {
    return new CommitMessage(
        m.partition(),
        m.bucket(),
        m.totalBuckets(),
        new BucketIncrement(
            List.of(), List.of(), List.of(file), List.of(file.upgrade(level)), List.of()));
  }

  @Test
  void baseManifestsAreRewrittenAsOneLiveSetWhenTheyPileUp() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      SnapshotCommit commit = table.newCommit("job");
      int commits = CommitManifests.MANIFEST_MERGE_MIN_COUNT + 5;
      for (int i = 0; i < commits; i++) {
        commit.commit(i + 1, writeRows(table, i * 3L, i * 3L + 3));
      }
      Snapshot latest = table.snapshots().latest().orElseThrow();
      int manifests =
          table.newScan().manifestsOf(latest.baseManifestList(), latest).size()
              + table.newScan().manifestsOf(latest.deltaManifestList(), latest).size();
      assertTrue(manifests <= CommitManifests.MANIFEST_MERGE_MIN_COUNT, "manifests: " + manifests);
      assertEquals(commits * 3, table.newRead().readAll().size());
      assertEquals(commits * 3L, latest.totalRecordCount());
    }
  }

  @Test
  void runningOutOfRetriesIsARetryableFailureThatLeavesNoManifests() throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      ObjectStore contended = alwaysLosingSnapshotRaces(disk);
      Table table =
          Table.create(
              contended,
              PATH,
              Orders.schema(
                  Map.of(
                      "commit.max-retries", "2",
                      "commit.min-retry-wait", "1 ms",
                      "commit.max-retry-wait", "2 ms")));
      SnapshotCommit commit = table.newCommit("job");
      List<CommitMessage> messages = writeRows(table, 0, 10);
      CommitConflictException e =
          assertThrows(CommitConflictException.class, () -> commit.commit(1, messages));
      assertTrue(e.retryable());
      assertTrue(e.getMessage().contains("'commit.max-retries' (2)"), e.getMessage());
      assertEquals(3, commit.lostRaces());
      assertEquals(List.of(), disk.list(PATH.manifestFolder()));
      // Once the contention is gone, the same commit lands.
      Table uncontended = Table.open(disk, PATH);
      uncontended.newCommit("job").commit(1, messages);
      assertEquals(10, uncontended.newRead().readAll().size());
    }
  }

  @Test
  void retryWaitsThatCannotHoldAreRefusedByName() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(
                  Map.of("commit.min-retry-wait", "2 s", "commit.max-retry-wait", "1 s")));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> table.newCommit("job"));
      assertTrue(e.getMessage().contains("'commit.min-retry-wait'"), e.getMessage());
    }
  }

  /** {@code store}, except that every snapshot it is asked to create was taken by someone else. */
  private static ObjectStore alwaysLosingSnapshotRaces(ObjectStore store) {
    return (ObjectStore)
        Proxy.newProxyInstance(
            ObjectStore.class.getClassLoader(),
            new Class<?>[] {ObjectStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("createIfAbsent")
                  && ((String) args[0]).contains("/snapshot/snapshot-")) {
                return false;
              }
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}
