package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CleanOrphansCommandTest {

  @TempDir Path dir;

  /** A file a crashed writer left in the bucket folder, {@code age} ago. */
  private Path orphan(String name, Duration age) throws Exception {
    Path file = dir.resolve("shop.db/orders/bucket-0/" + name);
    Files.write(file, new byte[] {1, 2, 3});
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  private static CommandRun clean(TestWarehouse warehouse, String... flags) {
    return warehouse.onOrders("clean-orphans", flags);
  }

  @Test
  void cleanRemovesOrphansOlderThanTheSafetyAgeOnly() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");
      Path old = orphan("data-crashed.parquet", Duration.ofDays(2));
      Path fresh = orphan("data-in-flight.parquet", Duration.ZERO);

      CommandRun run = clean(warehouse);

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(run.out().contains("older than PT24H"), run.out());
      assertTrue(
          run.out().endsWith("removed 1 files:\n  bucket-0/data-crashed.parquet\n"), run.out());
      assertFalse(Files.exists(old));
      assertTrue(Files.exists(fresh));
      assertEquals(1, warehouse.open("orders").newRead().readAll().size());
    }
  }

  @Test
  void aDryRunListsOrphansAndKeepsThem() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");
      Path fresh = orphan("data-in-flight.parquet", Duration.ZERO);

      CommandRun run = clean(warehouse, "--older-than", "0s", "--dry-run");

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(
          run.out()
              .contains(
                  "would remove 1 files (dry run: nothing deleted):\n"
                      + "  bucket-0/data-in-flight.parquet\n"),
          run.out());
      assertTrue(
          run.err()
              .contains(
                  "warning: --older-than PT0S may remove the files of a commit" + " in progress"),
          run.err());
      assertTrue(Files.exists(fresh));
    }
  }

  @Test
  void anAgeThatIsNoDurationFailsNamingTheForms() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = clean(warehouse, "--older-than", "soon");

      assertEquals(2, run.exitCode());
      assertTrue(
          run.err().contains("'soon' is not an age: use a number with d, h, m or s"), run.err());
    }
  }
}
