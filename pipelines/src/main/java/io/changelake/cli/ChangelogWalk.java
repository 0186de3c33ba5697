package io.changelake.cli;

import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.types.KeyValue;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads the changelog of a range of snapshots in order, as a streaming reader that started at the
 * first would see it, reporting progress on stderr. {@code changelog} prints what it reads and
 * {@code audit} replays it; both read it through here so they see the same rows.
 */
final class ChangelogWalk {

  /** What the walk hands over, in changelog order. */
  interface Visitor {
    /** A snapshot begins; its changes follow. */
    void snapshot(Snapshot snapshot) throws IOException;

    /** One change of the current snapshot. */
    void change(KeyValue change) throws IOException;
  }

  private ChangelogWalk() {}

  /**
   * The latest snapshot id, the default end of a range.
   *
   * @throws IllegalArgumentException naming the table if it has no snapshot yet
   */
  static long latestId(Table table) throws IOException {
    return table.snapshots().latestId().orElseThrow(() -> new IllegalArgumentException(
        "the table " + table.location() + " has no snapshot yet: commit to it first"));
  }

  /**
   * Reads a snapshot a user named.
   *
   * @throws IllegalArgumentException naming the snapshots that exist if it does not
   */
  static Snapshot snapshot(Table table, long id) throws IOException {
    if (!table.snapshots().exists(id)) {
      OptionalLong earliest = table.snapshots().earliestId();
      throw new IllegalArgumentException(
          "snapshot " + id + " of " + table.location() + " does not exist ("
              + (earliest.isEmpty()
                  ? "the table has no snapshot"
                  : "snapshots " + earliest.getAsLong() + " to " + latestId(table) + " exist")
              + "): choose one of those");
    }
    return table.snapshots().read(id);
  }

  /**
   * Walks snapshots {@code first} to {@code last}, both included; nothing when {@code first >
   * last}.
   *
   * @throws io.changelake.table.SnapshotNotFoundException if a snapshot of the range has expired
   *     or is not committed yet
   */
  static void walk(Table table, long first, long last, Visitor visitor) throws IOException {
    ChangelogScan scan = table.newChangelogScan();
    Progress progress = new Progress("reading snapshot", last - first + 1);
    for (long id = first; id <= last; id++) {
      progress.at(id - first + 1);
      // Planning first: it names an expired or future snapshot, where a bare read names a file.
      List<ChangelogTask> tasks = scan.changes(id);
      visitor.snapshot(table.snapshots().read(id));
      for (ChangelogTask task : tasks) {
        try (ChangelogScan.ChangelogReader changes = scan.read(task)) {
          while (changes.hasNext()) {
            visitor.change(changes.next());
          }
        }
      }
    }
  }
}
