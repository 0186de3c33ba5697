package io.changelake.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One run of the command line with stdout and stderr captured.
 *
 * @param exitCode what {@link Changelake#execute} returned
 * @param out what went to stdout
 * @param err what went to stderr
 */
record CommandRun(int exitCode, String out, String err) {

  /** Runs {@code ./changelake args...} in this JVM. */
  static CommandRun of(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try (PrintStream capturedOut = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        PrintStream capturedErr = new PrintStream(errBytes, true, StandardCharsets.UTF_8)) {
      System.setOut(capturedOut);
      System.setErr(capturedErr);
      int exitCode = Changelake.execute(args);
      return new CommandRun(
          exitCode,
          outBytes.toString(StandardCharsets.UTF_8),
          errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
