package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.table.Table;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InspectCommandTest {

  @TempDir Path dir;

  @Test
  void inspectPrintsSchemaOptionsSnapshotsFilesAndConsumers() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = warehouse.story("orders", "none");
      table.consumers().record("dashboard", 3);

      CommandRun run =
          CommandRun.of(
              "inspect",
              "--warehouse",
              warehouse.location(),
              "--database",
              "shop",
              "--table",
              "orders");

      assertEquals(0, run.exitCode(), run.err());
      String out = run.out();
      assertTrue(
          out.contains("  order_id BIGINT NOT NULL\n  store_id BIGINT\n  amount BIGINT\n"), out);
      assertTrue(out.contains("primary key   [order_id]\npartitioned   no\n"), out);
      assertTrue(out.contains("  changelog-producer = none\n"), out);
      assertTrue(out.contains("snapshots     3 (1 to 3), the newest 3 listed"), out);
      assertTrue(out.matches("(?s).*\n   1  APPEND  test#1  \\S+Z\\s+2\\s+2\\s+0\n.*"), out);
      // Three level-0 files under none: two rows, one update, one delete.
      assertTrue(
          out.matches(
              "(?s).*files         live in snapshot 3\n.*\n  -\\s+0\\s+0\\s+3\\s+4\\s+\\d+\n.*"),
          out);
      assertTrue(out.matches("(?s).*consumers     1\n.*\n  dashboard\\s+3\n.*"), out);
    }
  }

  @Test
  void inspectNamesThePartitionsOfFiles() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story(warehouse.createPartitioned("orders", Map.of()));

      CommandRun run =
          CommandRun.of(
              "inspect",
              "--warehouse",
              warehouse.location(),
              "--database",
              "shop",
              "--table",
              "orders");

      assertTrue(run.out().contains("partitioned   by [store_id]"), run.out());
      // Each store: one key written twice at level 0, in whichever bucket it hashes to.
      assertTrue(run.out().matches("(?s).*\n  store_id=10/\\s+\\d\\s+0\\s+2\\s+2\\s.*"), run.out());
      assertTrue(run.out().matches("(?s).*\n  store_id=20/\\s+\\d\\s+0\\s+2\\s+2\\s.*"), run.out());
    }
  }

  @Test
  void inspectListsOnlyTheNewestSnapshotsAsked() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run =
          CommandRun.of(
              "inspect",
              "--warehouse",
              warehouse.location(),
              "--database",
              "shop",
              "--table",
              "orders",
              "--snapshots",
              "1");

      assertTrue(run.out().contains("the newest 1 listed"), run.out());
      assertTrue(run.out().contains("   3  APPEND  test#3"), run.out());
      assertFalse(run.out().contains("   2  APPEND"), run.out());
    }
  }
}
