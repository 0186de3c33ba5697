package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting a tag takes with it the files only it kept, as Paimon's does, and nothing another tag, a
 * snapshot or a reader still needs.
 */
class TagDeletionTest {

  private static final TablePath PATH = ChangelogScanTest.PATH;

  @TempDir Path warehouse;

  private TableSchema schema;
  private FileStoreTable paimon;

  /** A lookup table Paimon wrote in 8 commits: snapshots 1 to 16. */
  @BeforeEach
  void writeWithPaimon() throws Exception {
    schema = Orders.schema(PaimonStreams.EXPIRING_LOOKUP);
    paimon = PaimonStreams.writeEightCommits(warehouse, PATH, schema, 7);
  }

  @Test
  void aTagOfAnExpiredSnapshotTakesTheFilesOnlyItKeptAndLeavesNoOrphan() throws Exception {
    List<Object[]> atFive = PaimonStreams.readSnapshot(paimon, schema, 5);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      List<Object[]> atLatest = PaimonStreams.readSnapshot(paimon, schema, latest);
      table.tags().create("old", 3);
      table.tags().create("kept", 5);
      table.newSnapshotExpiry().expire(Long.MAX_VALUE / 2);
      assertFalse(table.snapshots().exists(5));
      assertTrue(new OrphanFilesClean(table).clean(Duration.ZERO).isEmpty(), "nothing orphaned");

      List<String> deleted = new TagDeletion(table).delete("old");

      assertFalse(deleted.isEmpty(), "tag 'old' was the last holder of files");
      assertFalse(table.tags().get("old").isPresent());
      for (String file : deleted) {
        assertFalse(store.exists(file), file);
      }
      assertEquals(
          List.of(),
          new OrphanFilesClean(table).clean(Duration.ZERO),
          "orphan cleaning finds nothing the deletion left behind");
      Rows.assertSameRows(atFive, table.newRead().readAll(table.tags().read("kept")));
      Rows.assertSameRows(atLatest, table.newRead().readAll(table.snapshots().read(latest)));
      FileStoreTable reopened = PaimonTables.open(warehouse.resolve(PATH.root()));
      Rows.assertSameRows(atLatest, PaimonStreams.readSnapshot(reopened, schema, latest));
    }
  }

  @Test
  void aTagOfALiveSnapshotDeletesOnlyItself() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      table.tags().create("live", latest);

      assertEquals(List.of(), new TagDeletion(table).delete("live"));
      assertFalse(table.tags().get("live").isPresent());
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));
    }
  }

  @Test
  void tagsDeletedTogetherTakeTheFilesOnlyTheyKeptAndAMissingOneStopsAllBeforeAnyIsDeleted()
      throws Exception {
    List<Object[]> atSeven = PaimonStreams.readSnapshot(paimon, schema, 7);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      table.tags().create("three", 3);
      table.tags().create("five", 5);
      table.tags().create("seven", 7);
      table.newSnapshotExpiry().expire(Long.MAX_VALUE / 2);
      TagDeletion deletion = new TagDeletion(table);

      assertThrows(
          IllegalArgumentException.class, () -> deletion.delete(List.of("three", "missing")));
      assertTrue(table.tags().get("three").isPresent(), "nothing deleted");

      List<String> deleted = deletion.delete(List.of("three", "five"));
      assertFalse(deleted.isEmpty());
      for (String file : deleted) {
        assertFalse(store.exists(file), file);
      }
      assertEquals(List.of("seven"), List.copyOf(table.tags().list().keySet()));
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));
      Rows.assertSameRows(atSeven, table.newRead().readAll(table.tags().read("seven")));
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));
    }
  }
}
