package io.changelake.it.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.beam.ChangelakeIO;
import io.changelake.conformance.ConformanceRun;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.table.BucketSplit;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.OrphanFilesClean;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.SnapshotExpiry;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableRead;
import io.changelake.table.TableWriter;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
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
 * <p>For every merge engine under the lookup producer, for the deduplicate engine under every other
 * producer, and for two tables partitioned by day (one keyed within the day, one whose keys move
 * between days: a cross-partition upsert), the brief's order stream (an order of 100 corrected to
 * 80, among others) goes in three commits into a table Flink writes (a batch job per commit) and
 * into one changelake writes. Compared:
 *
 * <ul>
 *   <li>each table's changelog from its first snapshot, as changelake's {@link ChangelogScan} reads
 *       it, as a Flink batch job reads it (the table's {@code $audit_log} over {@code
 *       incremental-between}, which comes in the order of its splits, so each key's changes are
 *       compared sorted), and as a Flink streaming job following the table from snapshot 1 reads
 *       it, each key's changes in order; Flink's table also through a Beam pipeline ({@link
 *       ChangelakeIO#readChangelog} on the DirectRunner), its changes as a whole;
 *   <li>each table's latest rows, read as a batch by both;
 *   <li>the two tables: the same changelog and rows, whichever engine wrote them.
 * </ul>
 */
class FlinkInteropIT {

  /** The database the tables are in: Paimon's Flink catalog's default one. */
  private static final String DATABASE = "default";

  /**
   * The orders of the brief, in three commits, as (order_id, store_id, amount): order 1 costs 100,
   * then is corrected to 80; order 3 loses its store in a partial update; order 4 is written twice
   * alike.
   */
  private static final Shape ORDERS =
      new Shape(
          ConformanceRun.ORDERS,
          List.of(),
          List.of("order_id"),
          List.of(
              List.of(row(1L, 10L, 100L), row(2L, 10L, 50L), row(3L, 20L, 30L)),
              List.of(row(1L, 10L, 80L), row(3L, null, 40L), row(4L, 20L, 5L)),
              List.of(row(2L, 11L, 55L), row(4L, 20L, 5L), row(5L, 30L, 7L))));

  private static final RowType DAILY_ORDERS_TYPE =
      RowType.of(
          new String[] {"order_id", "store_id", "amount", "dt"},
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.bigint(),
            DataType.bigint(),
            DataType.string().notNull()
          });

  /**
   * Orders partitioned by day, in three commits, keyed by (dt, order_id): order 1 is corrected
   * within its day; orders 3 and 2 are written again on another day.
   */
  private static final Shape DAILY_ORDERS =
      new Shape(
          DAILY_ORDERS_TYPE,
          List.of("dt"),
          List.of("dt", "order_id"),
          List.of(
              List.of(row(1L, 10L, 100L, "d1"), row(2L, 10L, 50L, "d1"), row(3L, 20L, 30L, "d1")),
              List.of(row(1L, 10L, 80L, "d1"), row(3L, 20L, 40L, "d2"), row(4L, 20L, 5L, "d2")),
              List.of(row(2L, 11L, 55L, "d2"), row(4L, 20L, 5L, "d2"), row(5L, 30L, 7L, "d1"))));

  /**
   * The same orders keyed by order_id alone: a key written on another day moves there (a
   * cross-partition upsert, which a dynamic-bucket table alone allows), and its row in the old day
   * is deleted.
   */
  private static final Shape ORDERS_MOVING_BETWEEN_DAYS =
      new Shape(DAILY_ORDERS_TYPE, List.of("dt"), List.of("order_id"), DAILY_ORDERS.batches());

  /**
   * The tables, each with its shape and options: every merge engine under the lookup producer, the
   * deduplicate engine under the other producers, and partitioned tables. The first names no bucket
   * count: a dynamic-bucket table, Paimon's default.
   */
  private static final Map<String, TableCase> TABLES =
      new TreeMap<>(
          Map.of(
              "deduplicate_lookup",
              new TableCase(ORDERS, Map.of("changelog-producer", "lookup")),
              "partial_update_lookup",
              new TableCase(
                  ORDERS,
                  Map.of(
                      "merge-engine",
                      "partial-update",
                      "changelog-producer",
                      "lookup",
                      "bucket",
                      "2")),
              "aggregation_lookup",
              new TableCase(
                  ORDERS,
                  Map.of(
                      "merge-engine",
                      "aggregation",
                      "fields.amount.aggregate-function",
                      "sum",
                      "changelog-producer",
                      "lookup",
                      "bucket",
                      "2")),
              "first_row_lookup",
              new TableCase(
                  ORDERS,
                  Map.of(
                      "merge-engine", "first-row", "changelog-producer", "lookup", "bucket", "1")),
              "deduplicate_full_compaction",
              new TableCase(ORDERS, Map.of("changelog-producer", "full-compaction", "bucket", "1")),
              "deduplicate_input",
              new TableCase(ORDERS, Map.of("changelog-producer", "input", "bucket", "2")),
              "deduplicate_none",
              new TableCase(ORDERS, Map.of("bucket", "2")),
              "deduplicate_lookup_tuned_for_flink",
              new TableCase(
                  ORDERS,
                  Map.of(
                      "changelog-producer",
                      "lookup",
                      "bucket",
                      "2",
                      // Options of Paimon's Flink connector a Flink user sets: Flink merges a
                      // commit's changelog files; its writers, lookup joins and sources are tuned.
                      "precommit-compact",
                      "true",
                      "sink.use-managed-memory-allocator",
                      "true",
                      "lookup.async",
                      "true",
                      "scan.infer-parallelism.max",
                      "4")),
              "daily_lookup",
              new TableCase(DAILY_ORDERS, Map.of("changelog-producer", "lookup", "bucket", "2")),
              "moving_between_days_lookup",
              new TableCase(
                  ORDERS_MOVING_BETWEEN_DAYS,
                  Map.of("changelog-producer", "lookup", "bucket", "-1"))));

  private static Object[] row(Object... fields) {
    return fields;
  }

  /**
   * The columns, partition and primary key of a table, and the commits written into it.
   *
   * @param batches the rows of each commit, in table-column order
   */
  private record Shape(
      RowType type,
      List<String> partitionKeys,
      List<String> primaryKey,
      List<List<Object[]>> batches) {

    /** The primary key of a row in table-column order, as text: what changes are grouped by. */
    String key(Object[] row) {
      return primaryKey.stream()
          .map(column -> String.valueOf(row[type.indexOf(column)]))
          .collect(Collectors.joining(",", "(", ")"));
    }

    /** Flink SQL's CREATE TABLE of this shape with {@code options}. */
    String ddl(String name, Map<String, String> options) {
      StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
      for (int i = 0; i < type.size(); i++) {
        DataType column = type.type(i);
        ddl.append(type.field(i).name())
            .append(column.root() == TypeRoot.BIGINT ? " BIGINT" : " STRING")
            .append(", ");
      }
      ddl.append("PRIMARY KEY (").append(String.join(", ", primaryKey)).append(") NOT ENFORCED)");
      if (!partitionKeys.isEmpty()) {
        ddl.append(" PARTITIONED BY (").append(String.join(", ", partitionKeys)).append(")");
      }
      return ddl.append(" WITH (")
          .append(
              options.entrySet().stream()
                  .map(option -> "'" + option.getKey() + "' = '" + option.getValue() + "'")
                  .collect(Collectors.joining(", ")))
          .append(")")
          .toString();
    }

    TableSchema schema(Map<String, String> options) {
      return TableSchema.create(type, partitionKeys, primaryKey, options, null);
    }
  }

  /** A table of the parameterized test: its shape and options. */
  private record TableCase(Shape shape, Map<String, String> options) {}

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
    return session(jobsOnCluster(), mode);
  }

  /** A Flink SQL session in the warehouse's catalog, running its jobs in {@code jobs}. */
  private TableEnvironment session(StreamExecutionEnvironment jobs, EnvironmentSettings mode) {
    TableEnvironment session = StreamTableEnvironment.create(jobs, mode);
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
    new CompactAction(DATABASE, table, Map.of("warehouse", warehouse.toUri().toString()), Map.of())
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
    Shape shape = TABLES.get(table).shape();
    Map<String, String> options = TABLES.get(table).options();
    String flinkName = table + "_by_flink";
    String oursName = table + "_by_changelake";
    flink.executeSql(shape.ddl(flinkName, options));
    for (List<Object[]> batch : shape.batches()) {
      flink.executeSql("INSERT INTO " + flinkName + " VALUES " + values(batch)).await();
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table byFlink = Table.open(store, tablePath(flinkName));
      Map<String, List<String>> changelogByFlink =
          assertReadsAsFlinkReadsIt(flinkName, byFlink, shape);
      beamFollows(flinkName, shape, latest(byFlink), changelogByFlink);

      Table byUs = Table.create(store, tablePath(oursName), shape.schema(options));
      write(byUs, shape.batches());
      Map<String, List<String>> changelogByUs = assertReadsAsFlinkReadsIt(oursName, byUs, shape);

      assertEquals(changelogByFlink, changelogByUs, "the changelog both wrote");
      assertEquals(rows(byFlink), rows(byUs), "the rows both wrote");
      if (table.equals("deduplicate_lookup") || table.equals("deduplicate_full_compaction")) {
        assertEquals(
            List.of("+I[1, 10, 100]", "-U[1, 10, 100]", "+U[1, 10, 80]"),
            changelogByUs.get("(1)"),
            "the correction retracts the old value");
      }
      if (table.equals("deduplicate_lookup_tuned_for_flink")) {
        assertTrue(
            changelogFileNames(byFlink).stream()
                .anyMatch(
                    file -> file.matches("compacted-changelog-.*\\$\\d+-\\d+-\\d+-\\d+\\..*")),
            "Flink merged the changelog of both buckets into one object, and named the part of the"
                + " bucket it does not sit in: "
                + changelogFileNames(byFlink));
      }
      if (table.equals("moving_between_days_lookup")) {
        assertEquals(
            List.of("+I[3, 20, 30, d1]", "-D[3, 20, 30, d1]", "+I[3, 20, 40, d2]"),
            changelogByUs.get("(3)"),
            "a key written on another day leaves the old one");
      }
    }
  }

  /**
   * A table of a Flink streaming job: an event-time column with a watermark and a computed column,
   * which Paimon keeps in the table's options ({@code schema.*}) for Flink's planner. changelake
   * reads its rows and changelog as Flink does; the computed column is Flink's to compute, not a
   * column of the files.
   */
  @Test
  void aTableWithFlinksWatermarkAndComputedColumnReadsAsFlinkReadsIt() throws Exception {
    flink.executeSql(
        "CREATE TABLE events (order_id BIGINT, amount BIGINT COMMENT 'in euros', ts TIMESTAMP(3),"
            + " amount_in_cents AS amount * 100,"
            + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,"
            + " PRIMARY KEY (order_id) NOT ENFORCED)"
            + " COMMENT 'orders as events' WITH ('changelog-producer' = 'lookup', 'bucket' = '1')");
    flink
        .executeSql(
            "INSERT INTO events VALUES (1, 100, TIMESTAMP '2026-12-04 08:00:00'),"
                + " (2, 50, TIMESTAMP '2026-12-04 08:00:01')")
        .await();
    flink.executeSql("INSERT INTO events VALUES (1, 80, TIMESTAMP '2026-12-04 08:00:02')").await();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table events = Table.open(store, tablePath("events"));
      Shape shape = new Shape(events.schema().rowType(), List.of(), List.of("order_id"), List.of());
      Map<String, List<String>> changelog = changelog(events, shape);
      assertEquals(
          List.of(
              "+I[1, 100, 2026-12-04T08:00]",
              "-U[1, 100, 2026-12-04T08:00]",
              "+U[1, 80, 2026-12-04T08:00:02]"),
          changelog.get("(1)"));
      assertEquals(
          collect("SELECT order_id, amount, ts FROM events").stream()
              .map(row -> Arrays.toString(fields(row, 0)))
              .sorted()
              .toList(),
          rows(events));
    }
  }

  /**
   * A batch backfill in Flink, {@code INSERT OVERWRITE} of one day of a partitioned table: the
   * table's rows afterwards, and its changelog, which a streaming read passes over an overwrite in
   * (Paimon's {@code streaming-read-overwrite} is false), read by changelake as by Flink.
   */
  @Test
  void aFlinkOverwriteOfADayReadsAsFlinkReadsIt() throws Exception {
    Map<String, String> options = Map.of("changelog-producer", "lookup", "bucket", "2");
    flink.executeSql(DAILY_ORDERS.ddl("backfilled", options));
    for (List<Object[]> batch : DAILY_ORDERS.batches()) {
      flink.executeSql("INSERT INTO backfilled VALUES " + values(batch)).await();
    }
    flink
        .executeSql(
            "INSERT OVERWRITE backfilled PARTITION (dt = 'd1') VALUES (1, 10, 90), (6, 40, 3)")
        .await();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table backfilled = Table.open(store, tablePath("backfilled"));
      assertReadsAsFlinkReadsIt("backfilled", backfilled, DAILY_ORDERS);
      assertTrue(rows(backfilled).contains("[6, 40, 3, d1]"), "the overwrite's row");
    }
  }

  /**
   * A table whose schema Flink changes between writes ({@code ALTER TABLE}: a column added, one
   * renamed, one widened from INT to BIGINT), as a table that lives for months has it: changelake
   * reads the rows and the changelog under the latest schema, files of every schema, as Flink does.
   */
  @Test
  void aTableWhoseSchemaFlinkChangedReadsAsFlinkReadsIt() throws Exception {
    flink.executeSql(
        "CREATE TABLE evolving (order_id BIGINT, store_id INT, amount BIGINT,"
            + " PRIMARY KEY (order_id) NOT ENFORCED)"
            + " WITH ('changelog-producer' = 'lookup', 'bucket' = '1')");
    flink.executeSql("INSERT INTO evolving VALUES (1, 10, 100), (2, 10, 50)").await();
    flink.executeSql("ALTER TABLE evolving ADD note STRING");
    flink.executeSql("ALTER TABLE evolving RENAME amount TO price");
    flink.executeSql("ALTER TABLE evolving MODIFY store_id BIGINT");
    flink
        .executeSql(
            "INSERT INTO evolving VALUES (1, 3000000000, 80, 'corrected'), (3, 20, 7, 'new')")
        .await();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table evolving = Table.open(store, tablePath("evolving"));
      Shape shape =
          new Shape(evolving.schema().rowType(), List.of(), List.of("order_id"), List.of());
      assertEquals(List.of("order_id", "store_id", "price", "note"), shape.type().names());
      Map<String, List<String>> changelog = assertReadsAsFlinkReadsIt("evolving", evolving, shape);
      assertEquals(
          List.of(
              "+I[1, 10, 100, null]", "-U[1, 10, 100, null]", "+U[1, 3000000000, 80, corrected]"),
          changelog.get("(1)"));
    }
  }

  /**
   * Expiring the snapshots of a table whose changelog Flink compacted into shared objects ({@code
   * precommit-compact}) deletes those objects with the snapshots that name their parts, and the
   * table still reads as Flink reads it; cleaning orphan files then finds nothing to remove.
   */
  @Test
  void expiringSnapshotsDeletesTheCompactedChangelogObjectsFlinkWrote() throws Exception {
    Map<String, String> options = TABLES.get("deduplicate_lookup_tuned_for_flink").options();
    flink.executeSql(ORDERS.ddl("expiring", options));
    for (List<Object[]> batch : ORDERS.batches()) {
      flink.executeSql("INSERT INTO expiring VALUES " + values(batch)).await();
    }
    flink.executeSql(
        "ALTER TABLE expiring SET ('snapshot.num-retained.min' = '1',"
            + " 'snapshot.num-retained.max' = '1')");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table expiring = Table.open(store, tablePath("expiring"));
      assertTrue(
          !compactedChangelogObjects(store).isEmpty(), "Flink wrote compacted changelog objects");
      SnapshotExpiry.Expired expired = expiring.newSnapshotExpiry().expire();
      assertTrue(expired.snapshots() > 0, "snapshots expired: " + expired);
      assertEquals(List.of(), compactedChangelogObjects(store), "objects left");
      assertEquals(List.of(), new OrphanFilesClean(expiring).clean(Duration.ZERO), "orphans");
      Table left = Table.open(store, expiring.path());
      assertEquals(flinkRows("expiring"), rows(left), "rows");
      assertTrue(!changelog(left, ORDERS).isEmpty(), "the retained snapshot's changelog reads");
    }
  }

  private static List<String> compactedChangelogObjects(LocalObjectStore store) throws IOException {
    return store.list("default.db/expiring/").stream()
        .map(ObjectInfo::path)
        .filter(path -> path.contains("/compacted-changelog-"))
        .toList();
  }

  /**
   * A table a Flink streaming job writes with checkpoints, one commit a checkpoint, from a source
   * that updates a few keys at random: changelake reads its changelog and rows as Flink does.
   */
  @Test
  void aTableAFlinkStreamingJobWritesAtEveryCheckpointReadsAsFlinkReadsIt() throws Exception {
    StreamExecutionEnvironment jobs = jobsOnCluster();
    jobs.enableCheckpointing(200);
    TableEnvironment streaming =
        StreamTableEnvironment.create(jobs, EnvironmentSettings.inStreamingMode());
    streaming.executeSql(
        "CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
    streaming.executeSql("USE CATALOG lake");
    streaming.executeSql(
        ORDERS.ddl("streamed", Map.of("changelog-producer", "lookup", "bucket", "2")));
    streaming.executeSql(
        "CREATE TEMPORARY TABLE updates (order_id BIGINT, store_id BIGINT, amount BIGINT)"
            + " WITH ('connector' = 'datagen', 'rows-per-second' = '100',"
            + " 'number-of-rows' = '600', 'fields.order_id.min' = '1',"
            + " 'fields.order_id.max' = '40', 'fields.store_id.min' = '1',"
            + " 'fields.store_id.max' = '5', 'fields.amount.min' = '1', 'fields.amount.max' = '500')");
    streaming.executeSql("INSERT INTO streamed SELECT * FROM updates").await();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table streamed = Table.open(store, tablePath("streamed"));
      // Six seconds of input and a checkpoint each 200 ms: up to thirty commits when the machine
      // is idle, a few when it is busy (CI failed once at "> 4": four snapshots). Three snapshots
      // are two commits at least, which is what this test needs.
      assertTrue(
          latest(streamed) >= 3, "commits at checkpoints: " + latest(streamed) + " snapshots");
      Map<String, List<String>> changelog = assertReadsAsFlinkReadsIt("streamed", streamed, ORDERS);
      assertTrue(
          changelog.values().stream().flatMap(List::stream).anyMatch(c -> c.startsWith("-U")),
          "keys were updated");
    }
  }

  /**
   * A Flink streaming job follows a table from before its first commit while changelake writes it,
   * a commit at a time: it finds each snapshot changelake commits and reads the changes
   * changelake's own scan reads, in order per key.
   */
  @Test
  void aFlinkStreamingJobFollowsATableWhileChangelakeWritesIt() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table followed =
          Table.create(
              store,
              tablePath("followed"),
              ORDERS.schema(Map.of("changelog-producer", "lookup", "bucket", "2")));
      TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
      Map<String, List<String>> read = new TreeMap<>();
      try (CloseableIterator<Row> follower =
          streaming
              .executeSql(
                  "SELECT * FROM followed /*+ OPTIONS('scan.mode' = 'from-snapshot',"
                      + " 'scan.snapshot-id' = '1', 'continuous.discovery-interval' = '100 ms') */")
              .collect()) {
        SnapshotCommit commit = followed.newCommit("changelake");
        int changes = 0;
        try (TableWriter writer = followed.newWriter()) {
          long identifier = 0;
          for (List<Object[]> batch : ORDERS.batches()) {
            for (Object[] row : batch) {
              writer.write(RowKind.INSERT, row);
            }
            identifier++;
            commit.commit(identifier, writer.prepareCommit(identifier));
            int total = count(changelog(Table.open(store, followed.path()), ORDERS));
            int fresh = total - changes;
            changes = total;
            // The follower takes this commit's changes before the next commit is made.
            assertTimeoutPreemptively(
                Duration.ofMinutes(1),
                () -> {
                  for (int i = 0; i < fresh; i++) {
                    Row row = follower.next();
                    add(read, ORDERS, row.getKind().shortString(), fields(row, 0));
                  }
                });
          }
        }
      }
      assertEquals(changelog(Table.open(store, followed.path()), ORDERS), read);
    }
  }

  private static int count(Map<String, List<String>> changes) {
    return changes.values().stream().mapToInt(List::size).sum();
  }

  /** The names of the changelog files every snapshot of the table lists. */
  private static List<String> changelogFileNames(Table table) throws IOException {
    List<String> names = new ArrayList<>();
    ChangelogScan scan = table.newChangelogScan();
    for (long id = table.snapshots().earliestId().orElseThrow(); id <= latest(table); id++) {
      for (ChangelogTask task : scan.changes(id)) {
        task.files().forEach(file -> names.add(file.fileName()));
      }
    }
    return names;
  }

  /**
   * Asserts that changelake reads the table as Flink does: its changelog as a Flink batch job and a
   * Flink streaming job following it read it, and its rows.
   *
   * @return the changelog, per key in order, as changelake reads it
   */
  private Map<String, List<String>> assertReadsAsFlinkReadsIt(String name, Table table, Shape shape)
      throws Exception {
    Map<String, List<String>> changelog = changelog(table, shape);
    assertEquals(
        flinkChangelog(name, shape, latest(table)), sorted(changelog), name + ": changelog");
    assertEquals(flinkFollows(name, shape, changelog), changelog, name + ": changelog in order");
    assertEquals(flinkRows(name), rows(table), name + ": rows");
    return changelog;
  }

  /** Writes the batches into a table, a commit each, as one writer. */
  private static void write(Table table, List<List<Object[]>> batches) throws Exception {
    SnapshotCommit commit = table.newCommit("changelake");
    try (TableWriter writer = table.newWriter()) {
      long identifier = 0;
      for (List<Object[]> batch : batches) {
        for (Object[] row : batch) {
          writer.write(RowKind.INSERT, row);
        }
        identifier++;
        commit.commit(identifier, writer.prepareCommit(identifier));
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
    Map<String, String> options = TABLES.get("deduplicate_lookup").options();
    Map<String, String> writeOnly = new TreeMap<>(options);
    writeOnly.put("write-only", "true");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table inline =
          Table.create(store, tablePath("compacted_by_its_writer"), ORDERS.schema(options));
      Table flinkCompacts =
          Table.create(store, tablePath("compacted_by_flink"), ORDERS.schema(writeOnly));
      flink.executeSql(ORDERS.ddl("compacted_by_changelake", writeOnly));
      Table oursCompacts = Table.open(store, tablePath("compacted_by_changelake"));
      SnapshotCommit inlineCommit = inline.newCommit("changelake");
      SnapshotCommit writeOnlyCommit = flinkCompacts.newCommit("changelake");
      try (TableWriter inlineWriter = inline.newWriter();
          TableWriter writeOnlyWriter = flinkCompacts.newWriter()) {
        long identifier = 0;
        for (List<Object[]> batch : ORDERS.batches()) {
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
      Map<String, List<String>> expected = changelog(inline, ORDERS);
      assertEquals(
          List.of("+I[1, 10, 100]", "-U[1, 10, 100]", "+U[1, 10, 80]"),
          expected.get("(1)"),
          "the correction retracts the old value");
      for (String name : List.of("compacted_by_flink", "compacted_by_changelake")) {
        Table compacted = Table.open(store, tablePath(name));
        assertEquals(expected, changelog(compacted, ORDERS), name + ": changelake's read");
        assertEquals(expected, flinkFollows(name, ORDERS, expected), name + ": Flink's read");
        assertEquals(rows(inline), flinkRows(name), name + ": rows");
      }
    }
  }

  /**
   * A batch as SQL VALUES: text quoted, and a null (only a store is ever null) typed, as Flink
   * wants a null literal typed.
   */
  private static String values(List<Object[]> batch) {
    return batch.stream()
        .map(
            row ->
                Arrays.stream(row)
                    .map(
                        field ->
                            field == null
                                ? "CAST(NULL AS BIGINT)"
                                : field instanceof String ? "'" + field + "'" : field.toString())
                    .collect(Collectors.joining(", ", "(", ")")))
        .collect(Collectors.joining(", "));
  }

  private static TablePath tablePath(String name) {
    return new TablePath(DATABASE, name);
  }

  private static long latest(Table table) throws IOException {
    return table.snapshots().latestId().orElseThrow();
  }

  /** Every change from the first snapshot on, per key in order: as changelake reads them. */
  private static Map<String, List<String>> changelog(Table table, Shape shape) throws IOException {
    Map<String, List<String>> changes = new TreeMap<>();
    table
        .newChangelogScan()
        .walk(
            table.snapshots().earliestId().orElseThrow(),
            latest(table),
            new ChangelogScan.ChangeVisitor() {
              @Override
              public void snapshot(Snapshot snapshot) {}

              @Override
              public void change(ChangeRow row) {
                KeyValue change = row.toKeyValue();
                add(changes, shape, change.kind().shortString(), change.value());
              }
            });
    return changes;
  }

  /** Adds a change of {@code kind} to a row's key's changes, as the comparisons print it. */
  private static void add(
      Map<String, List<String>> changes, Shape shape, String kind, Object[] row) {
    changes
        .computeIfAbsent(shape.key(row), k -> new ArrayList<>())
        .add(kind + Arrays.toString(row));
  }

  /** Each key's changes sorted, to compare with a read that gives them in another order. */
  private static Map<String, List<String>> sorted(Map<String, List<String>> changes) {
    Map<String, List<String>> sorted = new TreeMap<>();
    changes.forEach((key, list) -> sorted.put(key, list.stream().sorted().toList()));
    return sorted;
  }

  /**
   * What a Flink streaming job that follows the table from its first snapshot reads, per key in the
   * order it came: as many changes as {@code expected} holds, then the job is cancelled (a
   * streaming read never ends by itself; the batch read above holds the total).
   */
  private Map<String, List<String>> flinkFollows(
      String name, Shape shape, Map<String, List<String>> expected) throws Exception {
    int count = count(expected);
    TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
    Map<String, List<String>> changes = new TreeMap<>();
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
              add(changes, shape, row.getKind().shortString(), fields(row, 0));
            }
          });
    }
    return changes;
  }

  /**
   * Runs a Beam pipeline (DirectRunner) that reads the table's changelog from its first snapshot to
   * {@code latest} ({@link ChangelakeIO#readChangelog}, the path a Beam job following the table
   * takes) and asserts that it emits exactly the changes of {@code expected}: a bounded read comes
   * in no order, so they are compared as a whole.
   */
  private void beamFollows(
      String name, Shape shape, long latest, Map<String, List<String>> expected) {
    List<String> columns = new ArrayList<>(shape.type().names());
    Pipeline pipeline = Pipeline.create();
    PCollection<String> changes =
        pipeline
            .apply(
                ChangelakeIO.readChangelog()
                    .from(warehouse.toString(), DATABASE, name)
                    .betweenSnapshots(0, latest))
            .apply(
                MapElements.into(TypeDescriptors.strings())
                    .via(
                        (org.apache.beam.sdk.values.Row change) ->
                            change.getString("_row_kind")
                                + columns.stream()
                                    .map(column -> Objects.toString(change.getValue(column)))
                                    .collect(Collectors.joining(", ", "[", "]"))));
    PAssert.that(changes)
        .containsInAnyOrder(expected.values().stream().flatMap(List::stream).toList());
    pipeline.run().waitUntilFinish();
  }

  /** Every change from the first snapshot on, per key, sorted: as Flink reads them. */
  private Map<String, List<String>> flinkChangelog(String name, Shape shape, long latest)
      throws Exception {
    Map<String, List<String>> changes = new TreeMap<>();
    for (Row row :
        collect(
            "SELECT * FROM "
                + name
                + "$audit_log /*+ OPTIONS('incremental-between' = '0,"
                + latest
                + "') */")) {
      // The audit log's first column is the row kind, the table's columns follow.
      add(changes, shape, (String) row.getField(0), fields(row, 1));
    }
    return sorted(changes);
  }

  /** The fields of a Flink row from position {@code from} on. */
  private static Object[] fields(Row row, int from) {
    Object[] fields = new Object[row.getArity() - from];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = row.getField(from + i);
    }
    return fields;
  }

  /** The latest snapshot's rows, as changelake reads them, sorted. */
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

  /** The latest snapshot's rows, as Flink reads them, sorted. */
  private List<String> flinkRows(String name) throws Exception {
    return collect("SELECT * FROM " + name).stream()
        .map(row -> Arrays.toString(fields(row, 0)))
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
