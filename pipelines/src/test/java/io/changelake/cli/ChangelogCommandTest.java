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
  void someColumnsPrintInTheOrderGivenWithEveryChange() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "lookup");

      CommandRun all = changelog(warehouse, "--from-snapshot", "1");
      CommandRun some =
          changelog(warehouse, "--from-snapshot", "1", "--columns", "amount,order_id");

      assertEquals(0, some.exitCode(), some.err());
      StringBuilder expected = new StringBuilder();
      for (String line : all.out().split("\n")) {
        if (line.startsWith("--")) {
          expected.append(line);
        } else {
          // +I[1001, 10, 100] -> +I[100, 1001]
          String[] values = line.substring(3, line.length() - 1).split(", ");
          expected.append(line, 0, 3).append(values[2]).append(", ").append(values[0]).append(']');
        }
        expected.append('\n');
      }
      assertEquals(expected.toString(), some.out());
      assertTrue(some.out().contains("-U[100, 1001]\n+U[80, 1001]\n"), some.out());
    }
  }

  @Test
  void anUnknownOrRepeatedColumnFailsNamingTheColumns() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun unknown = changelog(warehouse, "--from-snapshot", "1", "--columns", "price");
      CommandRun twice =
          changelog(warehouse, "--from-snapshot", "1", "--columns", "amount,order_id,amount");

      assertEquals(2, unknown.exitCode());
      assertTrue(
          unknown
              .err()
              .contains(
                  "error: --columns price: the table has no such column; columns are"
                      + " [order_id, store_id, amount]"),
          unknown.err());
      assertEquals(2, twice.exitCode());
      assertTrue(
          twice.err().contains("error: --columns names amount twice: name each column once"),
          twice.err());
      assertEquals("", unknown.out() + twice.out());
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
