package io.changelake.it.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.conformance.ConformanceRun;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.BucketSplit;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableRead;
import io.changelake.table.TableWriter;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.paimon.flink.action.CompactAction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A warehouse shared with a real Flink 1.20 job, through Paimon 1.3.1's own Flink connector on a
 * local MiniCluster, as a user who writes a table from Flink and follows it from Beam, or the other
 * way round, has it. Flink's tables are made by Flink SQL with only the options a Flink user
 * writes: the deduplicate table of the lookup producer names no {@code bucket}, so it is a
 * dynamic-bucket table, Paimon's default.
 *
 * <p>For every merge engine under the lookup producer, and for the deduplicate engine under every
 * other producer, the brief's order stream (an order of 100 corrected to 80, among others) goes in
 * three commits into a table Flink writes (a batch job per commit) and into one changelake writes.
 * Compared:
 *
 * <ul>
 *   <li>each table's changelog from its first snapshot, as changelake's {@link ChangelogScan} reads
 *       it, as a Flink batch job reads it (the table's {@code $audit_log} over {@code
 *       incremental-between}, which comes in the order of its splits, so each key's changes are
 *       compared sorted), and as a Flink streaming job following the table from snapshot 1 reads
 *       it, each key's changes in order;
 *   <li>each table's latest rows, read as a batch by both;
 *   <li>the two tables: the same changelog and rows, whichever engine wrote them.
 * </ul>
 */
class FlinkInteropIT {

  /**
   * The three commits of every table, as (order_id, store_id, amount): order 1 costs 100, then is
   * corrected to 80; order 3 loses its store in a partial update; order 4 is written twice alike.
   */
  private static final List<List<Object[]>> BATCHES =
      List.of(
          List.of(order(1, 10L, 100), order(2, 10L, 50), order(3, 20L, 30)),
          List.of(order(1, 10L, 80), order(3, null, 40), order(4, 20L, 5)),
          List.of(order(2, 11L, 55), order(4, 20L, 5), order(5, 30L, 7)));

  /**
   * The tables, each with its options: every merge engine under the lookup producer, and the
   * deduplicate engine under the other producers. The first names no bucket count: a dynamic-bucket
   * table, Paimon's default.
   */
  private static final Map<String, Map<String, String>> TABLES =
      new TreeMap<>(
          Map.of(
              "deduplicate_lookup",
              Map.of("changelog-producer", "lookup"),
              "partial_update_lookup",
              Map.of(
                  "merge-engine", "partial-update", "changelog-producer", "lookup", "bucket", "2"),
              "aggregation_lookup",
              Map.of(
                  "merge-engine",
                  "aggregation",
                  "fields.amount.aggregate-function",
                  "sum",
                  "changelog-producer",
                  "lookup",
                  "bucket",
                  "2"),
              "first_row_lookup",
              Map.of("merge-engine", "first-row", "changelog-producer", "lookup", "bucket", "1"),
              "deduplicate_full_compaction",
              Map.of("changelog-producer", "full-compaction", "bucket", "1"),
              "deduplicate_input",
              Map.of("changelog-producer", "input", "bucket", "2"),
              "deduplicate_none",
              Map.of("bucket", "2")));

  private static Object[] order(long orderId, Long storeId, long amount) {
    return new Object[] {orderId, storeId, amount};
  }

  /**
   * One cluster for every job of the class, reached through its REST endpoint: a job that starts a
   * cluster of its own shuts it down when it ends, before the results of a query are all fetched
   * (Flink then warns that data might be lost).
   */
  private static MiniCluster cluster;

  @TempDir Path warehouse;

  private TableEnvironment flink;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration configuration = new Configuration();
    configuration.set(RestOptions.BIND_PORT, "0");
    cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(configuration)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
    cluster.start();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  @BeforeEach
  void openCatalog() throws Exception {
    flink = session(EnvironmentSettings.inBatchMode());
  }

  /** A Flink SQL session on the cluster, in the warehouse's catalog, running jobs of one task. */
  private TableEnvironment session(EnvironmentSettings mode) throws Exception {
    TableEnvironment session = StreamTableEnvironment.create(jobsOnCluster(), mode);
    session.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
    session.executeSql("USE CATALOG lake");
    return session;
  }

  /** Where jobs run: the cluster, one task a job. */
  private static StreamExecutionEnvironment jobsOnCluster() throws Exception {
    URI rest = cluster.getRestAddress().get();
    StreamExecutionEnvironment jobs =
        StreamExecutionEnvironment.createRemoteEnvironment(rest.getHost(), rest.getPort());
    jobs.setParallelism(1);
    return jobs;
  }

  /**
   * Paimon's dedicated compaction job ({@code paimon-flink-action compact}, here its {@link
   * CompactAction}) run once on a table, as a batch job: what a Flink user schedules beside
   * write-only writers.
   */
  private void compactWithFlink(String table) throws Exception {
    StreamExecutionEnvironment jobs = jobsOnCluster();
    jobs.setRuntimeMode(RuntimeExecutionMode.BATCH);
    new CompactAction("default", table, Map.of("warehouse", warehouse.toUri().toString()), Map.of())
        .withStreamExecutionEnvironment(jobs)
        .run();
  }

  /** The tables' names, for the parameterized test. */
  static List<String> tables() {
    return List.copyOf(TABLES.keySet());
  }

  /**
   * Flink writes the batches into one table and changelake into another, each table created its
   * engine's own way (Flink SQL's DDL, {@link Table#create}): each engine reads the other's table
   * as the other does, and both tables hold the same changelog and rows.
   */
  @ParameterizedTest
  @MethodSource("tables")
  void eachEngineReadsTheOthersTableAsItsOwnAndBothWriteTheSameChangelog(String table)
      throws Exception {
    Map<String, String> options = TABLES.get(table);
    String flinkName = table + "_by_flink";
    String oursName = table + "_by_changelake";
    createInFlink(flinkName, options);
    for (List<Object[]> batch : BATCHES) {
      flink.executeSql("INSERT INTO " + flinkName + " VALUES " + values(batch)).await();
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table byFlink = Table.open(store, new TablePath("default", flinkName));
      Map<Long, List<String>> changelogByFlink = changelog(byFlink);
      assertEquals(
          flinkChangelog(flinkName, latest(byFlink)),
          sorted(changelogByFlink),
          "Flink's changelog");
      assertEquals(
          flinkFollows(flinkName, changelogByFlink),
          changelogByFlink,
          "Flink's changelog in order");
      assertEquals(flinkRows(flinkName), rows(byFlink), "Flink's rows");

      Table byUs = create(store, oursName, options);
      SnapshotCommit commit = byUs.newCommit("changelake");
      try (TableWriter writer = byUs.newWriter()) {
        long identifier = 0;
        for (List<Object[]> batch : BATCHES) {
          for (Object[] row : batch) {
            writer.write(RowKind.INSERT, row);
          }
          identifier++;
          commit.commit(identifier, writer.prepareCommit(identifier));
        }
      }
      Map<Long, List<String>> changelogByUs = changelog(byUs);
      assertEquals(
          sorted(changelogByUs), flinkChangelog(oursName, latest(byUs)), "our changelog in Flink");
      assertEquals(
          changelogByUs, flinkFollows(oursName, changelogByUs), "our changelog in order in Flink");
      assertEquals(rows(byUs), flinkRows(oursName), "our rows in Flink");

      assertEquals(changelogByFlink, changelogByUs, "the changelog both wrote");
      assertEquals(rows(byFlink), rows(byUs), "the rows both wrote");
      if (table.equals("deduplicate_lookup") || table.equals("deduplicate_full_compaction")) {
        assertEquals(
            List.of("+I[1, 10, 100]", "-U[1, 10, 100]", "+U[1, 10, 80]"),
            changelogByUs.get(1L),
            "the correction retracts the old value");
      }
    }
  }

  /**
   * A {@code write-only} table (its writers add level-0 files and never compact) compacted by the
   * other engine's dedicated job after each commit, as a warehouse shared by a Beam writer and a
   * Flink compaction job (or the other way round) runs: Paimon's compaction job on changelake's
   * writes, changelake's {@link Table#newCompaction} (the {@code compact-table} template's step) on
   * Flink's. Either way the table's changelog is the lookup changelog a writer that compacts itself
   * makes, as both engines read it.
   */
  @Test
  void eachEnginesCompactionJobMakesTheLookupChangelogOfTheOthersWriteOnlyTable() throws Exception {
    Map<String, String> options = TABLES.get("deduplicate_lookup");
    Map<String, String> writeOnly = new TreeMap<>(options);
    writeOnly.put("write-only", "true");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table inline = create(store, "compacted_by_its_writer", options);
      Table flinkCompacts = create(store, "compacted_by_flink", writeOnly);
      createInFlink("compacted_by_changelake", writeOnly);
      Table oursCompacts = Table.open(store, new TablePath("default", "compacted_by_changelake"));
      SnapshotCommit inlineCommit = inline.newCommit("changelake");
      SnapshotCommit writeOnlyCommit = flinkCompacts.newCommit("changelake");
      try (TableWriter inlineWriter = inline.newWriter();
          TableWriter writeOnlyWriter = flinkCompacts.newWriter()) {
        long identifier = 0;
        for (List<Object[]> batch : BATCHES) {
          identifier++;
          for (Object[] row : batch) {
            inlineWriter.write(RowKind.INSERT, row);
            writeOnlyWriter.write(RowKind.INSERT, row);
          }
          inlineCommit.commit(identifier, inlineWriter.prepareCommit(identifier));
          writeOnlyCommit.commit(identifier, writeOnlyWriter.prepareCommit(identifier));
          compactWithFlink("compacted_by_flink");

          flink.executeSql("INSERT INTO compacted_by_changelake VALUES " + values(batch)).await();
          oursCompacts.newCompaction().run(false, "");
        }
      }
      Map<Long, List<String>> expected = changelog(inline);
      assertEquals(
          List.of("+I[1, 10, 100]", "-U[1, 10, 100]", "+U[1, 10, 80]"),
          expected.get(1L),
          "the correction retracts the old value");
      for (String name : List.of("compacted_by_flink", "compacted_by_changelake")) {
        Table compacted = Table.open(store, new TablePath("default", name));
        assertEquals(expected, changelog(compacted), name + ": changelake's read");
        assertEquals(expected, flinkFollows(name, expected), name + ": Flink's read");
        assertEquals(rows(inline), flinkRows(name), name + ": rows");
      }
    }
  }

  /** A table changelake creates in the warehouse's default database. */
  private static Table create(LocalObjectStore store, String name, Map<String, String> options)
      throws IOException {
    return Table.create(
        store,
        new TablePath("default", name),
        TableSchema.create(ConformanceRun.ORDERS, List.of(), List.of("order_id"), options, null));
  }

  /** A table Flink SQL creates, of the orders' columns, with {@code options}. */
  private void createInFlink(String name, Map<String, String> options) {
    flink.executeSql(
        "CREATE TABLE "
            + name
            + " (order_id BIGINT, store_id BIGINT, amount BIGINT,"
            + " PRIMARY KEY (order_id) NOT ENFORCED) WITH ("
            + options.entrySet().stream()
                .map(option -> "'" + option.getKey() + "' = '" + option.getValue() + "'")
                .collect(Collectors.joining(", "))
            + ")");
  }

  /** A batch as SQL VALUES; a null store is typed, as Flink wants a null literal typed. */
  private static String values(List<Object[]> batch) {
    return batch.stream()
        .map(
            row ->
                Arrays.stream(row)
                    .map(field -> field == null ? "CAST(NULL AS BIGINT)" : field.toString())
                    .collect(Collectors.joining(", ", "(", ")")))
        .collect(Collectors.joining(", "));
  }

  private static long latest(Table table) throws IOException {
    return table.snapshots().latestId().orElseThrow();
  }

  /** Every change from the first snapshot on, per key in order: as changelake reads them. */
  private static Map<Long, List<String>> changelog(Table table) throws IOException {
    Map<Long, List<String>> changes = new TreeMap<>();
    table
        .newChangelogScan()
        .walk(
            table.snapshots().earliestId().orElseThrow(),
            latest(table),
            new ChangelogScan.ChangeVisitor() {
              @Override
              public void snapshot(Snapshot snapshot) {}

              @Override
              public void change(KeyValue change) {
                changes
                    .computeIfAbsent((Long) change.key()[0], k -> new ArrayList<>())
                    .add(change.kind().shortString() + Arrays.toString(change.value()));
              }
            });
    return changes;
  }

  /** Each key's changes sorted, to compare with a read that gives them in another order. */
  private static Map<Long, List<String>> sorted(Map<Long, List<String>> changes) {
    Map<Long, List<String>> sorted = new TreeMap<>();
    changes.forEach((key, list) -> sorted.put(key, list.stream().sorted().toList()));
    return sorted;
  }

  /**
   * What a Flink streaming job that follows the table from its first snapshot reads, per key in the
   * order it came: as many changes as {@code expected} holds, then the job is cancelled (a
   * streaming read never ends by itself; the batch read above holds the total).
   */
  private Map<Long, List<String>> flinkFollows(String name, Map<Long, List<String>> expected)
      throws Exception {
    int count = expected.values().stream().mapToInt(List::size).sum();
    TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
    Map<Long, List<String>> changes = new TreeMap<>();
    // Planned here: the planner keeps per-thread state, so only the reading waits elsewhere.
    try (CloseableIterator<Row> follower =
        streaming
            .executeSql(
                "SELECT * FROM "
                    + name
                    + " /*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' = '1',"
                    // A snapshot a look, by default every 10 s.
                    + " 'continuous.discovery-interval' = '100 ms',"
                    // The table's changes as they are: without it, Flink's planner puts its own
                    // ChangelogNormalize (state that makes -U and +U) after a none table's source.
                    + " 'scan.remove-normalize' = 'true') */")
            .collect()) {
      assertTimeoutPreemptively(
          Duration.ofMinutes(2),
          () -> {
            for (int i = 0; i < count; i++) {
              Row row = follower.next();
              changes
                  .computeIfAbsent((Long) row.getField(0), k -> new ArrayList<>())
                  .add(
                      row.getKind().shortString()
                          + Arrays.toString(
                              new Object[] {row.getField(0), row.getField(1), row.getField(2)}));
            }
          });
    }
    return changes;
  }

  /** Every change from the first snapshot on, per key, sorted: as Flink reads them. */
  private Map<Long, List<String>> flinkChangelog(String name, long latest) throws Exception {
    Map<Long, List<String>> changes = new TreeMap<>();
    for (Row row :
        collect(
            "SELECT * FROM "
                + name
                + "$audit_log /*+ OPTIONS('incremental-between' = '0,"
                + latest
                + "') */")) {
      changes
          .computeIfAbsent((Long) row.getField(1), k -> new ArrayList<>())
          .add(
              row.getField(0)
                  + Arrays.toString(
                      new Object[] {row.getField(1), row.getField(2), row.getField(3)}));
    }
    changes.values().forEach(list -> list.sort(null));
    return changes;
  }

  /** The latest snapshot's rows, as changelake reads them, in key order. */
  private static List<String> rows(Table table) throws IOException {
    TableRead read = table.newRead();
    List<String> rows = new ArrayList<>();
    for (BucketSplit split : read.splits(table.snapshots().latest().orElseThrow())) {
      try (TableRead.MergedRows merged = read.read(split)) {
        while (merged.hasNext()) {
          rows.add(Arrays.toString(merged.next()));
        }
      }
    }
    rows.sort(null);
    return rows;
  }

  /** The latest snapshot's rows, as Flink reads them, in key order. */
  private List<String> flinkRows(String name) throws Exception {
    return collect("SELECT * FROM " + name).stream()
        .map(
            row ->
                Arrays.toString(new Object[] {row.getField(0), row.getField(1), row.getField(2)}))
        .sorted()
        .collect(Collectors.toList());
  }

  private List<Row> collect(String query) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<Row> it = flink.executeSql(query).collect()) {
      it.forEachRemaining(rows::add);
    }
    assertTrue(!rows.isEmpty(), query + " read nothing");
    return rows;
  }
}
