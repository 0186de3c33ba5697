package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.KeyValue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tags in Paimon's layout: Paimon reads ours and we read Paimon's; a tag keeps its snapshot
 * readable through expiry and orphan cleaning; a changelog read can start at a tag.
 */
class TagsTest {

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
  void ourTagIsInPaimonsLayoutAndPaimonReadsIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.tags().create("release-1", 5);
      assertTrue(store.exists(PATH.root() + "tag/tag-release-1"));
      assertTrue(paimon.tagManager().tagExists("release-1"));
      List<Object[]> expected = PaimonStreams.readSnapshot(paimon, schema, 5);
      Rows.assertSameRows(expected, readTag(paimon, "release-1"));
      Rows.assertSameRows(expected, table.newRead().readAll(table.tags().read("release-1")));
      assertThrows(IllegalArgumentException.class, () -> table.tags().create("release-1", 6));
      assertThrows(IllegalArgumentException.class, () -> table.tags().create("123", 6));
      assertThrows(SnapshotNotFoundException.class, () -> table.tags().create("later", 99));

      table.tags().delete("release-1");
      assertFalse(paimon.tagManager().tagExists("release-1"));
      assertThrows(IllegalArgumentException.class, () -> table.tags().delete("release-1"));
    }
  }

  @Test
  void weReadATagPaimonMade() throws Exception {
    paimon.createTag("paimon-made", 4);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      assertEquals(List.of("paimon-made"), List.copyOf(table.tags().list().keySet()));
      Snapshot tagged = table.tags().read("paimon-made");
      assertEquals(4, tagged.id());
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, 4), table.newRead().readAll(tagged));
    }
  }

  @Test
  void expiryAndOrphanCleaningKeepEveryFileATagHolds() throws Exception {
    List<Object[]> atThree = PaimonStreams.readSnapshot(paimon, schema, 3);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      table.tags().create("keep", 3);
      assertEquals(latest - 2, table.newSnapshotExpiry().expire(Long.MAX_VALUE / 2).until());
      assertFalse(table.snapshots().exists(3));
      new OrphanFilesClean(table).clean(Duration.ZERO);

      Rows.assertSameRows(atThree, table.newRead().readAll(table.tags().read("keep")));
      Rows.assertSameRows(
          atThree, readTag(PaimonTables.open(warehouse.resolve(PATH.root())), "keep"));
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));

      table.tags().delete("keep");
      assertFalse(new OrphanFilesClean(table).clean(Duration.ZERO).isEmpty());
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));
    }
  }

  @Test
  void paimonsExpiryKeepsWhatOurTagHoldsAndWeReadWhatIsLeft() throws Exception {
    List<Object[]> atThree = PaimonStreams.readSnapshot(paimon, schema, 3);
    long latest;
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      latest = table.snapshots().latestId().orElseThrow();
      table.tags().create("ours", 3);
    }
    PaimonTables.open(warehouse.resolve(PATH.root()))
        .newExpireSnapshots()
        .config(
            ExpireConfig.builder()
                .snapshotRetainMin(2)
                .snapshotRetainMax(2)
                .snapshotMaxDeletes(100)
                .snapshotTimeRetain(Duration.ZERO)
                .build())
        .expire();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      assertEquals(latest - 1, table.snapshots().earliestId().orElseThrow());
      Rows.assertSameRows(atThree, table.newRead().readAll(table.tags().read("ours")));
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));
    }
  }

  @Test
  void aChangelogFromATagStartsWithItsRowsThenFollowsEveryLaterChange() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.tags().create("start", 4);
      ChangelogScan scan = table.newChangelogScan();
      ChangelogScan.Start start = scan.start(StartingPoint.fromTag("start"));
      assertEquals(5, start.nextSnapshot());
      Map<Object, Object[]> state = new TreeMap<>();
      fold(scan, start.state(), state);
      long latest = table.snapshots().latestId().orElseThrow();
      for (long id = start.nextSnapshot(); id <= latest; id++) {
        fold(scan, scan.changes(id), state);
      }
      Rows.assertSameRows(PaimonTables.readAll(paimon, schema), state.values());
    }
  }

  private static void fold(
      ChangelogScan scan, List<ChangelogTask> tasks, Map<Object, Object[]> state) throws Exception {
    for (ChangelogTask task : tasks) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          KeyValue kv = reader.next();
          if (kv.kind().isAdd()) {
            state.put(kv.value()[0], kv.value());
          } else {
            state.remove(kv.value()[0]);
          }
        }
      }
    }
  }

  private static List<Object[]> readTag(FileStoreTable table, String tag) throws Exception {
    return PaimonTables.readAll(table.copy(Map.of("scan.tag-name", tag)), Orders.schema(Map.of()));
  }
}
