package io.changelake.cli;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Checks that a table's changelog reproduces its state: the check a downstream aggregate depends
 * on. See {@link ChangelogReplay} for how the changelog is applied.
 */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Replays the changelog between two snapshots as a consumer that does not normalize it"
          + " would (+I/+U add a row, -U/-D retract it), starting from the table state at"
          + " --from (empty for 0), and checks that it reproduces the table state at --to: per"
          + " primary key, and as SUM/COUNT grouped by a column when --sum or --group-by are"
          + " given.",
      "The state compared is what the producer has published by then: under lookup the rows"
          + " above level 0, under full-compaction the top level, else every row.",
      "Prints PASS or FAIL with the differing keys and groups; exits 0 on PASS, 1 on FAIL."
    })
final class AuditCommand implements Callable<Integer> {

  private static final Set<TypeRoot> NUMERIC =
      EnumSet.of(
          TypeRoot.TINYINT,
          TypeRoot.SMALLINT,
          TypeRoot.INT,
          TypeRoot.BIGINT,
          TypeRoot.FLOAT,
          TypeRoot.DOUBLE,
          TypeRoot.DECIMAL);

  @Mixin TableLocation location;

  @Option(
      names = "--from",
      paramLabel = "A",
      defaultValue = "0",
      description =
          "Start from the state at snapshot A; 0 starts empty" + " (default: ${DEFAULT-VALUE}).")
  long from;

  @Option(
      names = "--to",
      paramLabel = "B",
      description = "Replay up to snapshot B and compare with its state (default: the latest).")
  Long to;

  @Option(
      names = "--sum",
      paramLabel = "COLUMN",
      description = "A numeric column whose SUM is compared (with COUNT).")
  String sumColumn;

  @Option(
      names = "--group-by",
      paramLabel = "COLUMN",
      description = "The column the SUM and COUNT are grouped by (default: one group).")
  String groupColumn;

  @Option(
      names = "--max-mismatches",
      paramLabel = "N",
      defaultValue = "10",
      description =
          "Show at most N differing keys and N differing groups" + " (default: ${DEFAULT-VALUE}).")
  int maxMismatches;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      TableSchema schema = table.schema();
      RowType columns = schema.rowType();
      int sumIndex = sumColumn == null ? -1 : ColumnName.position(columns, sumColumn, "--sum");
      int groupIndex =
          groupColumn == null ? -1 : ColumnName.position(columns, groupColumn, "--group-by");
      if (sumIndex >= 0 && !NUMERIC.contains(schema.rowType().type(sumIndex).root())) {
        throw new IllegalArgumentException(
            "--sum "
                + sumColumn
                + " is a "
                + schema.rowType().type(sumIndex)
                + " column: choose a numeric one");
      }
      long last = to != null ? to : ChangelogWalk.latestId(table);
      if (from < 0 || from > last) {
        throw new IllegalArgumentException(
            "--from " + from + " is outside 0 to " + last + ": give the older snapshot first");
      }
      Snapshot target = ChangelogWalk.snapshot(table, last);

      out.println(
          "audit      "
              + table.location()
              + " (changelog-producer "
              + schema.options().changelogProducer()
              + ", merge-engine "
              + schema.options().mergeEngine()
              + ")");
      out.println(
          "replay     "
              + (from == 0 ? "empty start" : "the state at snapshot " + from)
              + ", then the changelog of snapshots "
              + (from + 1)
              + " to "
              + last);
      out.println(
          "against    the state at snapshot "
              + last
              + ", "
              + PublishedState.describeLevels(schema.options()));

      PrimaryKey primaryKey = new PrimaryKey(schema);
      ChangelogReplay replay = new ChangelogReplay(primaryKey);
      if (from > 0) {
        for (Object[] row : PublishedState.read(table, ChangelogWalk.snapshot(table, from))) {
          replay.apply(RowKind.INSERT, row);
        }
      }
      ChangelogWalk.walk(
          table.newChangelogScan(),
          from + 1,
          last,
          new ChangelogScan.ChangeVisitor() {
            @Override
            public void snapshot(Snapshot snapshot) {}

            @Override
            public void change(ChangeRow row) {
              KeyValue change = row.toKeyValue();
              replay.apply(change.kind(), change.value());
            }
          });
      List<Object[]> state = PublishedState.read(table, target);

      int differingKeys = compareKeys(primaryKey, replay, state, out);
      int differingGroups =
          sumIndex >= 0 || groupIndex >= 0
              ? compareAggregates(replay, state, sumIndex, groupIndex, out)
              : 0;
      if (differingKeys == 0 && differingGroups == 0) {
        out.println("PASS: the changelog reproduces the table at snapshot " + last);
        return 0;
      }
      out.println(
          "FAIL: the changelog does not reproduce the table at snapshot "
              + last
              + " (differing keys: "
              + differingKeys
              + ", groups: "
              + differingGroups
              + "): a"
              + " consumer that applies it without normalizing per key gets wrong results; see"
              + " ./changelake advise");
      return 1;
    }
  }

  /** Compares each key's replayed versions with its row in the table; returns how many differ. */
  private int compareKeys(
      PrimaryKey primaryKey, ChangelogReplay replay, List<Object[]> state, PrintStream out) {
    Map<RowValues, RowValues> table = new LinkedHashMap<>();
    for (Object[] row : state) {
      table.put(primaryKey.of(row), new RowValues(row));
    }
    Map<RowValues, Map<RowValues, Long>> replayed = replay.versionsByKey();
    List<String> shown = new ArrayList<>();
    int differing = 0;
    for (Map.Entry<RowValues, RowValues> row : table.entrySet()) {
      Map<RowValues, Long> versions = replayed.getOrDefault(row.getKey(), Map.of());
      if (!versions.equals(Map.of(row.getValue(), 1L))) {
        differing++;
        describe(shown, row.getKey(), versions, row.getValue().toString());
      }
    }
    for (Map.Entry<RowValues, Map<RowValues, Long>> key : replayed.entrySet()) {
      if (!table.containsKey(key.getKey()) && !key.getValue().isEmpty()) {
        differing++;
        describe(shown, key.getKey(), key.getValue(), "no row");
      }
    }
    out.println("keys       " + table.size() + " in the table, " + differing + " differ");
    shown.forEach(line -> out.println("  " + line));
    if (differing > shown.size()) {
      out.println("  ... and " + (differing - shown.size()) + " more");
    }
    return differing;
  }

  private void describe(
      List<String> shown, RowValues key, Map<RowValues, Long> versions, String table) {
    if (shown.size() >= maxMismatches) {
      return;
    }
    List<String> left = new ArrayList<>();
    versions.forEach((row, count) -> left.add(count == 1 ? row.toString() : count + " x " + row));
    shown.add(
        "key "
            + key
            + ": the changelog leaves "
            + (left.isEmpty() ? "no row" : String.join(", ", left))
            + "; the table has "
            + table);
  }

  /** Compares SUM and COUNT per group; returns how many groups differ. */
  private int compareAggregates(
      ChangelogReplay replay, List<Object[]> state, int sumIndex, int groupIndex, PrintStream out) {
    Map<String, Aggregate> fromChangelog = new TreeMap<>();
    replay
        .versionsByKey()
        .values()
        .forEach(
            versions ->
                versions.forEach(
                    (row, count) ->
                        aggregate(fromChangelog, row.values(), count, sumIndex, groupIndex)));
    Map<String, Aggregate> fromTable = new TreeMap<>();
    state.forEach(row -> aggregate(fromTable, row, 1, sumIndex, groupIndex));
    // Groups a consumer would drop: nothing left in them.
    fromChangelog.values().removeIf(a -> a.count == 0 && a.sum.signum() == 0);

    Set<String> groups = new TreeSet<>(fromChangelog.keySet());
    groups.addAll(fromTable.keySet());
    Aggregate none = new Aggregate();
    TextTable listing =
        new TextTable("group", "changelog sum", "table sum", "changelog count", "table count");
    int differing = 0;
    for (String group : groups) {
      Aggregate c = fromChangelog.getOrDefault(group, none);
      Aggregate t = fromTable.getOrDefault(group, none);
      if (c.count != t.count || c.sum.compareTo(t.sum) != 0) {
        if (++differing <= maxMismatches) {
          listing.add(group, c.sum, t.sum, c.count, t.count);
        }
      }
    }
    out.println(
        "aggregate  "
            + (sumIndex >= 0 ? "SUM(" + sumColumn + "), " : "")
            + "COUNT(*)"
            + (groupIndex >= 0 ? " GROUP BY " + groupColumn : "")
            + ": "
            + groups.size()
            + " groups, "
            + differing
            + " differ");
    if (!listing.isEmpty()) {
      listing.print(out, "  ");
    }
    return differing;
  }

  /** SUM and COUNT of one group. */
  private static final class Aggregate {
    BigDecimal sum = BigDecimal.ZERO;
    long count;
  }

  private void aggregate(
      Map<String, Aggregate> groups, Object[] row, long count, int sumIndex, int groupIndex) {
    String group = groupIndex < 0 ? "all" : groupColumn + "=" + RowText.value(row[groupIndex]);
    Aggregate a = groups.computeIfAbsent(group, g -> new Aggregate());
    a.count += count;
    if (sumIndex >= 0 && row[sumIndex] != null) {
      BigDecimal value = new BigDecimal(row[sumIndex].toString());
      a.sum = a.sum.add(value.multiply(BigDecimal.valueOf(count)));
    }
  }
}
