package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.table.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpireCommandTest {

  @TempDir Path dir;

  private Table threeSnapshotsKeepingOne(TestWarehouse warehouse) throws Exception {
    // write-only: the writers' commits leave expiry to a separate job, here the command.
    Table table =
        warehouse.create(
            "orders",
            Map.of(
                "snapshot.num-retained.min",
                "1",
                "snapshot.num-retained.max",
                "1",
                "write-only",
                "true"));
    for (long order = 1; order <= 3; order++) {
      warehouse.commit(table, TestWarehouse.insert(order, 10, order));
    }
    return table;
  }

  private static CommandRun expire(TestWarehouse warehouse, String... flags) {
    return warehouse.onOrders("expire", flags);
  }

  @Test
  void expireRemovesTheSnapshotsBeyondRetentionAndListsTheirFiles() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = threeSnapshotsKeepingOne(warehouse);

      CommandRun run = expire(warehouse);

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(
          run.out().contains("snapshot.num-retained.min=1 snapshot.num-retained.max=1"), run.out());
      assertTrue(
          run.out().contains("expired snapshots 1 to 2 (2); snapshot 3 is the earliest now"),
          run.out());
      assertTrue(run.out().contains("\n  snapshot/snapshot-1\n"), run.out());
      assertEquals(3, table.snapshots().earliestId().orElseThrow());
      assertEquals(3, table.newRead().readAll().size());
    }
  }

  @Test
  void aDryRunListsTheSameAndRemovesNothing() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = threeSnapshotsKeepingOne(warehouse);
      Path snapshotOne = dir.resolve("shop.db/orders/snapshot/snapshot-1");

      CommandRun run = expire(warehouse, "--dry-run");

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(run.out().contains("would expire snapshots 1 to 2"), run.out());
      assertTrue(run.out().contains("(dry run: nothing deleted)"), run.out());
      assertTrue(run.out().contains("\n  snapshot/snapshot-1\n"), run.out());
      assertTrue(Files.exists(snapshotOne));
      assertEquals(1, table.snapshots().earliestId().orElseThrow());
    }
  }

  @Test
  void nothingExpiresWhileEverySnapshotIsRetained() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = expire(warehouse);

      assertTrue(run.out().contains("nothing to expire"), run.out());
      assertTrue(run.out().contains("removed 0 files"), run.out());
      assertFalse(run.out().contains("snapshot/"), run.out());
    }
  }
}
