package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.metrics.MetricNameFilter;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.beam.sdk.metrics.MetricsFilter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CdcToAggregate} across stops, on the DirectRunner from change-event files: the aggregate
 * equals the table's rows summed per group after every run, whatever the table holds that no
 * aggregate commit applied yet.
 *
 * <p>A stop between the table's commit and the aggregate's leaves, durably, a table snapshot that
 * no aggregate commit holds (and, from Kafka, offsets committed past its events). A {@link
 * CdcToTable} run into the same table leaves exactly that state, at a point chosen by the test
 * rather than by a race; the next {@code cdc-to-aggregate} run must then apply it, once.
 */
class CdcToAggregateTest {

  @TempDir Path folder;

  private static final TablePath ORDERS = new TablePath("shop", "orders");
  private static final TablePath TOTALS = new TablePath("shop", "store_totals");

  private long lsn = 100;

  private String event(String op, String before, String after) {
    lsn += 8;
    return "{\"before\":"
        + before
        + ",\"after\":"
        + after
        + ",\"op\":\""
        + op
        + "\",\"ts_ms\":1,\"source\":{\"connector\":\"postgresql\",\"lsn\":"
        + lsn
        + "}}";
  }

  private static String order(long id, Long store, long amount) {
    return "{\"order_id\":" + id + ",\"store_id\":" + store + ",\"amount\":" + amount + "}";
  }

  private Path input(String name, String... events) throws Exception {
    Path file = folder.resolve("in").resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, List.of(events));
    return file;
  }

  private List<String> args(TemplateCatalog template, Path input, String table) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--inputFilePattern=" + input,
                "--warehouse=" + folder.resolve("lake"),
                "--database=shop",
                "--table=" + table,
                "--columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT",
                "--primaryKeys=order_id",
                "--producer=lookup",
                "--buckets=2",
                "--deadLetterDir=" + folder.resolve("dead"),
                "--runner=DirectRunner"));
    if (template == TemplateCatalog.CDC_TO_AGGREGATE) {
      args.addAll(
          List.of(
              "--groupColumn=store_id", "--valueColumn=amount", "--aggregateTable=store_totals"));
    }
    return args;
  }

  private PipelineResult run(TemplateCatalog template, Path input) {
    PipelineResult result = template.run(args(template, input, "orders").toArray(String[]::new));
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    return result;
  }

  /** The truth: the table's rows summed per store, as {@code [store, sum, count]}. */
  private List<String> truth() throws Exception {
    Map<Long, long[]> sums = new TreeMap<>();
    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      Table orders = Table.open(store, ORDERS);
      int group = orders.schema().rowType().indexOf("store_id");
      int amount = orders.schema().rowType().indexOf("amount");
      for (Object[] row : orders.newRead().readAll()) {
        long[] sum = sums.computeIfAbsent((Long) row[group], k -> new long[2]);
        sum[0] += (Long) row[amount];
        sum[1]++;
      }
    }
    List<String> rows = new ArrayList<>();
    sums.forEach((store, sum) -> rows.add(Arrays.toString(new long[] {store, sum[0], sum[1]})));
    return rows;
  }

  /** The aggregate's rows without groups whose count fell to 0 (they keep a row). */
  private List<String> aggregate() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      return Table.open(store, TOTALS).newRead().readAll().stream()
          .filter(row -> (Long) row[2] != 0)
          .map(Arrays::toString)
          .sorted()
          .toList();
    }
  }

  private List<Snapshot> snapshots(TablePath path) throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      Table table = Table.open(store, path);
      List<Snapshot> all = new ArrayList<>();
      for (long id : table.snapshots().listIds()) {
        all.add(table.snapshots().read(id));
      }
      return all;
    }
  }

  private static long counter(PipelineResult result, String name) {
    long total = 0;
    for (MetricResult<Long> c :
        result
            .metrics()
            .queryMetrics(
                MetricsFilter.builder()
                    .addNameFilter(MetricNameFilter.named("changelake.templates", name))
                    .build())
            .getCounters()) {
      total += c.getAttempted();
    }
    return total;
  }

  @Test
  void snapshotsNoAggregateCommitHeldAreAppliedOnceByTheNextRunAndAPlainRestartDoublesNothing()
      throws Exception {
    // A stop after the table's commit: the table holds these, no aggregate exists.
    run(
        TemplateCatalog.CDC_TO_TABLE,
        input(
            "1.json",
            event("c", "null", order(1001, 10L, 100)),
            event("c", "null", order(1002, 20L, 50)),
            event("c", "null", order(1003, 20L, 70))));
    assertFalse(snapshots(ORDERS).isEmpty());
    assertFalse(Files.exists(folder.resolve("lake").resolve(TOTALS.root())));

    PipelineResult second =
        run(
            TemplateCatalog.CDC_TO_AGGREGATE,
            input(
                "2.json",
                event("u", order(1001, 10L, 100), order(1001, 10L, 80)),
                event("c", "null", order(1004, 30L, 5))));
    assertEquals(List.of("[10, 80, 1]", "[20, 120, 2]", "[30, 5, 1]"), aggregate());
    assertEquals(truth(), aggregate());
    assertTrue(counter(second, "aggregateSnapshotsApplied") >= 2);

    // Stopped again between the commits, now with an aggregate that is behind.
    run(
        TemplateCatalog.CDC_TO_TABLE,
        input(
            "3.json",
            event("d", order(1002, 20L, 50), "null"),
            event("u", order(1003, 20L, 70), order(1003, 30L, 75))));
    Path nothing = input("empty.json");
    run(TemplateCatalog.CDC_TO_AGGREGATE, nothing);
    assertEquals(List.of("[10, 80, 1]", "[30, 80, 2]"), aggregate());
    assertEquals(truth(), aggregate());

    // A restart with nothing new re-applies nothing: no aggregate commit at all.
    int aggregateSnapshots = snapshots(TOTALS).size();
    PipelineResult restart = run(TemplateCatalog.CDC_TO_AGGREGATE, nothing);
    assertEquals(truth(), aggregate());
    assertEquals(aggregateSnapshots, snapshots(TOTALS).size());
    assertEquals(0, counter(restart, "aggregateCommits"));

    // The record: the aggregate's newest commit names the table's newest snapshot.
    List<Snapshot> orders = snapshots(ORDERS);
    List<Snapshot> totals = snapshots(TOTALS);
    assertEquals(
        orders.get(orders.size() - 1).id(), totals.get(totals.size() - 1).commitIdentifier());
    assertEquals(
        AggregateCatchUp.commitUser("shop", "orders"), totals.get(totals.size() - 1).commitUser());
  }

  @Test
  void aChangeWithANullGroupIsADeadLetterAndTheRestIsApplied() throws Exception {
    run(
        TemplateCatalog.CDC_TO_AGGREGATE,
        input(
            "1.json",
            event("c", "null", order(1001, 10L, 100)),
            event("c", "null", order(1002, null, 50))));
    assertEquals(List.of("[10, 100, 1]"), aggregate());
    List<String> dead = WrittenDeadLetters.sortedLines(folder.resolve("dead"));
    assertEquals(1, dead.size(), dead.toString());
    assertTrue(dead.get(0).contains("the group column store_id is null"), dead.get(0));
  }

  @Test
  void sourceSnapshotsExpiredBeforeTheAggregateAppliedThemFailTheRunNamingThem() throws Exception {
    List<String> keepOne =
        new ArrayList<>(
            args(
                TemplateCatalog.CDC_TO_TABLE,
                input("1.json", event("c", "null", order(1001, 10L, 100))),
                "orders"));
    keepOne.add("--tableOptions=snapshot.num-retained.min=1;snapshot.num-retained.max=1");
    TemplateCatalog.CDC_TO_TABLE.run(keepOne.toArray(String[]::new)).waitUntilFinish();
    keepOne.set(
        0, "--inputFilePattern=" + input("2.json", event("c", "null", order(1002, 20L, 5))));
    TemplateCatalog.CDC_TO_TABLE.run(keepOne.toArray(String[]::new)).waitUntilFinish();
    assertTrue(snapshots(ORDERS).get(0).id() > 1, "the first snapshots expired");

    Exception failed =
        assertThrows(
            Exception.class, () -> run(TemplateCatalog.CDC_TO_AGGREGATE, input("empty.json")));
    Throwable cause = failed;
    while (cause.getCause() != null && !(cause instanceof IllegalStateException)) {
      cause = cause.getCause();
    }
    assertTrue(
        cause.getMessage().contains("has applied orders up to snapshot 0, but orders's snapshots"),
        cause.getMessage());
  }

  @Test
  void anAggregateTableAnotherFlowWroteIsRefusedAtLaunch() throws Exception {
    Path first = input("1.json", event("c", "null", order(1001, 10L, 100)));
    run(TemplateCatalog.CDC_TO_AGGREGATE, first);
    List<String> other = args(TemplateCatalog.CDC_TO_AGGREGATE, first, "returns");
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> TemplateCatalog.CDC_TO_AGGREGATE.run(other.toArray(String[]::new)));
    assertTrue(
        refused.getMessage().startsWith("--aggregateTable=store_totals is not valid"),
        refused.getMessage());
    assertEquals(List.of("[10, 100, 1]"), aggregate());
  }
}
