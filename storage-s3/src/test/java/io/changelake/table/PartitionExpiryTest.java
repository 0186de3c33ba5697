package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Partition expiration drops, after a commit, the same partitions Paimon's committer drops, in an
 * OVERWRITE snapshot Paimon reads, and a changelog reader (ours and Paimon's) goes on past it
 * without a retraction, as Paimon's streaming read does.
 */
class PartitionExpiryTest {

  private static final TablePath PATH = new TablePath("db", "events");
  private static final RowType ROW_TYPE =
      RowType.of(
          new String[] {"dt", "hr", "id", "amount"},
          new DataType[] {
            DataType.string().notNull(),
            DataType.intType().notNull(),
            DataType.bigint().notNull(),
            DataType.bigint()
          });

  @TempDir Path warehouse;

  private static TableSchema schema(Map<String, String> options) {
    Map<String, String> all = new HashMap<>(options);
    all.put("bucket", "1");
    return TableSchema.create(ROW_TYPE, List.of("dt", "hr"), List.of("dt", "hr", "id"), all, null);
  }

  /** Two rows in each of the partitions, days back from today (and one that is not a date). */
  private static List<Object[]> rows() {
    LocalDate today = LocalDate.now();
    List<String> days = new ArrayList<>();
    for (int back : new int[] {10, 3, 2, 1, 0}) {
      days.add(today.minusDays(back).toString());
    }
    days.add("not-a-date");
    List<Object[]> rows = new ArrayList<>();
    long id = 0;
    for (String day : days) {
      for (int hr : new int[] {0, 23}) {
        rows.add(new Object[] {day, hr, ++id, id * 10});
        rows.add(new Object[] {day, hr, ++id, id * 10});
      }
    }
    return rows;
  }

  @Test
  void aCommitDropsTheSamePartitionsAsPaimonsCommitAndPaimonReadsTheResult() throws Exception {
    Map<String, String> options =
        Map.of(
            "partition.expiration-time", "2 d",
            "partition.expiration-check-interval", "0 ms",
            "partition.timestamp-pattern", "$dt $hr:00:00",
            "partition.expiration-max-num", "3");
    TableSchema schema = schema(options);
    Path theirs = Files.createDirectories(warehouse.resolve("paimon"));
    FileStoreTable paimon = PaimonTables.create(theirs.resolve(PATH.root()), schema);
    PaimonTables.write(paimon, schema, rows(), RowKind.INSERT);

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, schema);
      SnapshotCommit commit = table.newCommit("ours");
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : rows()) {
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(1, writer.prepareCommit(1));
      }
      assertEquals(0, commit.failedPartitionExpiries());
      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals(2, latest.id());
      assertEquals(CommitKind.OVERWRITE, latest.commitKind());
      assertEquals(
          paimon.snapshotManager().latestSnapshot().commitKind().name(),
          latest.commitKind().name());
      // The 3 first by their text of the 5 expired ones (10 and 3 days back, 2 days back at 0h).
      List<Object[]> ours = table.newRead().readAll();
      assertEquals(partitions(PaimonTables.readAll(paimon, schema)), partitions(ours));
      assertEquals(rows().size() - 3 * 2, ours.size());
      Rows.assertSameRows(
          ours, PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema));

      List<Change> changes = ChangelogScanTest.changelog(table, 1);
      assertEquals(rows().size(), changes.size());
      assertTrue(changes.stream().allMatch(c -> c.kind() == RowKind.INSERT));
      assertEquals(
          PaimonStreams.changelog(PaimonTables.open(warehouse.resolve(PATH.root())), schema, 1),
          changes);
    }
  }

  @Test
  void theFirstLookWaitsACheckIntervalAndUpdateTimeGoesByTheNewestFile() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              PATH,
              schema(
                  Map.of(
                      "partition.expiration-time", "1 h",
                      "partition.expiration-strategy", "update-time")));
      SnapshotCommit commit = table.newCommit("ours");
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : rows()) {
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(1, writer.prepareCommit(1));
      }
      // The default interval is an hour: the committer has not looked yet.
      assertEquals(1, table.snapshots().latestId().orElseThrow());
      PartitionExpiry expiry = PartitionExpiry.of(table, LocalDateTime.now());
      assertEquals(List.of(), expiry.expire(LocalDateTime.now().minusMinutes(1), commit, 2));
      // Every file was written before now: by update time, every partition is expired.
      assertEquals(6 * 2, expiry.expire(LocalDateTime.now().plusSeconds(1), commit, 2).size());
      assertEquals(List.of(), table.newRead().readAll());
      assertEquals(CommitKind.OVERWRITE, table.snapshots().latest().orElseThrow().commitKind());
    }
  }

  private static TreeSet<String> partitions(List<Object[]> rows) {
    TreeSet<String> partitions = new TreeSet<>();
    for (Object[] row : rows) {
      partitions.add(row[0] + "/" + row[1]);
    }
    return partitions;
  }
}
