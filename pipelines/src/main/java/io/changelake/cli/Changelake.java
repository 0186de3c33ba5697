package io.changelake.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code ./changelake} command line: one subcommand per job. Run {@code ./changelake --help},
 * or {@code ./changelake <command> --help}.
 */
@Command(
    name = "changelake",
    mixinStandardHelpOptions = true,
    version = "changelake 0.1.0",
    description = "Primary-key tables with a correct changelog, in Apache Paimon's format.",
    subcommands = {
      DemoCommand.class,
      RunTemplateCommand.class,
      ConformanceCommand.class,
      BenchCommand.class,
      InspectCommand.class,
      ChangelogCommand.class,
      AuditCommand.class,
      AdviseCommand.class,
      ExpireCommand.class,
      CleanOrphansCommand.class,
      TagCommand.class,
      RollbackCommand.class,
      CompactCommand.class,
      AlterCommand.class
    })
public final class Changelake implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }

  /**
   * Runs a command line and returns its exit code; user errors print their message, not a trace.
   */
  static int execute(String... args) {
    CommandLine commandLine = new CommandLine(new Changelake());
    commandLine.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof IllegalArgumentException
              || e instanceof java.io.FileNotFoundException
              || e instanceof io.changelake.schema.UnsupportedTableException
              || e instanceof io.changelake.table.SchemaConflictException) {
            cmd.getErr().println("error: " + e.getMessage());
            return 2;
          }
          throw e;
        });
    return commandLine.execute(args);
  }
}
