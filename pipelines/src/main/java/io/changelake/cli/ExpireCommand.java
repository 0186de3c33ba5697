package io.changelake.cli;

import io.changelake.schema.RetentionOptions;
import io.changelake.schema.TableOptions;
import io.changelake.table.SnapshotExpiry;
import io.changelake.table.Table;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Expires old snapshots under the table's retention options. */
@Command(
    name = "expire",
    mixinStandardHelpOptions = true,
    description = {
      "Removes the snapshots the table's retention options let go, with the data, changelog and"
          + " manifest files only they use, and prints what it removed.",
      "Retention: snapshot.num-retained.min (default 10) are always kept, beyond"
          + " snapshot.num-retained.max the oldest go whatever their age, in between those older"
          + " than snapshot.time-retained (default 1 h) go, at most snapshot.expire.limit"
          + " (default 50) a run; never a snapshot a consumer has yet to read. Consumers idle"
          + " longer than consumer.expiration-time are removed first. Every commit runs the same"
          + " expiry (except on write-only tables); this command is for write-only tables and"
          + " tables no one writes."
    })
final class ExpireCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(names = "--dry-run", description = "Only list what would be removed.")
  boolean dryRun;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (RecordingStore store = new RecordingStore(location.openStore(), dryRun)) {
      Table table = location.open(store);
      TableOptions options = table.options();
      Map<String, Long> consumers = table.consumers().list();
      out.println("expire     " + table.location());
      out.println(
          "retention  snapshot.num-retained.min="
              + options.snapshotNumRetainedMin()
              + " snapshot.num-retained.max="
              + (options.snapshotNumRetainedMax() == Integer.MAX_VALUE
                  ? "unlimited"
                  : options.snapshotNumRetainedMax())
              + " snapshot.time-retained="
              + options.snapshotTimeRetained()
              + (consumers.isEmpty() ? "" : ", consumers " + consumers));
      System.err.println("expiring snapshots of " + table.location());
      SnapshotExpiry.Expired expired = table.newSnapshotExpiry().expire();
      if (expired.snapshots() == 0) {
        out.println("nothing to expire: every snapshot is still retained");
      } else {
        out.println(
            (dryRun ? "would expire" : "expired")
                + " snapshots "
                + expired.from()
                + " to "
                + (expired.until() - 1)
                + " ("
                + expired.snapshots()
                + "); snapshot "
                + expired.until()
                + " is the earliest "
                + (dryRun ? "then" : "now"));
      }
      if (expired.changelogs() > 0) {
        out.println(
            (dryRun ? "would expire " : "expired ")
                + expired.changelogs()
                + " long-lived changelogs (changelog.num-retained.min="
                + options.get(RetentionOptions.CHANGELOG_NUM_RETAINED_MIN)
                + " changelog.time-retained="
                + options.get(RetentionOptions.CHANGELOG_TIME_RETAINED)
                + ")");
      }
      MaintenanceReport.print(table, store.deleted(), dryRun, out);
    }
    return 0;
  }
}
