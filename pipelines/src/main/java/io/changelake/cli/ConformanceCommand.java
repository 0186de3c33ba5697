package io.changelake.cli;

import io.changelake.conformance.ConformanceRun;
import io.changelake.conformance.ConformanceScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs one conformance script (see {@code shared/conformance/README.md}) and prints the changelog,
 * the derived aggregates and the final state in the reference driver's format.
 */
@Command(
    name = "conformance",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a conformance script against a table on local disk and prints its changelog, the"
          + " aggregate derived from it and the final state, in Paimon's reference format.",
      "Exits 1 when the table options are rejected."
    })
final class ConformanceCommand implements Callable<Integer> {

  @Option(names = "--script", required = true, paramLabel = "FILE", description = "The script.")
  Path script;

  @Option(
      names = "--producer",
      required = true,
      paramLabel = "P",
      description = "changelog-producer: none, input, lookup, full-compaction.")
  String producer;

  @Option(
      names = "--merge-engine",
      required = true,
      paramLabel = "E",
      description = "merge-engine: deduplicate, partial-update, aggregation, first-row.")
  String mergeEngine;

  @Option(
      names = "--option",
      paramLabel = "K=V",
      description = "A table option, applied after the script's (repeatable).")
  Map<String, String> options = new LinkedHashMap<>();

  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      description = "Write the table to DIR/db.db/orders and keep it (else a temporary folder).")
  Path warehouse;

  @Override
  public Integer call() throws Exception {
    ConformanceScript parsed = ConformanceScript.read(script);
    ConformanceRun run =
        new ConformanceRun(parsed, script.getFileName().toString(), producer, mergeEngine, options);
    Path root = warehouse != null ? warehouse : Files.createTempDirectory("changelake-conformance");
    try {
      run.run(root, System.out);
      return 0;
    } catch (IllegalArgumentException rejected) {
      System.out.println("ERROR " + rejected.getMessage());
      System.err.println("error: " + rejected.getMessage());
      return 1;
    } finally {
      if (warehouse == null) {
        TempFolders.delete(root);
      }
    }
  }
}
