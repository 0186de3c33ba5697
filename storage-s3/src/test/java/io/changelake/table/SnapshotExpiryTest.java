package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.ManifestEntry;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import io.changelake.table.PaimonStreams.Change;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiry keeps what consumers need and the latest snapshot, removes exactly the files no retained
 * snapshot uses, leaves every retained snapshot readable (by us and by Paimon), and finishes after
 * an interruption.
 */
class SnapshotExpiryTest {

  private static final TablePath PATH = ChangelogScanTest.PATH;
  private static final long FAR_FUTURE = Long.MAX_VALUE / 2;

  @TempDir Path warehouse;

  private TableSchema schema;
  private FileStoreTable paimon;

  /** A lookup table Paimon wrote in 8 commits: APPEND and COMPACT snapshots 1 to 16. */
  @BeforeEach
  void writeWithPaimon() throws Exception {
    schema = Orders.schema(PaimonStreams.EXPIRING_LOOKUP);
    paimon = PaimonStreams.writeEightCommits(warehouse, PATH, schema, 42);
  }

  @Test
  void expiryKeepsWhatALaggingConsumerNeedsAndThenTheMinimum() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      List<Change> fromFive = PaimonStreams.changelog(paimon, schema, 5);
      table.consumers().record("lagging", 5);

      SnapshotExpiry.Expired expired = table.newSnapshotExpiry().expire(FAR_FUTURE);
      assertEquals(new SnapshotExpiry.Expired(1, 5, expired.deletedFiles()), expired);
      assertRetainedSnapshotsAreWhole(table, store, 5, latest);
      assertEquals(fromFive, ChangelogScanTest.changelog(table, 5));

      table.consumers().delete("lagging");
      assertEquals(latest - 3 + 1, table.newSnapshotExpiry().expire(FAR_FUTURE).until());
      assertRetainedSnapshotsAreWhole(table, store, latest - 2, latest);
    }
  }

  @Test
  void expiryKeepsYoungSnapshotsAndAlwaysTheLatest() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      long latest = table.snapshots().latestId().orElseThrow();
      // Every snapshot is younger than an hour: only num-retained.max could remove them.
      assertEquals(0, table.newSnapshotExpiry().expire().snapshots());
      table.consumers().record("caught-up", latest + 1);
      Table keepOne = tableWithOptions(store, Map.of("snapshot.num-retained.min", "1"));
      assertEquals(latest, keepOne.newSnapshotExpiry().expire(FAR_FUTURE).until());
      assertRetainedSnapshotsAreWhole(table, store, latest, latest);
    }
  }

  @Test
  void numRetainedMaxRemovesSnapshotsWhateverTheirAge() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          tableWithOptions(
              store, Map.of("snapshot.num-retained.min", "2", "snapshot.num-retained.max", "4"));
      long latest = table.snapshots().latestId().orElseThrow();
      assertEquals(latest - 3, table.newSnapshotExpiry().expire().until());
      assertRetainedSnapshotsAreWhole(table, store, latest - 3, latest);
    }
  }

  @Test
  void anExpiredSnapshotAskedForIsAnErrorNamingIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      table.newSnapshotExpiry().expire(FAR_FUTURE);
      ChangelogScan scan = table.newChangelogScan();
      for (Executable ask :
          List.<Executable>of(
              () -> scan.changes(2),
              () -> scan.start(StartingPoint.fromSnapshot(2)),
              () -> scan.between(1, 16))) {
        SnapshotNotFoundException e = assertThrows(SnapshotNotFoundException.class, ask);
        assertTrue(
            e.getMessage().contains("snapshot 2 of") && e.getMessage().contains("has expired"),
            e.getMessage());
      }
    }
  }

  @Test
  void anInterruptedExpiryLosesNoRetainedFileAndARetryFinishesIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      long latest = Table.open(store, PATH).snapshots().latestId().orElseThrow();
      for (int crashAfter : new int[] {3, 12, 20}) {
        ObjectStore crashing = crashOnDelete(store, crashAfter);
        Table interrupted = Table.open(crashing, PATH);
        assertThrows(IOException.class, () -> interrupted.newSnapshotExpiry().expire(FAR_FUTURE));
        Table table = Table.open(store, PATH);
        for (long id = latest - 2; id <= latest; id++) {
          Rows.assertSameRows(
              PaimonStreams.readSnapshot(paimon, schema, id),
              table.newRead().readAll(table.snapshots().read(id)));
        }
      }
      Table table = Table.open(store, PATH);
      table.newSnapshotExpiry().expire(FAR_FUTURE);
      assertRetainedSnapshotsAreWhole(table, store, latest - 2, latest);
    }
  }

  @Test
  void ourCommitsExpireUnderTheRetentionOptionsAndWhatIsLeftReadsWhole() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          tableWithOptions(
              store, Map.of("snapshot.num-retained.min", "2", "snapshot.num-retained.max", "4"));
      SnapshotCommit commit = table.newCommit("ours");
      for (long id = 1; id <= 3; id++) {
        commitOneRow(table, commit, id);
        long latest = table.snapshots().latestId().orElseThrow();
        assertEquals(latest - 3, table.snapshots().earliestId().orElseThrow());
        assertRetainedSnapshotsAreWhole(table, store, latest - 3, latest);
      }
      assertEquals(0, commit.failedExpiries());
    }
  }

  @Test
  void oneRunRemovesAtMostTheExpireLimit() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          tableWithOptions(
              store, Map.of("snapshot.num-retained.min", "1", "snapshot.expire.limit", "3"));
      assertEquals(
          new SnapshotExpiry.Expired(1, 4, 0).snapshots(),
          table.newSnapshotExpiry().expire(FAR_FUTURE).snapshots());
      assertEquals(4, table.snapshots().earliestId().orElseThrow());
      assertEquals(7, table.newSnapshotExpiry().expire(FAR_FUTURE).until());
    }
  }

  @Test
  void anAbandonedConsumerIsRemovedAfterTheExpirationTimeAndNoLongerHoldsSnapshots()
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          tableWithOptions(
              store, Map.of("consumer.expiration-time", "1 h", "snapshot.time-retained", "1 s"));
      long latest = table.snapshots().latestId().orElseThrow();
      table.consumers().record("abandoned", 2);
      // Half an hour on, every snapshot is old but the consumer still holds snapshot 2 and later.
      long halfAnHourOn = System.currentTimeMillis() + 1_800_000;
      assertEquals(2, table.newSnapshotExpiry().expire(halfAnHourOn).until());
      assertEquals(Map.of("abandoned", 2L), table.consumers().list());
      // Far in the future the consumer has been idle too long: it goes, then the snapshots.
      assertEquals(latest - 3 + 1, table.newSnapshotExpiry().expire(FAR_FUTURE).until());
      assertEquals(Map.of(), table.consumers().list());
    }
  }

  @Test
  void aFailedExpiryNeverFailsTheCommitAndTheNextCommitFinishesIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      tableWithOptions(
          store, Map.of("snapshot.num-retained.min", "1", "snapshot.num-retained.max", "2"));
      Table crashing = Table.open(crashOnDelete(store, 0), PATH);
      SnapshotCommit failing = crashing.newCommit("ours");
      List<Snapshot> created = commitOneRow(crashing, failing, 1);
      assertEquals(1, created.size());
      assertEquals(1, failing.failedExpiries());
      long latest = created.get(0).id();
      assertTrue(store.exists(PATH.snapshotFolder() + "snapshot-" + latest));
      assertEquals(1, Table.open(store, PATH).snapshots().earliestId().orElseThrow());

      Table table = Table.open(store, PATH);
      SnapshotCommit healthy = table.newCommit("ours");
      commitOneRow(table, healthy, 2);
      assertEquals(0, healthy.failedExpiries());
      assertRetainedSnapshotsAreWhole(table, store, latest, latest + 1);
    }
  }

  @Test
  void writeOnlyCommitsLeaveExpiryToTheCompactionJob() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          tableWithOptions(
              store,
              Map.of(
                  "snapshot.num-retained.min", "1",
                  "snapshot.num-retained.max", "2",
                  "write-only", "true"));
      commitOneRow(table, table.newCommit("ours"), 1);
      assertEquals(1, table.snapshots().earliestId().orElseThrow());
    }
  }

  private static List<Snapshot> commitOneRow(Table table, SnapshotCommit commit, long identifier)
      throws IOException {
    try (TableWriter writer = table.newWriter()) {
      writer.write(io.changelake.types.RowKind.INSERT, Orders.row(900_000L + identifier, 1L, 1L));
      return commit.commit(identifier, writer.prepareCommit(identifier));
    }
  }

  /** The store, except that the delete after the first {@code allowed} ones fails. */
  private static ObjectStore crashOnDelete(ObjectStore store, int allowed) {
    AtomicInteger deletes = new AtomicInteger();
    return (ObjectStore)
        Proxy.newProxyInstance(
            ObjectStore.class.getClassLoader(),
            new Class<?>[] {ObjectStore.class},
            (proxy, method, args) -> {
              if (method.getName().equals("delete") && deletes.incrementAndGet() > allowed) {
                throw new IOException("simulated crash before deleting " + args[0]);
              }
              try {
                return method.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** Our table at the path, with its schema's options replaced by {@code options}. */
  static Table tableWithOptions(ObjectStore store, Map<String, String> options) throws Exception {
    Table table = Table.open(store, PATH);
    Map<String, String> merged = new HashMap<>(table.options().asMap());
    merged.putAll(options);
    TableSchema current = table.schema();
    TableSchema next =
        new TableSchema(
            current.id() + 1,
            current.rowType(),
            current.partitionKeys(),
            current.primaryKeys(),
            TableOptions.of(merged),
            current.comment(),
            current.timeMillis());
    assertTrue(new SchemaLog(store, PATH).tryCreate(next));
    return Table.open(store, PATH);
  }

  /**
   * Snapshots {@code from} to {@code latest} are all that is left; each reads fully with our reader
   * and with Paimon's; and the data, changelog and manifest files present are exactly those they
   * use (live data files, changelog files, manifest lists and manifests).
   */
  private void assertRetainedSnapshotsAreWhole(
      Table table, ObjectStore store, long from, long latest) throws Exception {
    SnapshotLog snapshots = table.snapshots();
    assertEquals(from, snapshots.earliestId().orElseThrow());
    assertEquals(latest, snapshots.latestId().orElseThrow());
    assertFalse(snapshots.exists(from - 1));
    assertEquals(
        Long.toString(from),
        new String(store.read(PATH.snapshotFolder() + "EARLIEST"), StandardCharsets.UTF_8));
    TableScan scan = table.newScan();
    Set<String> used = new HashSet<>();
    for (long id = from; id <= latest; id++) {
      Snapshot s = snapshots.read(id);
      Rows.assertSameRows(
          PaimonStreams.readSnapshot(paimon, schema, id), table.newRead().readAll(s));
      List<ManifestEntry> files = new ArrayList<>(scan.liveFiles(s));
      files.addAll(scan.changelogEntries(s));
      for (ManifestEntry e : files) {
        String folder = PATH.bucketFolder(table.partitionPath(e.partition()), e.bucket());
        used.add(folder + e.file().fileName());
      }
      String[] lists = {s.baseManifestList(), s.deltaManifestList(), s.changelogManifestList()};
      for (String list : lists) {
        if (list != null) {
          used.add(PATH.manifestFolder() + list);
          scan.manifestsOf(list, s).forEach(m -> used.add(PATH.manifestFolder() + m.fileName()));
        }
      }
    }
    Set<String> present = new HashSet<>();
    for (ObjectInfo info : store.list(PATH.root())) {
      String relative = info.path().substring(PATH.root().length());
      if (relative.startsWith("manifest/") || relative.contains("bucket-")) {
        present.add(info.path());
      }
    }
    assertEquals(new TreeSet<>(used), new TreeSet<>(present));
  }
}
