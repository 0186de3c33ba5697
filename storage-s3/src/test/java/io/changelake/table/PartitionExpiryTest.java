package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BucketFunction;
import io.changelake.format.ManifestEntry;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.paimon.operation.PartitionExpire;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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
    all.putIfAbsent("bucket", "1");
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

  /**
   * A partition column of each type Paimon reads a time from, or does not: the value of days back
   * from today as that type holds it, the options, and how many of the 4 partitions expire. A DATE
   * is its day number to Paimon, so no pattern reads it; a timestamp partition is never dropped,
   * because Paimon 1.3.1 picks it but fails to drop it (its maintenance logs the error).
   */
  static Stream<Arguments> typedPartitions() {
    Function<LocalDate, Object> date = d -> d;
    Function<LocalDate, Object> midnight = d -> d.atStartOfDay();
    Function<LocalDate, Object> morning = d -> d.atTime(LocalTime.of(9, 30, 15, 123_000_000));
    Function<LocalDate, Object> instant = d -> d.atTime(9, 30).toInstant(ZoneOffset.UTC);
    Function<LocalDate, Object> text = LocalDate::toString;
    Function<LocalDate, Object> digits =
        d -> new BigDecimal(d.format(DateTimeFormatter.BASIC_ISO_DATE));
    Map<String, String> basic = Map.of("partition.timestamp-formatter", "yyyyMMdd");
    Map<String, String> iso =
        Map.of("partition.timestamp-formatter", "yyyy-MM-dd'T'HH:mm[:ss][.SSS]");
    Map<String, String> updateTime =
        Map.of(
            "partition.expiration-strategy", "update-time",
            "partition.expiration-time", "1 ms");
    return Stream.of(
        Arguments.of("DATE", DataType.date(), date, Map.of(), 0),
        Arguments.of("DATE yyyyMMdd", DataType.date(), date, basic, 0),
        Arguments.of("TIMESTAMP(0)", DataType.timestamp(0), midnight, Map.of(), 0),
        Arguments.of("TIMESTAMP(3)", DataType.timestamp(3), morning, Map.of(), 0),
        Arguments.of("TIMESTAMP(3) ISO", DataType.timestamp(3), morning, iso, 0),
        Arguments.of("TIMESTAMP(3) update-time", DataType.timestamp(3), morning, updateTime, 0),
        Arguments.of("TIMESTAMP_LTZ(3) ISO", DataType.timestampLtz(3), instant, iso, 0),
        Arguments.of("DECIMAL(8,0) yyyyMMdd", DataType.decimal(8, 0), digits, basic, 2),
        Arguments.of("DECIMAL(8,0)", DataType.decimal(8, 0), digits, Map.of(), 0),
        Arguments.of("STRING update-time", DataType.string(), text, updateTime, 4),
        Arguments.of("DATE update-time", DataType.date(), date, updateTime, 4),
        Arguments.of("DECIMAL(8,0) update-time", DataType.decimal(8, 0), digits, updateTime, 4));
  }

  private static final long COMMIT_PAUSE_MILLIS = 20;

  @ParameterizedTest(name = "{0}")
  @MethodSource("typedPartitions")
  void aTypedPartitionExpiresAsInPaimon(
      String name,
      DataType type,
      Function<LocalDate, Object> value,
      Map<String, String> formatting,
      int expectedDropped)
      throws Exception {
    RowType rowType =
        RowType.of(
            new String[] {"p", "id", "amount"},
            new DataType[] {type.notNull(), DataType.bigint().notNull(), DataType.bigint()});
    Map<String, String> options = new HashMap<>(formatting);
    options.put("bucket", "1");
    options.putIfAbsent("partition.expiration-time", "2 d");
    options.put("partition.expiration-check-interval", "0 ms");
    TableSchema schema =
        TableSchema.create(rowType, List.of("p"), List.of("p", "id"), options, null);
    List<Object[]> rows = new ArrayList<>();
    long id = 0;
    for (int back : new int[] {10, 3, 1, 0}) {
      Object v = value.apply(LocalDate.now().minusDays(back));
      rows.add(new Object[] {v, ++id, id * 10});
      rows.add(new Object[] {v, ++id, id * 10});
    }
    Path theirs = Files.createDirectories(warehouse.resolve("paimon"));
    FileStoreTable paimon = PaimonTables.create(theirs.resolve(PATH.root()), schema);
    // By update time, both commits expire what was written over a millisecond before them: a pause
    // between writing and committing makes that every partition, not a race with the clock.
    PaimonTables.writeThenPause(paimon, schema, rows, COMMIT_PAUSE_MILLIS);
    List<Object[]> paimonRows = PaimonTables.readAll(paimon, schema);

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, schema);
      SnapshotCommit commit = table.newCommit("ours");
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : rows) {
          writer.write(RowKind.INSERT, row);
        }
        List<CommitMessage> messages = writer.prepareCommit(1);
        Thread.sleep(COMMIT_PAUSE_MILLIS);
        commit.commit(1, messages);
      }
      assertEquals(0, commit.failedPartitionExpiries());
      List<Object[]> ours = table.newRead().readAll();
      System.out.printf(
          "%s: %d of 8 rows left (Paimon %d)%n", name, ours.size(), paimonRows.size());
      Rows.assertSameRows(paimonRows, ours);
      assertEquals(rows.size() - 2 * expectedDropped, ours.size(), name);
    }
  }

  /**
   * By update time, with the same {@code now} given to both: a partition whose newest file is older
   * than the expiration time goes, one written to since stays, on both sides.
   */
  @Test
  void updateTimeDropsThePartitionsPaimonDropsForTheSameNow() throws Exception {
    TableSchema schema =
        schema(
            Map.of(
                "partition.expiration-time", "1 s",
                "partition.expiration-strategy", "update-time",
                "partition.expiration-check-interval", "1 d"));
    Path theirs = Files.createDirectories(warehouse.resolve("paimon"));
    FileStoreTable paimon = PaimonTables.create(theirs.resolve(PATH.root()), schema);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, schema);
      SnapshotCommit commit = table.newCommit("ours");
      List<Object[]> early = List.of(row("a", 1), row("b", 2), row("c", 3));
      List<Object[]> late = List.of(row("b", 4), row("d", 5));
      writeBoth(paimon, table, commit, 1, early);
      Thread.sleep(1_500);
      LocalDateTime between = LocalDateTime.now();
      Thread.sleep(20);
      writeBoth(paimon, table, commit, 2, late);
      // Expire before "between": a and c were last written before it, b and d after.
      LocalDateTime now = between.plusSeconds(1);

      List<Map<String, String>> theirDropped = paimonExpire(paimon, now, 3);
      List<Map<String, String>> ourDropped =
          PartitionExpiry.of(table, now).expire(between, commit, 3);
      assertEquals(theirDropped, ourDropped);
      assertEquals(List.of("a", "c"), ourDropped.stream().map(p -> p.get("dt")).toList());
      Rows.assertSameRows(PaimonTables.readAll(paimon, schema), table.newRead().readAll());
      Rows.assertSameRows(
          table.newRead().readAll(),
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema));
    }
  }

  /**
   * By update time on the very same files: our table copied, Paimon's {@code PartitionExpire} on
   * one copy and ours on the other, expiring before each file's creation time, a millisecond either
   * side and half a millisecond after, drop the same partitions and leave the same rows. Partition
   * a's newest file was written and then removed by a full compaction whose rows all cancelled (its
   * bucket now empty): Paimon still counts it, from the manifests, so a stays until that file's
   * time, not only until its live file's.
   */
  @Test
  void updateTimeOnTheSameFilesDropsWhatPaimonDropsAtEveryFileCreationTime() throws Exception {
    TableSchema schema =
        schema(
            Map.of(
                "bucket", "2",
                "full-compaction.delta-commits", "1",
                "partition.expiration-time", "1 s",
                "partition.expiration-strategy", "update-time",
                "partition.expiration-check-interval", "1 d"));
    BucketFunction buckets =
        new BucketFunction(
            RowType.of(new String[] {"id"}, new DataType[] {DataType.bigint().notNull()}), 2);
    long stays = 1;
    long goes = 2;
    while (buckets.bucket(new Object[] {goes}) == buckets.bucket(new Object[] {stays})) {
      goes++;
    }
    Path ours = warehouse.resolve("ours");
    TreeSet<Long> times = new TreeSet<>();
    long liveOfA;
    try (LocalObjectStore store = new LocalObjectStore(Files.createDirectories(ours))) {
      Table table = Table.create(store, PATH, schema);
      SnapshotCommit commit = table.newCommit("ours");
      commitRows(table, commit, 1, RowKind.INSERT, List.of(row("a", stays), row("b", 1)));
      Thread.sleep(20);
      commitRows(table, commit, 2, RowKind.INSERT, List.of(row("a", goes), row("c", 1)));
      Thread.sleep(20);
      commitRows(table, commit, 3, RowKind.DELETE, List.<Object[]>of(row("a", goes)));
      Snapshot latest = table.snapshots().latest().orElseThrow();
      TableScan scan = table.newScan();
      BinaryRowCodec partitions = new BinaryRowCodec(schema.partitionType());
      for (ManifestEntry e : scan.dataEntries(latest)) {
        times.add(e.file().creationTimeMillis());
      }
      List<ManifestEntry> liveA =
          scan.liveFiles(latest).stream()
              .filter(e -> partitions.decode(e.partition().bytes())[0].equals("a"))
              .toList();
      assertEquals(1, liveA.size());
      liveOfA = liveA.get(0).file().creationTimeMillis();
      assertTrue(times.last() > liveOfA + 20, "a removed file of a is newer than its live one");
    }

    int cases = 0;
    int keptByARemovedFile = 0;
    for (long time : times) {
      for (long offsetMicros : new long[] {-1000, 0, 500, 1000}) {
        // Our files hold the local wall-clock time as if it were UTC, as Paimon's do.
        LocalDateTime expireBefore = wallClock(time).plusNanos(offsetMicros * 1000);
        Path theirs = copy(ours, warehouse.resolve("theirs-" + cases));
        Path mine = copy(ours, warehouse.resolve("mine-" + cases));
        List<Map<String, String>> theirDropped =
            paimonExpire(
                PaimonTables.open(theirs.resolve(PATH.root())), expireBefore.plusSeconds(1), 4);
        try (LocalObjectStore store = new LocalObjectStore(mine)) {
          Table table = Table.open(store, PATH);
          List<Map<String, String>> ourDropped =
              PartitionExpiry.of(table, expireBefore)
                  .expire(expireBefore, table.newCommit("ours"), 4);
          assertEquals(theirDropped, ourDropped, "expiring before " + expireBefore);
          Rows.assertSameRows(
              PaimonTables.readAll(PaimonTables.open(theirs.resolve(PATH.root())), schema),
              table.newRead().readAll());
          Rows.assertSameRows(
              table.newRead().readAll(),
              PaimonTables.readAll(PaimonTables.open(mine.resolve(PATH.root())), schema));
        }
        if (expireBefore.isAfter(wallClock(liveOfA))
            && !expireBefore.isAfter(wallClock(times.last()))) {
          assertTrue(theirDropped.stream().noneMatch(p -> p.get("dt").equals("a")));
          keptByARemovedFile++;
        }
        cases++;
      }
    }
    System.out.printf(
        "update time on the same files: %d creation times, %d cases, the same partitions dropped;"
            + " in %d of them partition a stays for its removed file%n",
        times.size(), cases, keptByARemovedFile);
    assertEquals(times.size() * 4, cases);
    assertTrue(keptByARemovedFile > 0);
  }

  /** Paimon's {@code PartitionExpire} of the table, looking at {@code now}, due at once. */
  private static List<Map<String, String>> paimonExpire(
      FileStoreTable paimon, LocalDateTime now, long identifier) throws Exception {
    PartitionExpire expiry = paimon.store().newPartitionExpire("paimon", paimon);
    Method expire =
        PartitionExpire.class.getDeclaredMethod("expire", LocalDateTime.class, long.class);
    expire.setAccessible(true);
    // Its first look is a check interval after it was made, as ours.
    Method lastCheck = PartitionExpire.class.getDeclaredMethod("setLastCheck", LocalDateTime.class);
    lastCheck.setAccessible(true);
    lastCheck.invoke(expiry, now.minusDays(2));
    @SuppressWarnings("unchecked")
    List<Map<String, String>> dropped =
        (List<Map<String, String>>) expire.invoke(expiry, now, identifier);
    return dropped;
  }

  /** A file's creation time, local wall-clock time held as if it were UTC, as that clock time. */
  private static LocalDateTime wallClock(long creationTimeMillis) {
    return LocalDateTime.ofEpochSecond(
        Math.floorDiv(creationTimeMillis, 1000),
        (int) Math.floorMod(creationTimeMillis, 1000) * 1_000_000,
        ZoneOffset.UTC);
  }

  /** Copies the warehouse {@code from} (its whole tree) to {@code to}; returns {@code to}. */
  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : (Iterable<Path>) files::iterator) {
        Files.copy(source, to.resolve(from.relativize(source).toString()));
      }
    }
    return to;
  }

  private static void commitRows(
      Table table, SnapshotCommit commit, long identifier, RowKind kind, List<Object[]> rows)
      throws Exception {
    try (TableWriter writer = table.newWriter()) {
      for (Object[] row : rows) {
        writer.write(kind, row);
      }
      commit.commit(identifier, writer.prepareCommit(identifier));
    }
  }

  private static Object[] row(String day, long id) {
    return new Object[] {day, 0, id, id * 10};
  }

  private static void writeBoth(
      FileStoreTable paimon,
      Table table,
      SnapshotCommit commit,
      long identifier,
      List<Object[]> rows)
      throws Exception {
    PaimonTables.write(paimon, table.schema(), rows, RowKind.INSERT);
    commitRows(table, commit, identifier, RowKind.INSERT, rows);
  }

  private static TreeSet<String> partitions(List<Object[]> rows) {
    TreeSet<String> partitions = new TreeSet<>();
    for (Object[] row : rows) {
      partitions.add(row[0] + "/" + row[1]);
    }
    return partitions;
  }
}
