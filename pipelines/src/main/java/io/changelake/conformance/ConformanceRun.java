package io.changelake.conformance;

import io.changelake.conformance.ConformanceScript.Action;
import io.changelake.conformance.ConformanceScript.Commit;
import io.changelake.conformance.ConformanceScript.Write;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
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
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a conformance script against a changelake table on local disk and prints what Paimon's
 * reference driver prints: the streaming changelog from snapshot 1, the aggregate a downstream
 * {@code SUM(amount), COUNT(*) GROUP BY store_id} derives from it, the final table state, the same
 * aggregate over that state, and whether the two agree.
 */
public final class ConformanceRun {

  /** The conformance table, which a script may extend ({@link ConformanceScript#rowType()}). */
  public static final RowType ORDERS =
      RowType.of(
          new String[] {"order_id", "store_id", "amount"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()});

  /** The table lives at {@code <warehouse>/db.db/orders}. */
  public static final TablePath PATH = new TablePath("db", "orders");

  private final ConformanceScript script;
  private final String scriptName;
  private final Map<String, String> options;

  /**
   * @param script the script
   * @param scriptName its file name, for the header
   * @param producer the changelog producer
   * @param mergeEngine the merge engine
   * @param extraOptions options given on the command line, applied last
   */
  public ConformanceRun(
      ConformanceScript script,
      String scriptName,
      String producer,
      String mergeEngine,
      Map<String, String> extraOptions) {
    this.script = script;
    this.scriptName = scriptName;
    Map<String, String> all = new LinkedHashMap<>();
    all.put("bucket", "1");
    all.put("changelog-producer", producer);
    all.put("file.format", "parquet");
    all.put("merge-engine", mergeEngine);
    if (mergeEngine.equals("aggregation")) {
      all.put("fields.amount.aggregate-function", "sum");
    }
    all.putAll(script.options());
    all.putAll(extraOptions);
    this.options = all;
  }

  /** The table's options: the defaults, the script's, then those given on the command line. */
  public Map<String, String> options() {
    return options;
  }

  /**
   * Creates the table in {@code warehouse}, runs the script and prints the report.
   *
   * @throws IllegalArgumentException if the table options are rejected (the message names the
   *     option and the fix)
   */
  public void run(Path warehouse, PrintStream out) throws IOException {
    TableSchema schema =
        Table.checkMergeEngine(
            TableSchema.create(
                script.rowType(), script.partitionKeys(), script.primaryKeys(), options, null));
    out.println("# changelake");
    out.println("# script " + scriptName);
    out.println(
        "# table orders("
            + String.join(
                ", ",
                script.rowType().fields().stream().map(f -> f.name() + " " + f.type()).toList())
            + ") primary key "
            + script.primaryKeys()
            + " partitioned by "
            + script.partitionKeys());
    out.println("# options " + new TreeMap<>(options));
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, schema);
      drive(table, out);
      printReport(table, out);
    }
  }

  private void drive(Table table, PrintStream out) throws IOException {
    SnapshotCommit commit = table.newCommit("conformance");
    long identifier = 0;
    boolean pending = false;
    try (TableWriter writer = table.newWriter()) {
      for (Action action : script.actions()) {
        if (action instanceof Write w) {
          writer.write(w.kind(), w.row());
          pending = true;
        } else if (action instanceof Commit c) {
          identifier++;
          commit(
              writer, commit, identifier, requestOf(c.kind()), "line " + c.line(), c.kind(), out);
          pending = false;
        }
      }
      if (pending) {
        identifier++;
        commit(
            writer,
            commit,
            identifier,
            CompactionRequest.AUTO,
            "end of script",
            Commit.Kind.COMMIT,
            out);
      }
    }
  }

  private static CompactionRequest requestOf(Commit.Kind kind) {
    return switch (kind) {
      case COMMIT -> CompactionRequest.AUTO;
      case COMPACT -> CompactionRequest.NORMAL;
      case COMPACT_FULL -> CompactionRequest.FULL;
    };
  }

  private static void commit(
      TableWriter writer,
      SnapshotCommit commit,
      long identifier,
      CompactionRequest request,
      String where,
      Commit.Kind kind,
      PrintStream out)
      throws IOException {
    List<Snapshot> snapshots = commit.commit(identifier, writer.prepareCommit(identifier, request));
    out.println(
        "# "
            + kind
            + " ("
            + where
            + "): commitIdentifier="
            + identifier
            + " -> "
            + (snapshots.isEmpty()
                ? "no snapshot"
                : "snapshots "
                    + snapshots.stream().map(s -> s.id() + " " + s.commitKind()).toList()));
  }

  private static void printReport(Table table, PrintStream out) throws IOException {
    ConformanceReport report = new ConformanceReport();
    table
        .newChangelogScan()
        .walk(
            1,
            table.snapshots().latestId().orElse(0),
            new ChangelogScan.ChangeVisitor() {
              @Override
              public void snapshot(Snapshot snapshot) {
                report.snapshot(snapshot.id(), snapshot.commitKind().toString());
              }

              @Override
              public void change(ChangeRow row) {
                KeyValue kv = row.toKeyValue();
                report.change(kv.kind(), kv.value());
              }
            });
    Snapshot latest = table.snapshots().latest().orElse(null);
    if (latest != null) {
      for (BucketSplit split : table.newRead().splits(latest)) {
        try (TableRead.MergedRows rows = table.newRead().read(split)) {
          while (rows.hasNext()) {
            KeyValue kv = rows.nextKeyValue();
            report.stateRow(kv.kind(), kv.value());
          }
        }
      }
    }
    report.print(out);
  }
}
