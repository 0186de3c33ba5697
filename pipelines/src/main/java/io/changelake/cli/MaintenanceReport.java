package io.changelake.cli;

import io.changelake.table.Table;
import java.io.PrintStream;
import java.util.List;

/** How {@code expire} and {@code clean-orphans} print the files they removed. */
final class MaintenanceReport {

  private MaintenanceReport() {}

  /**
   * Prints {@code removed} (store paths) relative to the table folder, under a line that says how
   * many and whether they were removed or only would be.
   */
  static void print(Table table, List<String> removed, boolean dryRun, PrintStream out) {
    out.println(
        (dryRun ? "would remove " : "removed ")
            + removed.size()
            + " files"
            + (removed.isEmpty() ? "" : (dryRun ? " (dry run: nothing deleted)" : "") + ":"));
    String tableFolder = table.path().root();
    for (String path : removed) {
      boolean inTable = path.startsWith(tableFolder);
      out.println("  " + (inTable ? path.substring(tableFolder.length()) : path));
    }
  }
}
