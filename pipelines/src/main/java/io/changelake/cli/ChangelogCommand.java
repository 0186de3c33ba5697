package io.changelake.cli;

import io.changelake.store.ObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Prints the changelog of a range of snapshots with row kinds. */
@Command(
    name = "changelog",
    mixinStandardHelpOptions = true,
    description = {
      "Prints the changes a streaming reader gets from a range of snapshots, as the conformance"
          + " runner does: '-- snapshot N (KIND)', then one line per change, '+I[...]',"
          + " '-U[...]', '+U[...]' or '-D[...]'.",
      "Which snapshots carry changes depends on the changelog producer: under none, the rows each"
          + " APPEND snapshot wrote, with no before-images; otherwise the changelog files.",
      "--columns prints some columns, in the order given; the others are neither fetched nor"
          + " decoded, which is what makes a wide table's changelog quick to look through."
    })
final class ChangelogCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(
      names = "--from-snapshot",
      required = true,
      paramLabel = "A",
      description = "The first snapshot whose changes are printed.")
  long from;

  @Option(
      names = "--to-snapshot",
      paramLabel = "B",
      description = "The last snapshot whose changes are printed (default: the latest).")
  Long to;

  @Option(
      names = "--columns",
      split = ",",
      paramLabel = "COLUMN",
      description = "The columns printed, in this order (default: every column).")
  List<String> columns;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      long last =
          to != null ? ChangelogWalk.snapshot(table, to).id() : ChangelogWalk.latestId(table);
      if (from < 1 || from > last) {
        throw new IllegalArgumentException(
            "--from-snapshot "
                + from
                + " is outside 1 to "
                + last
                + ": give the range"
                + " oldest first, starting at 1 or later");
      }
      ChangelogScan scan = table.newChangelogScan();
      if (columns != null) {
        scan = scan.withColumns(positions(table.schema().rowType()));
      }
      ChangelogWalk.walk(
          scan,
          from,
          last,
          new ChangelogScan.ChangeVisitor() {
            @Override
            public void snapshot(Snapshot snapshot) {
              out.println("-- snapshot " + snapshot.id() + " (" + snapshot.commitKind() + ")");
            }

            @Override
            public void change(ChangeRow row) {
              KeyValue change = row.toKeyValue();
              out.println(RowText.of(change.kind(), change.value()));
            }
          });
    }
    return 0;
  }

  private int[] positions(RowType rowType) {
    int[] positions = new int[columns.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = ColumnName.position(rowType, columns.get(i), "--columns");
      for (int j = 0; j < i; j++) {
        if (positions[j] == positions[i]) {
          throw new IllegalArgumentException(
              "--columns names " + columns.get(i) + " twice: name each column once");
        }
      }
    }
    return positions;
  }
}
