package io.changelake.cli;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableSchema;
import io.changelake.table.TableWriter;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The order-price-correction story on the embedded default (a local warehouse): an order costs
 * 100, then is corrected to 80. The demo writes it into a primary-key table, commits, and prints
 * the snapshots and the table state.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the order-price-correction story into a table on local disk and prints its"
          + " snapshots and rows.",
      "Without --warehouse the warehouse is a temporary folder, removed at the end."
    })
final class DemoCommand implements Callable<Integer> {

  static final RowType ORDERS =
      RowType.of(
          new String[] {"order_id", "store_id", "amount"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()});

  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      description = "Keep the tables in this folder (readable by Paimon, Flink, Spark, Trino).")
  Path warehouse;

  @Override
  public Integer call() throws IOException {
    PrintStream out = System.out;
    Path root = warehouse != null ? warehouse : Files.createTempDirectory("changelake-demo");
    try (ObjectStore store = new LocalObjectStore(root)) {
      TablePath path = new TablePath("shop", "orders");
      TableSchema schema =
          TableSchema.create(ORDERS, List.of(), List.of("order_id"), Map.of("bucket", "2"), null);
      Table table = Table.create(store, path, schema);
      out.println("warehouse " + store.root());
      out.println("table     " + table.location() + "  primary key " + schema.primaryKeys()
          + ", options " + schema.options());

      SnapshotCommit commit = table.newCommit("changelake-demo");
      try (TableWriter writer = table.newWriter()) {
        write(out, writer, RowKind.INSERT, 1001L, 10L, 100L);
        write(out, writer, RowKind.INSERT, 1002L, 20L, 50L);
        report(out, commit.commit(1, writer.prepareCommit(1)));
        write(out, writer, RowKind.UPDATE_AFTER, 1001L, 10L, 80L);
        report(out, commit.commit(2, writer.prepareCommit(2)));
      }

      out.println("snapshots");
      for (long id : table.snapshots().listIds()) {
        Snapshot s = table.snapshots().read(id);
        out.printf(
            "  %d %-7s commit %s#%d  records total=%d delta=%d%n",
            s.id(), s.commitKind(), s.commitUser(), s.commitIdentifier(),
            s.totalRecordCount(), s.deltaRecordCount());
      }
      out.println("table state (batch read of the latest snapshot)");
      for (Object[] row : table.newRead().readAll()) {
        out.println("  +I" + Arrays.toString(row));
      }
    } finally {
      if (warehouse == null) {
        TempFolders.delete(root);
      }
    }
    return 0;
  }

  private static void write(PrintStream out, TableWriter writer, RowKind kind, Object... row)
      throws IOException {
    writer.write(kind, row);
    out.println("write     " + kind.shortString() + Arrays.toString(row));
  }

  private static void report(PrintStream out, List<Snapshot> snapshots) {
    for (Snapshot s : snapshots) {
      out.println("commit    -> snapshot " + s.id() + " (" + s.commitKind() + ")");
    }
  }
}
