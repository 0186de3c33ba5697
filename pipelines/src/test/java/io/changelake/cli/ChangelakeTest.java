package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What every table command shares: its help, and how it fails on a table that is not there. */
class ChangelakeTest {

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "changelog", "audit", "advise", "expire", "clean-orphans"})
  void helpDescribesTheCommandAndItsTableOptions(String command) {
    CommandRun run = CommandRun.of(command, "--help");

    assertEquals(0, run.exitCode(), run.err());
    assertTrue(run.out().startsWith("Usage: changelake " + command), run.out());
    for (String option :
        new String[] {
          "--warehouse", "--database", "--table", "--s3-endpoint", "--s3-region", "--s3-path-style"
        }) {
      assertTrue(run.out().contains(option), command + " lacks " + option + ":\n" + run.out());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "changelog", "audit", "advise", "expire", "clean-orphans"})
  void aMissingTableFailsNamingIt(String command) throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      // changelog requires a range; the table is looked up before the range is checked.
      CommandRun run =
          command.equals("changelog")
              ? CommandRun.of(
                  command,
                  "--warehouse",
                  warehouse.location(),
                  "--database",
                  "shop",
                  "--table",
                  "missing",
                  "--from-snapshot",
                  "1")
              : CommandRun.of(
                  command,
                  "--warehouse",
                  warehouse.location(),
                  "--database",
                  "shop",
                  "--table",
                  "missing");

      assertEquals(2, run.exitCode(), run.out() + run.err());
      assertTrue(run.err().startsWith("error: no table shop.missing at "), run.err());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "audit"})
  void aWarehouseThatIsNoFolderFailsWithoutCreatingIt(String command) {
    Path absent = dir.resolve("typo");

    CommandRun run = CommandRun.of(command, "--warehouse", absent.toString(), "--table", "t");

    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("the warehouse " + absent + " is not a folder"), run.err());
    assertTrue(Files.notExists(absent));
  }

  @ParameterizedTest
  @ValueSource(strings = {"inspect", "advise"})
  void theTableOptionIsRequired(String command) {
    CommandRun run = CommandRun.of(command, "--warehouse", dir.toString());

    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("Missing required option: '--table=TABLE'"), run.err());
  }
}
