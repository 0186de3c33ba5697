package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.table.PaimonStreams.Change;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The decoupled changelog lifecycle: when the changelog retention exceeds the snapshot retention,
 * an expired snapshot's changelog stays readable from {@code changelog/changelog-<id>} until its
 * own retention ends, on either side: Paimon follows a table we expired so, and we follow one
 * Paimon expired so, from an early snapshot, with exactly the changes a table without expiry
 * yields.
 */
class DecoupledChangelogTest {

  private static final TablePath PATH = ChangelogScanTest.PATH;
  private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

  /** Few snapshots, more changelogs: counted from the latest snapshot, 3 and 12. */
  private static final Map<String, String> DECOUPLED =
      Map.of(
          "snapshot.num-retained.min", "3",
          "snapshot.num-retained.max", "3",
          "changelog.num-retained.min", "12",
          "changelog.num-retained.max", "12");

  @TempDir Path warehouse;

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "input", "none"})
  void paimonFollowsFromAnEarlySnapshotATableWeExpiredWithALongerChangelogRetention(String producer)
      throws Exception {
    TableSchema schema = Orders.schema(Map.of("bucket", "2", "changelog-producer", producer));
    FileStoreTable paimon = writeWithPaimon(warehouse, schema, 7);
    long latest = paimon.snapshotManager().latestSnapshotId();
    long first = latest - 12 + 1;
    List<Change> before = PaimonStreams.changelog(paimon, schema, first);

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SnapshotExpiryTest.tableWithOptions(store, DECOUPLED);
      assertTrue(table.options().changelogDecoupled());
      SnapshotExpiry.Expired expired = table.newSnapshotExpiry().expire(FAR_FUTURE);
      assertEquals(latest - 3 + 1, expired.until());
      assertEquals(first - 1, expired.changelogs());

      SnapshotLog changelogs = SnapshotLog.changelogs(store, PATH);
      assertEquals(first, changelogs.earliestId().orElseThrow());
      assertEquals(latest - 3, changelogs.latestId().orElseThrow());
      assertEquals(latest - 3 + 1, table.snapshots().earliestId().orElseThrow());
      assertEquals(before, ChangelogScanTest.changelog(table, first));
      assertEquals(
          before,
          PaimonStreams.changelog(
              PaimonTables.open(warehouse.resolve(PATH.root())), schema, first));
      SnapshotNotFoundException gone =
          assertThrows(
              SnapshotNotFoundException.class, () -> table.newChangelogScan().changes(first - 1));
      assertTrue(gone.getMessage().contains("has expired"), gone.getMessage());

      assertNothingUnreferenced(table, store);
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, latest),
          table.newRead().readAll(table.snapshots().read(latest)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "none"})
  void weFollowFromAnEarlySnapshotATablePaimonExpiredWithALongerChangelogRetention(String producer)
      throws Exception {
    TableSchema schema = Orders.schema(Map.of("bucket", "2", "changelog-producer", producer));
    FileStoreTable unexpired =
        writeWithPaimon(Files.createDirectories(warehouse.resolve("twin")), schema, 11);
    FileStoreTable paimon = writeWithPaimon(warehouse, schema, 11);
    // Paimon's own expiry, as its committer runs it, under the decoupled options.
    Map<String, String> options = new HashMap<>(DECOUPLED);
    options.put("snapshot.time-retained", "1 ms");
    options.put("changelog.time-retained", "1 ms");
    FileStoreTable expiring = paimon.copy(options);
    org.apache.paimon.options.ExpireConfig config = expiring.coreOptions().expireConfig();
    assertTrue(config.isChangelogDecoupled());
    Thread.sleep(5);
    while (expiring.newExpireSnapshots().config(config).expire() > 0) {
      // snapshot.expire.limit bounds one run.
    }
    while (expiring.newExpireChangelog().config(config).expire() > 0) {
      // the same bound
    }

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      SnapshotLog changelogs = SnapshotLog.changelogs(store, PATH);
      long first = changelogs.earliestId().orElseThrow();
      assertEquals(latest - 12 + 1, first);
      assertEquals(latest - 3 + 1, table.snapshots().earliestId().orElseThrow());
      assertEquals(
          PaimonStreams.changelog(unexpired, schema, first),
          ChangelogScanTest.changelog(table, first));
      assertNothingUnreferenced(table, store);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "input"})
  void paimonsExpiryOnATableWeWroteWithADecoupledChangelogLeavesItReadableToBoth(String producer)
      throws Exception {
    Map<String, String> options = new HashMap<>(DECOUPLED);
    options.put("bucket", "2");
    options.put("changelog-producer", producer);
    TableSchema schema = Orders.schema(options);
    Map<String, String> unexpiring = new HashMap<>(options);
    unexpiring.keySet().removeAll(DECOUPLED.keySet());
    Path twinFolder = Files.createDirectories(warehouse.resolve("twin"));
    try (LocalObjectStore twin = new LocalObjectStore(twinFolder)) {
      writeWithUs(Table.create(twin, PATH, Orders.schema(unexpiring)), 13, 20);
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse);
        LocalObjectStore twin = new LocalObjectStore(twinFolder)) {
      Table table = Table.create(store, PATH, schema);
      writeWithUs(table, 13, 20);
      long latest = table.snapshots().latestId().orElseThrow();
      SnapshotLog changelogs = SnapshotLog.changelogs(store, PATH);
      assertEquals(latest - 12 + 1, changelogs.earliestId().orElseThrow());

      // Paimon's own expiry, as its committer runs it, with shorter retentions than ours.
      Map<String, String> shorter =
          Map.of(
              "snapshot.num-retained.min", "2",
              "snapshot.num-retained.max", "2",
              "snapshot.time-retained", "1 ms",
              "changelog.num-retained.min", "6",
              "changelog.num-retained.max", "6",
              "changelog.time-retained", "1 ms");
      FileStoreTable expiring =
          PaimonTables.open(warehouse.resolve(PATH.root())).copy(new HashMap<>(shorter));
      org.apache.paimon.options.ExpireConfig config = expiring.coreOptions().expireConfig();
      Thread.sleep(5);
      while (expiring.newExpireSnapshots().config(config).expire() > 0) {
        // snapshot.expire.limit bounds one run.
      }
      while (expiring.newExpireChangelog().config(config).expire() > 0) {
        // the same bound
      }

      long first = latest - 6 + 1;
      assertEquals(first, changelogs.earliestId().orElseThrow());
      assertEquals(latest - 2 + 1, table.snapshots().earliestId().orElseThrow());
      List<Change> expected = ChangelogScanTest.changelog(Table.open(twin, PATH), first);
      assertFalse(expected.isEmpty());
      assertEquals(expected, ChangelogScanTest.changelog(table, first));
      assertEquals(
          expected,
          PaimonStreams.changelog(
              PaimonTables.open(warehouse.resolve(PATH.root())), schema, first));
      assertNothingUnreferenced(table, store);
      Rows.assertSameRows(
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema),
          table.newRead().readAll());
    }
  }

  @Test
  void ourCommitsKeepChangelogsUpToTheirOwnRetentionAndALaggingConsumerHoldsThem()
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Map<String, String> options = new HashMap<>(Map.of("bucket", "1"));
      options.putAll(
          Map.of(
              "snapshot.num-retained.min", "1",
              "snapshot.num-retained.max", "2",
              "changelog.num-retained.min", "4",
              "changelog.num-retained.max", "5"));
      Table table = Table.create(store, PATH, Orders.schema(options));
      SnapshotCommit commit = table.newCommit("ours");
      for (long id = 1; id <= 8; id++) {
        commitRow(table, commit, id);
      }
      assertEquals(0, commit.failedExpiries());
      SnapshotLog changelogs = SnapshotLog.changelogs(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      // The latest 2 snapshots (num-retained.max), the changelogs of the 3 before (5 in all).
      assertEquals(latest - 1, table.snapshots().earliestId().orElseThrow());
      assertEquals(latest - 4, changelogs.earliestId().orElseThrow());
      assertEquals(latest - 2, changelogs.latestId().orElseThrow());
      Set<Long> rows = new TreeSet<>();
      for (Change c : ChangelogScanTest.changelog(table, latest - 4)) {
        rows.add((Long) c.row().get(0));
      }
      assertFalse(rows.isEmpty());

      long lagging = latest - 4;
      table.consumers().record("lagging", lagging);
      for (long id = 9; id <= 14; id++) {
        commitRow(table, commit, id);
      }
      assertEquals(lagging, changelogs.earliestId().orElseThrow());
      List<Change> fromLagging = ChangelogScanTest.changelog(table, lagging);
      for (long id = 9; id <= 14; id++) {
        long orderId = id;
        assertTrue(
            fromLagging.stream().anyMatch(c -> c.row().get(0).equals(orderId)), "order " + id);
      }
      table.consumers().delete("lagging");
      commitRow(table, commit, 15);
      latest = table.snapshots().latestId().orElseThrow();
      assertEquals(latest - 4, changelogs.earliestId().orElseThrow());
      assertNothingUnreferenced(table, store);
    }
  }

  @Test
  void aRollbackToAnExpiredTagRemovesTheChangelogsAfterIt() throws Exception {
    TableSchema schema = Orders.schema(Map.of("bucket", "2", "changelog-producer", "input"));
    writeWithPaimon(warehouse, schema, 3);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = SnapshotExpiryTest.tableWithOptions(store, DECOUPLED);
      table.tags().create("early", 2);
      table.newSnapshotExpiry().expire(FAR_FUTURE);
      SnapshotLog changelogs = SnapshotLog.changelogs(store, PATH);
      assertTrue(changelogs.latestId().isPresent());

      table.rollback().toTag("early", false);
      assertFalse(changelogs.latestId().isPresent());
      assertEquals(2, table.snapshots().latestId().orElseThrow());
      assertEquals(List.of(), ChangelogScanTest.changelog(table, 3));
    }
  }

  /** Paimon writes {@link RandomOrderChanges} of the seed in 20 commits, without expiry. */
  private static FileStoreTable writeWithPaimon(Path warehouse, TableSchema schema, long seed)
      throws Exception {
    FileStoreTable paimon = PaimonTables.create(warehouse.resolve(PATH.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(
            paimon, schema, Files.createDirectories(warehouse.resolve("io")))) {
      PaimonStreams.writeRandomChanges(writer, seed, 20);
    }
    return paimon;
  }

  /** We write {@link RandomOrderChanges} of the seed in {@code commits} commits. */
  private static void writeWithUs(Table table, long seed, int commits) throws Exception {
    SnapshotCommit commit = table.newCommit("ours");
    try (TableWriter writer = table.newWriter()) {
      RandomOrderChanges.write(
          new RandomOrderChanges.Sink<Exception>() {
            @Override
            public void write(io.changelake.types.RowKind kind, Object[] row) throws Exception {
              writer.write(kind, row);
            }

            @Override
            public void commit(long identifier) throws Exception {
              commit.commit(identifier, writer.prepareCommit(identifier));
            }
          },
          new TreeMap<>(),
          new java.util.Random(seed),
          1,
          commits);
    }
    assertEquals(0, commit.failedExpiries());
  }

  private static void commitRow(Table table, SnapshotCommit commit, long identifier)
      throws Exception {
    try (TableWriter writer = table.newWriter()) {
      writer.write(io.changelake.types.RowKind.INSERT, Orders.row(identifier, 1L, identifier));
      commit.commit(identifier, writer.prepareCommit(identifier));
    }
  }

  /** Every data file and manifest present is referenced: orphan cleaning finds nothing. */
  private static void assertNothingUnreferenced(Table table, LocalObjectStore store)
      throws Exception {
    TreeSet<String> present = new TreeSet<>();
    for (ObjectInfo info : store.list(PATH.root())) {
      String relative = info.path().substring(PATH.root().length());
      if (relative.startsWith("manifest/") || relative.contains("bucket-")) {
        present.add(info.path());
      }
    }
    assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));
    TreeSet<String> after = new TreeSet<>();
    for (ObjectInfo info : store.list(PATH.root())) {
      String relative = info.path().substring(PATH.root().length());
      if (relative.startsWith("manifest/") || relative.contains("bucket-")) {
        after.add(info.path());
      }
    }
    assertEquals(present, after);
  }
}
