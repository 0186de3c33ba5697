package io.changelake.cli;

import java.io.PrintStream;

/**
 * Progress of a long step on stderr ("reading snapshot 12/40"), so that stdout stays the result a
 * script reads. Lines are spaced at least a second apart, plus the last, so a fast run prints one
 * line and a slow one shows it is alive.
 */
final class Progress {

  private static final long INTERVAL_NANOS = 1_000_000_000L;

  private final PrintStream err;
  private final String what;
  private final long total;
  private long lastPrint;

  /**
   * @param what the step, as in "reading snapshot"
   * @param total how many units the step has
   */
  Progress(String what, long total) {
    this.err = System.err;
    this.what = what;
    this.total = total;
    this.lastPrint = System.nanoTime();
  }

  /** Reports that unit {@code done} (counted from 1) is under way. */
  void at(long done) {
    long now = System.nanoTime();
    if (done == total || now - lastPrint >= INTERVAL_NANOS) {
      err.println(what + " " + done + "/" + total);
      lastPrint = now;
    }
  }
}
