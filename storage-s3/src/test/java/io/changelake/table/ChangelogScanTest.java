package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The changelog scan reads what each snapshot contributes exactly as Paimon 1.3.1's own streaming
 * read does, for every producer; starting points and bounded ranges resolve as Paimon's scan modes;
 * an expired snapshot is an error.
 */
class ChangelogScanTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  /** Every change our scan emits for the snapshots from {@code from} to the latest. */
  static List<Change> changelog(Table table, long from) throws Exception {
    ChangelogScan scan = table.newChangelogScan();
    long latest = table.snapshots().latestId().orElseThrow();
    return read(scan, scan.between(from - 1, latest));
  }

  static List<Change> read(ChangelogScan scan, List<ChangelogTask> tasks) throws Exception {
    List<Change> changes = new ArrayList<>();
    for (ChangelogTask task : tasks) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          KeyValue kv = reader.next();
          changes.add(new Change(task.snapshotId(), kv.kind(), Arrays.asList(kv.value())));
        }
      }
    }
    return changes;
  }

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction", "input"})
  void changelogOfAPaimonWrittenTableIsExactlyPaimonsOwnStreamingRead(String producer)
      throws Exception {
    TableSchema schema = schemaOf(producer);
    FileStoreTable paimon = paimonWritten(producer);
    List<Change> expected = PaimonStreams.changelog(paimon, schema, 1);
    assertFalse(expected.isEmpty());
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      assertEquals(expected, changelog(Table.open(store, PATH), 1));
    }
  }

  private static TableSchema schemaOf(String producer) {
    return Orders.schema(
        Map.of("bucket", "2", "changelog-producer", producer, "lookup-wait", "true"));
  }

  /** A table of {@link #schemaOf} that Paimon wrote random changes into, in six commits. */
  private FileStoreTable paimonWritten(String producer) throws Exception {
    TableSchema schema = schemaOf(producer);
    FileStoreTable paimon = PaimonTables.create(warehouse.resolve(PATH.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(paimon, schema, warehouse.resolve("io"))) {
      PaimonStreams.writeRandomChanges(writer, producer.hashCode(), 6);
    }
    return paimon;
  }

  /**
   * The changes of a scan of some columns ({@link ChangelogScan#withColumns}) are those of a scan
   * of every column, each value cut down to the columns given, in their order: from changelog
   * files, several runs of a task merged by key, and the merged rows of a full read.
   */
  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction", "input", "none"})
  void aScanOfSomeColumnsGivesEveryChangeWithThoseColumnsInTheirOrder(String producer)
      throws Exception {
    paimonWritten(producer);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      List<Change> every = changelog(table, 1);
      assertFalse(every.isEmpty());
      int[][] choices = {{2, 0}, {1}, {2, 1, 0}};
      for (int[] columns : choices) {
        ChangelogScan some = table.newChangelogScan().withColumns(columns);
        long latest = table.snapshots().latestId().orElseThrow();
        assertEquals(
            cut(every, columns),
            read(some, some.between(0, latest)),
            "columns " + Arrays.toString(columns));
        ChangelogScan.Start full = some.start(StartingPoint.latestFull());
        assertEquals(
            cut(read(table.newChangelogScan(), full.state()), columns),
            read(some, full.state()),
            "a full read of columns " + Arrays.toString(columns));
      }
      assertThrows(IllegalArgumentException.class, () -> table.newChangelogScan().withColumns(3));
      assertThrows(
          IllegalArgumentException.class, () -> table.newChangelogScan().withColumns(1, 1));
    }
  }

  /**
   * A walk hands each change as a view ({@link ChangeRow}): changes read from a run of changelog
   * files come from their column batches, the others as key-values. Either way the walk gives the
   * changes {@link ChangelogScan#read} gives task by task, of every column or some; a BIGINT column
   * reads unboxed as the value it boxes; and a change taken as a key-value keeps its key and values
   * after the walk moved on.
   */
  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction", "input", "none"})
  void aWalkGivesTheChangesTheTasksReadWithBigintColumnsUnboxed(String producer) throws Exception {
    paimonWritten(producer);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      List<Change> every = changelog(table, 1);
      assertFalse(every.isEmpty());
      assertEquals(every, walked(table.newChangelogScan(), table));
      assertEquals(
          cut(every, new int[] {2, 0}), walked(table.newChangelogScan().withColumns(2, 0), table));
      List<KeyValue> kept = new ArrayList<>();
      walk(table.newChangelogScan(), table, (snapshotId, change) -> kept.add(change.toKeyValue()));
      for (int i = 0; i < every.size(); i++) {
        assertEquals(every.get(i).row(), Arrays.asList(kept.get(i).value()));
        assertEquals(List.of(kept.get(i).value()[0]), Arrays.asList(kept.get(i).key()));
      }
    }
  }

  /**
   * Streams whose small, unspillable write buffer flushes level-0 files mid-commit, so that a
   * snapshot's files of a bucket overlap in keys and a task holds several runs: the first seed that
   * draws such options, for the producers whose changelog files are the flushes' (a compaction's
   * changelog of one commit is one run).
   */
  static Stream<RandomChangeStream.Case> severalRunStreams() {
    return Stream.of("none", "input")
        .map(
            producer ->
                LongStream.rangeClosed(1, 200)
                    .mapToObj(
                        seed ->
                            new RandomChangeStream.Case(
                                "deduplicate", producer, seed, producer.equals("input")))
                    .filter(
                        c ->
                            "false"
                                .equals(
                                    new RandomChangeStream(c, 200)
                                        .options()
                                        .get("write-buffer-spillable")))
                    .findFirst()
                    .orElseThrow());
  }

  /**
   * A walk hands the changes of a task of several runs (files of one snapshot that overlap in keys)
   * as views, interleaved by key, as the task's reader gives them; each key's changes are those
   * Paimon's streaming read of the same table gives, in order.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("severalRunStreams")
  void aTaskOfSeveralRunsIsWalkedAsItsReaderGivesItAndEachKeyAsPaimonReadsIt(
      RandomChangeStream.Case c) throws Exception {
    RandomChangeStream stream = new RandomChangeStream(c, 200);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, RandomChangeStream.PATH, stream.schema());
      stream.write(table, 1200, 12);
      ChangelogScan scan = table.newChangelogScan();
      long latest = table.snapshots().latestId().orElseThrow();
      TableRead files = table.newRead();
      long severalRuns =
          scan.between(0, latest).stream()
              .filter(task -> files.consecutiveRuns(task.files()).size() > 1)
              .count();
      assertTrue(severalRuns > 0, "tasks of several runs");
      List<Change> read = changelog(table, 1);
      assertEquals(read, walked(scan, table));
      assertEquals(
          PaimonReadsOurChangelogTest.perKey(read),
          PaimonReadsOurChangelogTest.perKey(
              PaimonStreams.changelog(
                  PaimonTables.open(warehouse.resolve(RandomChangeStream.PATH.root())),
                  table.schema(),
                  1)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"lookup", "full-compaction", "input", "none"})
  void aFullReadHandsASinkTheRowsItsReaderGives(String producer) throws Exception {
    paimonWritten(producer);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      for (ChangelogScan scan :
          List.of(table.newChangelogScan(), table.newChangelogScan().withColumns(2, 0))) {
        List<ChangelogTask> state = scan.start(StartingPoint.latestFull()).state();
        assertFalse(state.isEmpty());
        List<Change> sunk = new ArrayList<>();
        for (ChangelogTask task : state) {
          scan.read(task, row -> sunk.add(viewed(task.snapshotId(), row)));
        }
        assertEquals(read(scan, state), sunk);
      }
    }
  }

  /** A change read through the view: each value by get, each BIGINT and INT by its getter too. */
  private static Change viewed(long snapshotId, ChangeRow change) {
    List<Object> values = new ArrayList<>();
    for (int c = 0; c < change.columnCount(); c++) {
      Object value = change.get(c);
      // The orders table's columns are BIGINTs, and its partition column, when there is one, INT.
      assertEquals(value == null, change.isNullAt(c));
      if (value instanceof Integer) {
        assertEquals(value, change.getInt(c));
      } else if (value != null) {
        assertEquals(value, change.getLong(c));
      }
      values.add(value);
    }
    return new Change(snapshotId, change.kind(), values);
  }

  /** Every change of a walk from snapshot 1, its values read through the view. */
  private static List<Change> walked(ChangelogScan scan, Table table) throws Exception {
    List<Change> changes = new ArrayList<>();
    walk(scan, table, (snapshotId, change) -> changes.add(viewed(snapshotId, change)));
    return changes;
  }

  private interface ChangeSink {
    void accept(long snapshotId, ChangeRow change);
  }

  private static void walk(ChangelogScan scan, Table table, ChangeSink sink) throws Exception {
    long[] current = {0};
    scan.walk(
        1,
        table.snapshots().latestId().orElseThrow(),
        new ChangelogScan.ChangeVisitor() {
          @Override
          public void snapshot(Snapshot snapshot) {
            current[0] = snapshot.id();
          }

          @Override
          public void change(ChangeRow change) {
            sink.accept(current[0], change);
          }
        });
  }

  /** The changes with each value cut down to {@code columns}. */
  static List<Change> cut(List<Change> changes, int[] columns) {
    List<Change> cut = new ArrayList<>();
    for (Change change : changes) {
      List<Object> values = new ArrayList<>();
      for (int column : columns) {
        values.add(change.row().get(column));
      }
      cut.add(new Change(change.snapshotId(), change.kind(), values));
    }
    return cut;
  }

  @Test
  void referenceTablesYieldPaimonsChangelog() throws Exception {
    // The input table's script wrote the update as -U, +U; the input producer echoes it.
    Map<String, List<String>> expected =
        Map.of(
            "lookup",
            List.of("s2 +I[1001, 10, 100]", "s4 -U[1001, 10, 100]", "s4 +U[1001, 10, 80]"),
            "input",
            List.of("s1 +I[1001, 10, 100]", "s2 -U[1001, 10, 100]", "s2 +U[1001, 10, 80]"));
    for (Map.Entry<String, List<String>> e : expected.entrySet()) {
      Path copy = warehouse.resolve(e.getKey());
      Path folder = copy.resolve(PATH.root());
      PaimonCompatibilityTest.copyResource("/paimon-1.3.1/" + e.getKey() + "/orders", folder);
      try (LocalObjectStore store = new LocalObjectStore(copy)) {
        Table table = Table.open(store, PATH);
        List<Change> changes = changelog(table, 1);
        assertEquals(e.getValue(), changes.stream().map(Change::toString).toList(), e.getKey());
        assertEquals(
            PaimonStreams.changelog(PaimonTables.open(folder), table.schema(), 1), changes);
      }
    }
  }

  @Test
  void latestFullOfALookupTableReadsTheStateAsInserts() throws Exception {
    PaimonCompatibilityTest.copyResource(
        "/paimon-1.3.1/lookup/orders", warehouse.resolve(PATH.root()));
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      ChangelogScan scan = Table.open(store, PATH).newChangelogScan();
      ChangelogScan.Start start = scan.start(StartingPoint.latestFull());
      assertEquals(5, start.nextSnapshot());
      assertEquals(
          List.of(new Change(4, RowKind.INSERT, List.of(1001L, 10L, 80L))),
          read(scan, start.state()));
    }
  }

  /** A {@code none} table written by our writer: three flushes, 5 ms apart. */
  private Table noneTable(LocalObjectStore store) throws Exception {
    Table table = Table.create(store, PATH, Orders.schema(Map.of("bucket", "2")));
    SnapshotCommit commit = table.newCommit("test-writer");
    try (TableWriter writer = table.newWriter()) {
      writer.write(RowKind.INSERT, Orders.row(1001, 10L, 100L));
      writer.write(RowKind.INSERT, Orders.row(1002, 20L, 7L));
      commit.commit(1, writer.prepareCommit(1));
      Thread.sleep(5);
      writer.write(RowKind.UPDATE_AFTER, Orders.row(1001, 10L, 80L));
      commit.commit(2, writer.prepareCommit(2));
      Thread.sleep(5);
      writer.write(RowKind.DELETE, Orders.row(1002, 20L, 7L));
      writer.write(RowKind.INSERT, Orders.row(1003, 30L, 5L));
      commit.commit(3, writer.prepareCommit(3));
    }
    return table;
  }

  @Test
  void noneProducerYieldsEachFlushsRowsWithTheirStoredKind() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = noneTable(store);
      List<Change> changes = changelog(table, 1);
      List<Change> expected =
          List.of(
              new Change(1, RowKind.INSERT, List.of(1001L, 10L, 100L)),
              new Change(1, RowKind.INSERT, List.of(1002L, 20L, 7L)),
              new Change(2, RowKind.UPDATE_AFTER, List.of(1001L, 10L, 80L)),
              new Change(3, RowKind.DELETE, List.of(1002L, 20L, 7L)),
              new Change(3, RowKind.INSERT, List.of(1003L, 30L, 5L)));
      // Buckets come in the order of their files; compare the rows of each snapshot as a set.
      assertEquals(sorted(expected), sorted(changes));
      FileStoreTable paimon = PaimonTables.open(warehouse.resolve(PATH.root()));
      assertEquals(sorted(PaimonStreams.changelog(paimon, table.schema(), 1)), sorted(changes));
    }
  }

  private static List<String> sorted(List<Change> changes) {
    List<String> texts = new ArrayList<>();
    for (Change c : changes) {
      texts.add(c.toString());
    }
    texts.sort(null);
    return texts;
  }

  @Test
  void startingPointsResolveAsPaimonsScanModes() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = noneTable(store);
      ChangelogScan scan = table.newChangelogScan();
      SnapshotLog snapshots = table.snapshots();

      assertEquals(new ChangelogScan.Start(List.of(), 4), scan.start(StartingPoint.latest()));
      assertEquals(
          new ChangelogScan.Start(List.of(), 2), scan.start(StartingPoint.fromSnapshot(2)));
      // A read may wait at a snapshot not committed yet.
      assertEquals(9, scan.start(StartingPoint.fromSnapshot(9)).nextSnapshot());
      long second = snapshots.read(2).timeMillis();
      assertEquals(2, scan.start(StartingPoint.fromTimestamp(second)).nextSnapshot());
      assertEquals(3, scan.start(StartingPoint.fromTimestamp(second + 1)).nextSnapshot());
      assertEquals(1, scan.start(StartingPoint.fromTimestamp(0)).nextSnapshot());
      assertEquals(4, scan.start(StartingPoint.fromTimestamp(Long.MAX_VALUE)).nextSnapshot());

      ChangelogScan.Start full = scan.start(StartingPoint.latestFull());
      assertEquals(4, full.nextSnapshot());
      assertTrue(full.state().stream().allMatch(t -> t.content() == ChangelogTask.Content.STATE));
      assertEquals(
          List.of("s3 +I[1001, 10, 80]", "s3 +I[1003, 30, 5]"), sorted(read(scan, full.state())));
    }
  }

  @Test
  void startingPointsOfAnEmptyTableBeginAtTheFirstSnapshot() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      ChangelogScan scan = Table.create(store, PATH, Orders.schema(Map.of())).newChangelogScan();
      for (StartingPoint from :
          List.of(
              StartingPoint.latest(), StartingPoint.latestFull(), StartingPoint.fromTimestamp(0))) {
        assertEquals(new ChangelogScan.Start(List.of(), 1), scan.start(from));
      }
    }
  }

  @Test
  void boundedRangeExcludesItsStartAndIncludesItsEnd() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      ChangelogScan scan = noneTable(store).newChangelogScan();
      assertEquals(
          List.of("s2 +U[1001, 10, 80]", "s3 +I[1003, 30, 5]", "s3 -D[1002, 20, 7]"),
          sorted(read(scan, scan.between(1, 3))));
      assertEquals(List.of(), scan.between(2, 2));
      assertThrows(IllegalArgumentException.class, () -> scan.between(3, 1));
    }
  }

  @Test
  void aSnapshotNotCommittedYetIsAnErrorNamingIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      ChangelogScan scan = noneTable(store).newChangelogScan();
      SnapshotNotFoundException e =
          assertThrows(SnapshotNotFoundException.class, () -> scan.changes(4));
      assertEquals(4, e.snapshotId());
      assertTrue(
          e.getMessage().contains("snapshot 4 of") && e.getMessage().contains("not committed yet"),
          e.getMessage());
      assertThrows(SnapshotNotFoundException.class, () -> scan.between(2, 4));
    }
  }

  /**
   * With lookup-wait=false a commit first compacts the previous commit's level-0 files, then the
   * asked-for compaction lifts the new ones: two changelog files in one snapshot, both with changes
   * of the same keys. The -U of the second carries the sequence number of the +U of the first (it
   * retracts that very row), so only the order the files were written in tells which comes first.
   * Paimon reads the files one after the other, so it agrees.
   */
  @Test
  void changesOfAKeyFromTwoCompactionsOfOneCommitComeInTheOrderTheyWereMade() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(Map.of("changelog-producer", "lookup", "lookup-wait", "false")));
      SnapshotCommit commit = table.newCommit("test-writer");
      long[] amounts = {100, 80, 60};
      try (TableWriter writer = table.newWriter()) {
        for (int i = 0; i < amounts.length; i++) {
          for (long key = 0; key < 50; key++) {
            writer.write(RowKind.UPDATE_AFTER, Orders.row(key, 10L, amounts[i]));
          }
          long id = i + 1;
          // The last commit also asks for a compaction, which lifts what it has just flushed.
          CompactionRequest request = id == 3 ? CompactionRequest.NORMAL : CompactionRequest.AUTO;
          commit.commit(id, writer.prepareCommit(id, request));
        }
      }
      List<Change> ours = changelog(table, 1);
      List<Change> paimons =
          PaimonStreams.changelog(
              PaimonTables.open(warehouse.resolve(PATH.root())), table.schema(), 1);
      for (long key = 0; key < 50; key++) {
        List<String> expected = List.of("+I100", "-U100", "+U80", "-U80", "+U60");
        assertEquals(expected, changesOf(ours, key), "key " + key);
        assertEquals(expected, changesOf(paimons, key), "key " + key);
      }
    }
  }

  /** The kind and amount of each change of a key, in order. */
  private static List<String> changesOf(List<Change> changes, long key) {
    List<String> ofKey = new ArrayList<>();
    for (Change c : changes) {
      if (c.row().get(0).equals(key)) {
        ofKey.add(c.kind().shortString() + c.row().get(2));
      }
    }
    return ofKey;
  }
}
