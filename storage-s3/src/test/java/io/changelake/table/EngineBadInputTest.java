package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.mergetree.MergeException;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records a merge engine cannot take, and rows that do not fit the table, fail with a message that
 * names the column or option and the fix; the table is left as it was, and the writer keeps the
 * good records it took before the bad one.
 */
class EngineBadInputTest {

  private static final TablePath PATH = new TablePath("db", "orders");
  private static final List<Object[]> COMMITTED =
      List.of(Orders.row(1, 10L, 100L), Orders.row(2, 20L, 7L));

  /** A new key: good for every engine here. */
  private static final Object[] GOOD = Orders.row(3, 30L, 8L);

  @TempDir Path warehouse;

  @Test
  void aRetractionOfAnAggregateWithoutRetractIsRefusedNamingTheColumnAndIgnoreRetract()
      throws Exception {
    assertRefusedAndTableUnchanged(
        Map.of(
            "merge-engine", "aggregation",
            "fields.amount.aggregate-function", "max",
            "changelog-producer", "lookup"),
        RowKind.UPDATE_BEFORE,
        Orders.row(1, 10L, 100L),
        MergeException.class,
        "'amount'",
        "'max'",
        "'fields.amount.ignore-retract' = 'true'");
  }

  @Test
  void aRetractionOnPartialUpdateWithoutADeleteRuleIsRefusedNamingTheOptions() throws Exception {
    assertRefusedAndTableUnchanged(
        Map.of("merge-engine", "partial-update", "changelog-producer", "lookup"),
        RowKind.DELETE,
        Orders.row(1, 10L, 100L),
        MergeException.class,
        "partial-update",
        "'ignore-delete'",
        "'partial-update.remove-record-on-delete'");
  }

  @Test
  void aRetractionOnFirstRowWithoutIgnoreDeleteIsRefusedNamingTheOption() throws Exception {
    assertRefusedAndTableUnchanged(
        Map.of("merge-engine", "first-row", "changelog-producer", "lookup"),
        RowKind.DELETE,
        Orders.row(1, 10L, 100L),
        MergeException.class,
        "first-row",
        "ignore-delete");
  }

  @Test
  void aNullPrimaryKeyIsRefusedNamingTheColumn() throws Exception {
    assertRefusedAndTableUnchanged(
        Map.of("changelog-producer", "lookup"),
        RowKind.INSERT,
        new Object[] {null, 10L, 100L},
        IllegalArgumentException.class,
        "'order_id'",
        "primary key");
  }

  /**
   * product retracts by dividing: a retraction of 0 alone passes the writer's check (there is
   * nothing to divide yet), and fails when the lookup compaction merges it with the stored row at
   * the commit. The commit fails, the table stays as it was, and a new writer carries on.
   */
  @Test
  void aRetractionThatFailsOnlyWhenMergedFailsTheCommitAndLeavesTheTable() throws Exception {
    Map<String, String> options =
        Map.of(
            "merge-engine", "aggregation",
            "fields.amount.aggregate-function", "product",
            "changelog-producer", "lookup");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          createWithCommittedRows(store, options, List.<Object[]>of(Orders.row(1, 10L, 6L)));
      long snapshot = table.snapshots().latestId().orElseThrow();
      List<Object[]> before = table.newRead().readAll();
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.UPDATE_BEFORE, Orders.row(1, 10L, 0L));
        MergeException e = assertThrows(MergeException.class, () -> writer.prepareCommit(2));
        BadInputTest.assertMentions(
            e, "'amount'", "product", "'fields.amount.ignore-retract' = 'true'");
      }
      assertUnchanged(table, snapshot, before);
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(2, 20L, 3L));
        table.newCommit("job").commit(2, writer.prepareCommit(2));
      }
      Rows.assertSameRows(
          List.<Object[]>of(Orders.row(1, 10L, 6L), Orders.row(2, 20L, 3L)),
          table.newRead().readAll());
    }
  }

  /**
   * Commits {@link #COMMITTED}, buffers {@link #GOOD}, then writes the bad record: it must fail
   * with a {@code type} naming {@code words}, leave the table as committed, and leave the writer
   * with {@link #GOOD} only, which the next commit shows (to Paimon too).
   */
  private void assertRefusedAndTableUnchanged(
      Map<String, String> options,
      RowKind kind,
      Object[] bad,
      Class<? extends RuntimeException> type,
      String... words)
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = createWithCommittedRows(store, options, COMMITTED);
      long snapshot = table.snapshots().latestId().orElseThrow();
      List<Object[]> before = table.newRead().readAll();
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, GOOD);
        Executable badWrite = () -> writer.write(kind, bad);
        BadInputTest.assertMentions(assertThrows(type, badWrite), words);
        assertUnchanged(table, snapshot, before);
        table.newCommit("job").commit(2, writer.prepareCommit(2));
      }
      List<Object[]> expected = List.of(COMMITTED.get(0), COMMITTED.get(1), GOOD);
      Rows.assertSameRows(expected, table.newRead().readAll());
      Rows.assertSameRows(
          expected,
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), table.schema()));
    }
  }

  private static Table createWithCommittedRows(
      LocalObjectStore store, Map<String, String> options, List<Object[]> rows) throws Exception {
    Table table = Table.create(store, PATH, Orders.schema(options));
    try (TableWriter writer = table.newWriter()) {
      for (Object[] row : rows) {
        writer.write(RowKind.INSERT, row);
      }
      table.newCommit("job").commit(1, writer.prepareCommit(1));
    }
    return table;
  }

  private static void assertUnchanged(Table table, long latestSnapshot, List<Object[]> rows)
      throws Exception {
    assertEquals(latestSnapshot, table.snapshots().latestId().orElseThrow());
    Rows.assertSameRows(rows, table.newRead().readAll());
  }
}
