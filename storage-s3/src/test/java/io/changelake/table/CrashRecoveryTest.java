package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.store.FaultInjectingObjectStore;
import io.changelake.store.FaultInjectingObjectStore.SimulatedCrash;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A commit stopped at each step and retried with the same identifier: the table holds every row
 * exactly once, and orphan cleaning removes only the files no snapshot references. A compaction
 * that fails half-way leaves no file behind.
 */
class CrashRecoveryTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  /** Crash points, by the first path the crashing write touches. */
  @ParameterizedTest(name = "crash before writing {0}")
  @ValueSource(
      strings = {
        "manifest/manifest-list-",
        "manifest/manifest-",
        "snapshot/snapshot-",
        "snapshot/LATEST"
      })
  void aCommitStoppedAtAnyStepAndRetriedLandsEveryRowOnce(String crashPoint) throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      Table setup = Table.create(disk, PATH, Orders.schema(Map.of("bucket", "2")));
      setup.newCommit("job").commit(1, SnapshotCommitTest.writeRows(setup, 0, 20));

      Predicate<String> crash = p -> p.startsWith(PATH.root() + crashPoint) && !p.endsWith("-1");
      FaultInjectingObjectStore faulty = new FaultInjectingObjectStore(disk, crash);
      Table crashing = Table.open(faulty, PATH);
      List<CommitMessage> messages = SnapshotCommitTest.writeRows(crashing, 20, 40);
      assertThrows(SimulatedCrash.class, () -> crashing.newCommit("job").commit(2, messages));
      assertTrue(faulty.crashed());

      // A new process: the same commit user and identifier, the same messages.
      Table restarted = Table.open(disk, PATH);
      restarted.newCommit("job").commit(2, messages);
      restarted.newCommit("job").commit(2, messages);

      assertEquals(List.of(1L, 2L), restarted.snapshots().listIds());
      assertEquals(40, restarted.newRead().readAll().size());
      assertEquals(40, restarted.snapshots().read(2).totalRecordCount());

      List<ObjectInfo> before = disk.list(PATH.root());
      List<String> removed = new OrphanFilesClean(restarted).clean(Duration.ZERO);
      for (String file : removed) {
        assertTrue(file.startsWith(PATH.manifestFolder()), "removed a non-manifest: " + file);
      }
      assertEquals(before.size() - removed.size(), disk.list(PATH.root()).size());
      assertEquals(40, restarted.newRead().readAll().size());
      Rows.assertSameRows(
          restarted.newRead().readAll(),
          PaimonTables.readAll(
              PaimonTables.open(warehouse.resolve(PATH.root())), restarted.schema()));
    }
  }

  /**
   * A full compaction of a lookup table whose data file is written but whose changelog file cannot
   * be uploaded fails the commit and deletes that data file too (no step records it): once the
   * commit prepared again has compacted again, every file is the snapshot's, and the changelog
   * holds the update's before- and after-image.
   */
  @Test
  void aCompactionWhoseChangelogCannotBeUploadedLeavesNoFileAndIsPreparedAgain() throws Exception {
    AtomicBoolean armed = new AtomicBoolean();
    try (FaultInjectingObjectStore store =
        FaultInjectingObjectStore.failingUploadOf(
            new LocalObjectStore(warehouse), p -> armed.get() && p.contains("/changelog-"))) {
      Table table =
          Table.create(
              store, PATH, Orders.schema(Map.of("bucket", "1", "changelog-producer", "lookup")));
      SnapshotCommit commit = table.newCommit("job");
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1, 10L, 100L));
        commit.commit(1, writer.prepareCommit(1, CompactionRequest.AUTO, true));
        writer.write(RowKind.INSERT, Orders.row(1, 10L, 80L));
        armed.set(true);

        IOException failed =
            assertThrows(
                IOException.class, () -> writer.prepareCommit(2, CompactionRequest.FULL, true));
        assertTrue(store.crashed(), failed.toString());

        commit.commit(2, writer.prepareCommit(2, CompactionRequest.FULL, true));
      }
      // Every file left is in the snapshot: the failed compaction's data file went with it.
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));
      assertEquals(
          List.of(
              new Change(2, RowKind.UPDATE_BEFORE, List.of(1L, 10L, 100L)),
              new Change(2, RowKind.UPDATE_AFTER, List.of(1L, 10L, 80L))),
          ChangelogScanTest.changelog(table, 2));
      Rows.assertSameRows(List.<Object[]>of(Orders.row(1, 10L, 80L)), table.newRead().readAll());
    }
  }

  @Test
  void orphanCleaningRemovesUnreferencedDataFilesOnlyPastTheSafetyAge() throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      Table table = Table.create(disk, PATH, Orders.schema(Map.of()));
      table.newCommit("job").commit(1, SnapshotCommitTest.writeRows(table, 0, 10));
      List<CommitMessage> neverCommitted = SnapshotCommitTest.writeRows(table, 10, 20);
      String orphan =
          PATH.bucketFolder("", neverCommitted.get(0).bucket())
              + neverCommitted.get(0).newFiles().get(0).fileName();
      assertTrue(disk.exists(orphan));

      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ofHours(1)));
      assertEquals(List.of(orphan), new OrphanFilesClean(table).clean(Duration.ZERO));
      assertEquals(10, table.newRead().readAll().size());
    }
  }
}
