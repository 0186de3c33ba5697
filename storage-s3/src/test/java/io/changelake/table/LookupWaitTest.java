package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.LocalObjectStore;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code lookup-wait=false} a commit does not wait for its changelog: it lands with a later
 * commit, and a writer that restarts in between still delivers it, once.
 */
class LookupWaitTest {

  @TempDir Path warehouse;

  @Test
  void changelogLandsWithTheNextCommitEvenAfterARestart() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              new TablePath("db", "orders"),
              Orders.schema(Map.of("changelog-producer", "lookup", "lookup-wait", "false")));
      SnapshotCommit commit = table.newCommit("job");
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1001, 10L, 100L));
        commit.commit(1, writer.prepareCommit(1));
        assertEquals(List.of(), changelog(table));

        writer.write(RowKind.UPDATE_AFTER, Orders.row(1001, 10L, 80L));
        commit.commit(2, writer.prepareCommit(2));
        assertEquals(List.of("+I[1001, 10, 100]"), changelog(table));
      }
      // A new writer (a restarted worker) writes nothing, yet its commit delivers what was owed.
      try (TableWriter restarted = table.newWriter()) {
        table.newCommit("job").commit(3, restarted.prepareCommit(3));
      }
      assertEquals(
          List.of("+I[1001, 10, 100]", "-U[1001, 10, 100]", "+U[1001, 10, 80]"), changelog(table));
      try (TableWriter again = table.newWriter()) {
        assertEquals(List.of(), again.prepareCommit(4));
      }
      Rows.assertSameRows(List.<Object[]>of(Orders.row(1001, 10L, 80L)), table.newRead().readAll());
    }
  }

  private static List<String> changelog(Table table) throws Exception {
    List<String> rows = new ArrayList<>();
    ChangelogScan scan = table.newChangelogScan();
    long latest = table.snapshots().latestId().orElse(0);
    for (long id = 1; id <= latest; id++) {
      for (ChangelogTask task : scan.changes(id)) {
        try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
          while (reader.hasNext()) {
            KeyValue kv = reader.next();
            rows.add(kv.kind().shortString() + Arrays.toString(kv.value()));
          }
        }
      }
    }
    return rows;
  }
}
