package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditCommandTest {

  @TempDir Path dir;

  private CommandRun audit(TestWarehouse warehouse, String table, String... more) {
    String[] args = {
      "audit",
      "--warehouse",
      warehouse.location(),
      "--database",
      "shop",
      "--table",
      table,
      "--sum",
      "amount",
      "--group-by",
      "store_id"
    };
    String[] all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return CommandRun.of(all);
  }

  @Test
  void auditFindsTheDoubleCountedUpdateOfANoneTable() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = audit(warehouse, "orders");

      assertEquals(1, run.exitCode(), run.out() + run.err());
      assertTrue(run.out().contains("keys       1 in the table, 1 differ"), run.out());
      assertTrue(
          run.out()
              .contains(
                  "key [1001]: the changelog leaves [1001, 10, 100],"
                      + " [1001, 10, 80]; the table has [1001, 10, 80]"),
          run.out());
      assertTrue(run.out().matches("(?s).*store_id=10\\s+180\\s+80\\s+2\\s+1\n.*"), run.out());
      assertTrue(
          run.out()
              .contains(
                  "FAIL: the changelog does not reproduce the table at"
                      + " snapshot 3 (differing keys: 1, groups: 1)"),
          run.out());
      assertTrue(run.err().contains("reading snapshot 3/3"), run.err());
    }
  }

  @Test
  void auditPassesOnALookupTable() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "lookup");

      CommandRun run = audit(warehouse, "orders");

      assertEquals(0, run.exitCode(), run.out() + run.err());
      assertTrue(
          run.out()
              .contains(
                  "aggregate  SUM(amount), COUNT(*) GROUP BY store_id:" + " 1 groups, 0 differ"),
          run.out());
      assertTrue(run.out().contains("PASS: the changelog reproduces the table"), run.out());
    }
  }

  @Test
  void auditKeysRowsByPartitionAndKeyAcrossBuckets() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story(warehouse.createPartitioned("orders", Map.of("changelog-producer", "none")));
      warehouse.story(warehouse.createPartitioned("fixed", Map.of("changelog-producer", "lookup")));

      CommandRun none = audit(warehouse, "orders");
      CommandRun lookup = audit(warehouse, "fixed");

      assertEquals(1, none.exitCode(), none.out() + none.err());
      assertTrue(
          none.out()
              .contains(
                  "key [10, 1001]: the changelog leaves [1001, 10, 100]," + " [1001, 10, 80]"),
          none.out());
      assertEquals(0, lookup.exitCode(), lookup.out() + lookup.err());
    }
  }

  @Test
  void auditFromAMiddleSnapshotStartsFromItsState() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "lookup");
      long first = warehouse.open("orders").snapshots().earliestId().orElseThrow();

      CommandRun run = audit(warehouse, "orders", "--from", Long.toString(first));

      assertEquals(0, run.exitCode(), run.out() + run.err());
      assertTrue(run.out().contains("replay     the state at snapshot " + first), run.out());
    }
  }

  @Test
  void auditPassesOnAnInputTableFedACompleteChangelog() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      var table = warehouse.create("orders", Map.of("changelog-producer", "input"));
      warehouse.commit(table, TestWarehouse.insert(1001, 10, 100));
      warehouse.commit(
          table,
          new TestWarehouse.Write(RowKind.UPDATE_BEFORE, 1001, 10, 100),
          new TestWarehouse.Write(RowKind.UPDATE_AFTER, 1001, 10, 80));

      assertEquals(0, audit(warehouse, "orders").exitCode());
    }
  }

  @Test
  void auditRefusesAColumnTheTableLacks() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run =
          CommandRun.of(
              "audit",
              "--warehouse",
              warehouse.location(),
              "--database",
              "shop",
              "--table",
              "orders",
              "--sum",
              "price");

      assertEquals(2, run.exitCode());
      assertTrue(
          run.err()
              .contains(
                  "error: --sum price: the table has no such column; columns"
                      + " are [order_id, store_id, amount]"),
          run.err());
    }
  }
}
