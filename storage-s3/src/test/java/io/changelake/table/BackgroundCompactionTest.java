package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.mergetree.BackgroundCompaction;
import io.changelake.mergetree.BucketIncrement;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.store.FaultInjectingObjectStore;
import io.changelake.store.ForwardingObjectStore;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.RandomChangeStream.Case;
import io.changelake.table.RandomChangeStream.Written;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compactions of none and input tables in the background ({@code prepareCommit} with {@code
 * waitCompaction} false, as Paimon's streaming writer commits them) change where rows are stored,
 * never what is read. Each random stream ({@link RandomChangeStream}: flushes mid-commit, small
 * files, requested compactions among the plain commits) is written twice, once waiting for every
 * compaction and once not, and the two tables are read by changelake and by Paimon.
 */
class BackgroundCompactionTest {

  @TempDir Path warehouse;

  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (long seed = 7001; seed <= 7004; seed++) {
      for (String engine : List.of("deduplicate", "partial-update", "aggregation")) {
        cases.add(new Case(engine, "none", seed, false));
        cases.add(new Case(engine, "input", seed, true));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aTableCompactedInTheBackgroundReadsAsOneThatWaited(Case c) throws Exception {
    Path waited = warehouse.resolve("waited");
    Path background = warehouse.resolve("background");
    try (LocalObjectStore waitedStore = new LocalObjectStore(waited);
        LocalObjectStore backgroundStore = new LocalObjectStore(background)) {
      RandomChangeStream waitingStream =
          new RandomChangeStream(c, ChangelogPropertyTest.KEYS, true);
      Table waitedTable =
          Table.create(waitedStore, RandomChangeStream.PATH, waitingStream.schema());
      waitingStream.write(
          waitedTable, ChangelogPropertyTest.OPERATIONS, ChangelogPropertyTest.COMMITS);
      RandomChangeStream backgroundStream =
          new RandomChangeStream(c, ChangelogPropertyTest.KEYS, false);
      Table backgroundTable =
          Table.create(backgroundStore, RandomChangeStream.PATH, backgroundStream.schema());
      Written written =
          backgroundStream.write(
              backgroundTable, ChangelogPropertyTest.OPERATIONS, ChangelogPropertyTest.COMMITS);
      String context = c + " " + written.options();

      // The keys whose row depends on how compactions grouped their records are left out.
      List<Object[]> state = backgroundTable.newRead().readAll();
      Rows.assertSameRows(
          written.predictable(waitedTable.newRead().readAll()), written.predictable(state));
      Rows.assertSameRows(
          state,
          PaimonTables.readAll(
              PaimonTables.open(background.resolve(RandomChangeStream.PATH.root())),
              backgroundStream.schema()));
      assertEquals(
          changes(waitedTable), changes(backgroundTable), context + ": the changelog read");
      assertTrue(
          compactions(backgroundTable) > 0, context + ": no compaction landed in the background");
      // The writer closed with its last compaction perhaps still running: that one's files are
      // gone, and every file left is one a snapshot names.
      assertEquals(List.of(), new OrphanFilesClean(backgroundTable).clean(Duration.ZERO), context);
    }
  }

  /**
   * With two sorted runs as the compaction trigger, the second commit picks both level-0 files: a
   * commit that waits records the compaction in its own messages; one that does not records only
   * its flush, and the compaction lands in the next commit that waits, with the same files.
   */
  @Test
  void aCommitThatDoesNotWaitLeavesItsCompactionToALaterOne() throws Exception {
    Map<String, String> options =
        Map.of(
            "bucket", "1", "changelog-producer", "input", "num-sorted-run.compaction-trigger", "2");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      for (boolean waitCompaction : List.of(true, false)) {
        Table table =
            Table.create(
                store, new TablePath("db", "orders_" + waitCompaction), Orders.schema(options));
        SnapshotCommit commit = table.newCommit("test");
        try (TableWriter writer = table.newWriter()) {
          writer.write(RowKind.INSERT, Orders.row(1, 1L, 10L));
          commit.commit(1, writer.prepareCommit(1, CompactionRequest.AUTO, waitCompaction));
          writer.write(RowKind.INSERT, Orders.row(1, 1L, 20L));
          writer.write(RowKind.INSERT, Orders.row(2, 2L, 30L));
          List<CommitMessage> second =
              writer.prepareCommit(2, CompactionRequest.AUTO, waitCompaction);
          BucketIncrement flushed = second.get(0).increment();
          assertEquals(1, flushed.newFiles().size());
          assertEquals(
              1, flushed.changelogFiles().size(), "the input changelog goes with its flush");
          assertEquals(
              waitCompaction ? 2 : 0, flushed.compactBefore().size(), "waited: " + waitCompaction);
          commit.commit(2, second);
          List<CommitMessage> third = writer.prepareCommit(3, CompactionRequest.AUTO, true);
          if (waitCompaction) {
            assertEquals(List.of(), third, "nothing left to record");
          } else {
            BucketIncrement compacted = third.get(0).increment();
            assertEquals(List.of(), compacted.newFiles());
            assertEquals(2, compacted.compactBefore().size(), "both level-0 files");
            assertEquals(1, compacted.compactAfter().size());
            commit.commit(3, third);
          }
        }
        Rows.assertSameRows(
            List.of(Orders.row(1, 1L, 20L), Orders.row(2, 2L, 30L)), table.newRead().readAll());
      }
    }
  }

  /**
   * Forty commits that do not wait, each of one row, while every file a background compaction opens
   * takes a fifth of a second: the bucket never holds more than two sorted runs past {@code
   * num-sorted-run.stop-trigger}, as Paimon's writer keeps it. A commit that outruns compaction
   * waits for it; without that, the level-0 files of forty commits would pile up for every read to
   * merge, one open file and row group each.
   */
  @Test
  void commitsThatOutrunASlowCompactionWaitForItPastTheStopTrigger() throws Exception {
    int stopTrigger = 4;
    Map<String, String> options =
        Map.of(
            "bucket", "1",
            "changelog-producer", "none",
            "num-sorted-run.compaction-trigger", "2",
            "num-sorted-run.stop-trigger", Integer.toString(stopTrigger));
    try (SlowCompactionStore store = new SlowCompactionStore(new LocalObjectStore(warehouse))) {
      Table table = Table.create(store, new TablePath("db", "orders"), Orders.schema(options));
      SnapshotCommit commit = table.newCommit("test");
      List<Integer> runs = new ArrayList<>();
      List<Object[]> expected = new ArrayList<>();
      try (TableWriter writer = table.newWriter()) {
        for (int i = 1; i <= 40; i++) {
          Object[] row = Orders.row(i % 7, (long) i, 10L * i);
          writer.write(RowKind.INSERT, row);
          commit.commit(i, writer.prepareCommit(i, CompactionRequest.AUTO, false));
          runs.add(sortedRuns(table));
        }
      }
      for (int key = 0; key < 7; key++) {
        int last = 40 - ((40 - key) % 7);
        expected.add(Orders.row(key, (long) last, 10L * last));
      }
      assertTrue(
          runs.stream().allMatch(n -> n <= stopTrigger + 2),
          "sorted runs after each commit: " + runs);
      assertTrue(store.delayed() > 0, "no compaction ran in the background");
      Rows.assertSameRows(expected, table.newRead().readAll());
    }
  }

  /** The sorted runs a batch read of the table's latest snapshot merges. */
  private static int sortedRuns(Table table) throws IOException {
    TableRead read = table.newRead();
    List<BucketSplit> splits = read.splits(table.snapshots().latest().orElseThrow());
    return read.sortedRuns(splits.get(0).files()).size();
  }

  /** A store on which every file a compaction thread opens takes 200 ms. */
  private static final class SlowCompactionStore extends ForwardingObjectStore {
    private final AtomicInteger delayed = new AtomicInteger();

    SlowCompactionStore(ObjectStore delegate) {
      super(delegate);
    }

    int delayed() {
      return delayed.get();
    }

    @Override
    public OutputStream create(String path) throws IOException {
      if (Thread.currentThread().getName().startsWith("changelake-compaction")) {
        delayed.incrementAndGet();
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while delaying " + path);
        }
      }
      return super.create(path);
    }
  }

  /**
   * The compaction thread's first file cannot be written: the next commit that waits fails, naming
   * the bucket, with nothing recorded and no file left; the commit after it compacts again, on the
   * writer's thread, and the table holds every row.
   */
  @Test
  void aFailedBackgroundCompactionFailsTheNextCommitThatWaitsAndLeavesNoFile() throws Exception {
    Map<String, String> options =
        Map.of(
            "bucket", "1", "changelog-producer", "none", "num-sorted-run.compaction-trigger", "2");
    try (FaultInjectingObjectStore store =
        new FaultInjectingObjectStore(
            new LocalObjectStore(warehouse),
            path -> Thread.currentThread().getName().startsWith("changelake-compaction"))) {
      Table table = Table.create(store, new TablePath("db", "orders"), Orders.schema(options));
      SnapshotCommit commit = table.newCommit("test");
      long failedBefore = BackgroundCompaction.sharedStats().failed();
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1, 1L, 10L));
        commit.commit(1, writer.prepareCommit(1, CompactionRequest.AUTO, false));
        writer.write(RowKind.INSERT, Orders.row(2, 2L, 20L));
        commit.commit(2, writer.prepareCommit(2, CompactionRequest.AUTO, false));

        IOException failed =
            assertThrows(
                IOException.class, () -> writer.prepareCommit(3, CompactionRequest.AUTO, true));
        assertTrue(failed.getMessage().contains("bucket-0"), failed.getMessage());
        assertEquals(1, BackgroundCompaction.sharedStats().failed() - failedBefore);
        assertTrue(store.crashed(), "the compaction thread's write was refused");
        assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));

        List<CommitMessage> again = writer.prepareCommit(4, CompactionRequest.AUTO, true);
        assertEquals(2, again.get(0).increment().compactBefore().size(), "compacted again");
        commit.commit(4, again);
      }
      Rows.assertSameRows(
          List.of(Orders.row(1, 1L, 10L), Orders.row(2, 2L, 20L)), table.newRead().readAll());
    }
  }

  /**
   * A writer closed while its compaction rewrites cancels it, as Paimon's writer does: the rewrite
   * stops in the first of the forty or so files it would write (a target size of 1 kB, a size check
   * every 1,024 rows), deletes it, and the table keeps its level-0 files and every row.
   *
   * <p>The writer closes once the compaction has begun its first file, and that file waits until
   * the closing thread waits for the compaction: the cancel comes while the rewrite is under way,
   * whatever the threads' timing.
   */
  @Test
  void closingTheWriterCancelsItsRunningCompactionAndLeavesNoFile() throws Exception {
    Map<String, String> options =
        Map.of(
            "bucket", "1",
            "changelog-producer", "none",
            "target-file-size", "1 kb",
            // Forty level-0 runs of 1,024 rows, the second twenty overlapping the first: the
            // second commit picks them all (no size amplification allowed), and merges them.
            "num-sorted-run.compaction-trigger", "30",
            "num-sorted-run.stop-trigger", "100",
            "compaction.max-size-amplification-percent", "0");
    AtomicInteger compactionFiles = new AtomicInteger();
    CountDownLatch rewriting = new CountDownLatch(1);
    AtomicReference<Thread> closing = new AtomicReference<>();
    Predicate<String> holdFirstCompactionFile =
        path -> {
          if (Thread.currentThread().getName().startsWith("changelake-compaction")
              && compactionFiles.incrementAndGet() == 1) {
            rewriting.countDown();
            awaitWaiting(closing);
          }
          return false;
        };
    try (FaultInjectingObjectStore store =
        new FaultInjectingObjectStore(new LocalObjectStore(warehouse), holdFirstCompactionFile)) {
      Table table = Table.create(store, new TablePath("db", "orders"), Orders.schema(options));
      SnapshotCommit commit = table.newCommit("test");
      List<Object[]> expected = new ArrayList<>();
      long droppedBefore = BackgroundCompaction.sharedStats().dropped();
      TableWriter writer = table.newWriter();
      for (int round = 0; round < 2; round++) {
        for (long id = round; id < 40_960; id += 2) {
          Object[] row = Orders.row(id, id % 7, id * 10);
          writer.write(RowKind.INSERT, row);
          expected.add(row);
        }
        commit.commit(round + 1, writer.prepareCommit(round + 1, CompactionRequest.AUTO, false));
      }
      Thread closer =
          new Thread(
              () -> {
                try {
                  writer.close();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      assertTrue(rewriting.await(1, TimeUnit.MINUTES), "the second commit started a compaction");
      closing.set(closer);
      closer.start();
      closer.join();

      assertEquals(1, compactionFiles.get(), "the rewrite stopped in its first file");
      assertEquals(1, BackgroundCompaction.sharedStats().dropped() - droppedBefore);
      assertEquals(List.of(), new OrphanFilesClean(table).clean(Duration.ZERO));
      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals(CommitKind.APPEND, latest.commitKind());
      assertEquals(40, table.newScan().liveFiles(latest).size(), "the level-0 files as flushed");
      Rows.assertSameRows(expected, table.newRead().readAll());
    }
  }

  /** Until {@code thread} is set and waits; a minute at most, after which the test fails. */
  private static void awaitWaiting(AtomicReference<Thread> thread) {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() < deadline) {
      Thread t = thread.get();
      if (t != null && t.getState() == Thread.State.WAITING) {
        return;
      }
      Thread.onSpinWait();
    }
  }

  /** The changelog from the first snapshot, change by change, without the snapshot ids. */
  private static List<String> changes(Table table) throws Exception {
    return ChangelogScanTest.changelog(table, 1).stream()
        .map(change -> change.kind() + " " + change.row())
        .toList();
  }

  private static long compactions(Table table) throws Exception {
    long compactions = 0;
    for (long id = 1; id <= table.snapshots().latestId().orElseThrow(); id++) {
      if (table.snapshots().read(id).commitKind() == CommitKind.COMPACT) {
        compactions++;
      }
    }
    return compactions;
  }
}
