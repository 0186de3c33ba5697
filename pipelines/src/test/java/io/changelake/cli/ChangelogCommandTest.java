package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangelogCommandTest {

  @TempDir Path dir;

  private static CommandRun changelog(TestWarehouse warehouse, String... range) {
    return warehouse.onOrders("changelog", range);
  }

  @Test
  void aNoneTablesChangelogIsTheRowsAsWrittenWithoutBeforeImages() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = changelog(warehouse, "--from-snapshot", "1");

      assertEquals(0, run.exitCode(), run.err());
      assertEquals(
          "-- snapshot 1 (APPEND)\n+I[1001, 10, 100]\n+I[1002, 20, 50]\n"
              + "-- snapshot 2 (APPEND)\n+U[1001, 10, 80]\n"
              + "-- snapshot 3 (APPEND)\n-D[1002, 20, 50]\n",
          run.out());
      assertTrue(run.err().contains("reading snapshot 3/3"), run.err());
    }
  }

  @Test
  void aLookupTablesChangelogRetractsTheOldPrice() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "lookup");

      CommandRun run = changelog(warehouse, "--from-snapshot", "1");

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(run.out().contains("-U[1001, 10, 100]\n+U[1001, 10, 80]\n"), run.out());
      assertTrue(run.out().contains("-D[1002, 20, 50]\n"), run.out());
    }
  }

  @Test
  void theRangeEndsAtTheSnapshotGiven() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = changelog(warehouse, "--from-snapshot", "2", "--to-snapshot", "2");

      assertEquals("-- snapshot 2 (APPEND)\n+U[1001, 10, 80]\n", run.out());
    }
  }

  @Test
  void aRangeBeyondTheLatestSnapshotFailsNamingIt() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun beyond = changelog(warehouse, "--from-snapshot", "4");
      CommandRun notCommitted = changelog(warehouse, "--from-snapshot", "1", "--to-snapshot", "5");

      assertEquals(2, beyond.exitCode());
      assertTrue(beyond.err().contains("error: --from-snapshot 4 is outside 1 to 3"), beyond.err());
      assertEquals(2, notCommitted.exitCode());
      assertTrue(
          notCommitted
              .err()
              .matches(
                  "error: snapshot 5 of \\S+ does not exist \\(snapshots"
                      + " 1 to 3 exist\\): choose one of those\\s*"),
          notCommitted.err());
      assertEquals("", notCommitted.out());
    }
  }
}
