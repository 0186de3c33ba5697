package io.changelake.cli;

import io.changelake.table.OrphanFilesClean;
import io.changelake.table.Table;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Removes files no snapshot references, older than a safety age. */
@Command(
    name = "clean-orphans",
    mixinStandardHelpOptions = true,
    description = {
      "Removes data, changelog and manifest files that no snapshot references (left by failed"
          + " commits and crashed writers) once they are older than --older-than, and prints"
          + " them.",
      "The age protects commits in progress, whose files no snapshot names yet: keep it above"
          + " the longest a writer takes from writing a file to committing it."
    })
final class CleanOrphansCommand implements Callable<Integer> {

  /** Below this a running writer's uncommitted files are at real risk; see the description. */
  private static final Duration RISKY_AGE = Duration.ofHours(1);

  @Mixin TableLocation location;

  @Option(
      names = "--older-than",
      paramLabel = "AGE",
      defaultValue = "1d",
      converter = AgeConverter.class,
      description = "Only files older than this go: 1d, 12h, 30m, 45s (default: ${DEFAULT-VALUE}).")
  Duration olderThan;

  @Option(names = "--dry-run", description = "Only list the files that would be removed.")
  boolean dryRun;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (RecordingStore store = new RecordingStore(location.openStore(), dryRun)) {
      Table table = location.open(store);
      out.println(
          "clean      " + table.location() + ", files unreferenced and older than " + olderThan);
      if (olderThan.compareTo(RISKY_AGE) < 0) {
        System.err.println(
            "warning: --older-than "
                + olderThan
                + " may remove the files of a"
                + " commit in progress; use it only when no writer runs");
      }
      System.err.println("listing the files of " + table.location());
      List<String> removed = new OrphanFilesClean(table).clean(olderThan);
      MaintenanceReport.print(table, removed, dryRun, out);
    }
    return 0;
  }
}
