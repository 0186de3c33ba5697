package io.changelake.cli;

import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.types.ChangeRow;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * Reads the changelog of a range of snapshots in order, as a streaming reader that started at the
 * first would see it, reporting progress on stderr. {@code changelog} prints what it reads and
 * {@code audit} replays it; both read it through here so they see the same rows.
 */
final class ChangelogWalk {

  private ChangelogWalk() {}

  /**
   * The latest snapshot id, the default end of a range.
   *
   * @throws IllegalArgumentException naming the table if it has no snapshot yet
   */
  static long latestId(Table table) throws IOException {
    return table
        .snapshots()
        .latestId()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
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
          "snapshot "
              + id
              + " of "
              + table.location()
              + " does not exist ("
              + (earliest.isEmpty()
                  ? "the table has no snapshot"
                  : "snapshots " + earliest.getAsLong() + " to " + latestId(table) + " exist")
              + "): choose one of those");
    }
    return table.snapshots().read(id);
  }

  /**
   * Walks snapshots {@code first} to {@code last} of the table {@code scan} reads (with the columns
   * it reads), both included; nothing when {@code first > last}.
   *
   * @throws io.changelake.table.SnapshotNotFoundException if a snapshot of the range has expired or
   *     is not committed yet
   */
  static void walk(ChangelogScan scan, long first, long last, ChangelogScan.ChangeVisitor visitor)
      throws IOException {
    Progress progress = new Progress("reading snapshot", last - first + 1);
    scan.walk(
        first,
        last,
        new ChangelogScan.ChangeVisitor() {
          @Override
          public void snapshot(Snapshot snapshot) throws IOException {
            progress.at(snapshot.id() - first + 1);
            visitor.snapshot(snapshot);
          }

          @Override
          public void change(ChangeRow change) throws IOException {
            visitor.change(change);
          }
        });
  }
}
