package io.changelake.table;

import static io.changelake.table.BadInputTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollback to a snapshot or a tag leaves exactly the files the remaining snapshots and tags use, a
 * table Paimon and we read and write on, and refuses while a consumer has read past the target.
 */
class RollbackTest {

  private static final TablePath PATH = ChangelogScanTest.PATH;

  @TempDir Path warehouse;

  private TableSchema schema;
  private FileStoreTable paimon;

  /** A lookup table Paimon wrote in 8 commits: snapshots 1 to 16. */
  @BeforeEach
  void writeWithPaimon() throws Exception {
    schema = Orders.schema(PaimonStreams.EXPIRING_LOOKUP);
    paimon = PaimonStreams.writeEightCommits(warehouse, PATH, schema, 11);
  }

  @Test
  void rollbackToASnapshotLeavesOnlyWhatRemainsAndBothEnginesGoOn() throws Exception {
    List<Object[]> atEight = PaimonStreams.readSnapshot(paimon, schema, 8);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.tags().create("early", 6);
      table.tags().create("late", 14);
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));

      Rollback.RolledBack done = table.rollback().toSnapshot(8, false);
      assertEquals(8, done.snapshotId());
      assertEquals(List.of(9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L), done.removedSnapshots());
      assertEquals(List.of("late"), done.removedTags());
      assertEquals(8, table.snapshots().latestId().orElseThrow());
      assertFalse(table.snapshots().exists(9));
      assertEquals(List.of("early"), List.copyOf(table.tags().list().keySet()));
      // Exactly the unused files went: nothing is left for orphan cleaning.
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));

      Rows.assertSameRows(atEight, table.newRead().readAll(table.snapshots().read(8)));
      FileStoreTable reopened = PaimonTables.open(warehouse.resolve(PATH.root()));
      Rows.assertSameRows(atEight, PaimonTables.readAll(reopened, schema));

      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(777L, 7L, 7L));
        assertEquals(9, table.newCommit("after").commit(1, writer.prepareCommit(1)).get(0).id());
      }
      assertTrue(
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema).stream()
              .anyMatch(r -> r[0].equals(777L)));
    }
  }

  @Test
  void rollbackToATagWhoseSnapshotExpiredRestoresIt() throws Exception {
    List<Object[]> atThree = PaimonStreams.readSnapshot(paimon, schema, 3);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.tags().create("three", 3);
      table.newSnapshotExpiry().expire(Long.MAX_VALUE / 2);
      assertFalse(table.snapshots().exists(3));

      Rollback.RolledBack done = table.rollback().toTag("three", false);
      assertEquals(3, done.snapshotId());
      assertEquals(3, table.snapshots().earliestId().orElseThrow());
      assertEquals(3, table.snapshots().latestId().orElseThrow());
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));
      Rows.assertSameRows(atThree, table.newRead().readAll(table.snapshots().read(3)));
      Rows.assertSameRows(
          atThree, PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema));
    }
  }

  @Test
  void aConsumerThatReadPastTheTargetRefusesTheRollbackUntilDropped() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.consumers().record("dashboard", 12);
      table.consumers().record("slow", 5);
      IllegalStateException refused =
          assertThrows(IllegalStateException.class, () -> table.rollback().toSnapshot(8, false));
      assertMentions(refused, "[dashboard]", "read past", "drop-consumers-ahead");
      assertEquals(16, table.snapshots().latestId().orElseThrow());

      Rollback.RolledBack done = table.rollback().toSnapshot(8, true);
      assertEquals(List.of("dashboard"), done.droppedConsumers());
      assertEquals(Map.of("slow", 5L), table.consumers().list());
    }
  }
}
