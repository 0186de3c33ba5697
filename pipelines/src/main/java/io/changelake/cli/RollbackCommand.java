package io.changelake.cli;

import io.changelake.store.ObjectStore;
import io.changelake.table.Rollback;
import io.changelake.table.Table;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Rolls a table back to a snapshot or a tag. */
@Command(
    name = "rollback",
    mixinStandardHelpOptions = true,
    description = {
      "Puts the table back to an earlier snapshot or a tag, as Paimon's rollback_to: later"
          + " snapshots, the tags on them and the files only they used are removed; the next"
          + " commit takes the id after the target.",
      "Stop the table's writers first. A consumer that has read past the target is refused by"
          + " name; --drop-consumers-ahead deletes such consumers instead, and their readers must"
          + " restart from a full read."
    })
final class RollbackCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  static final class Target {
    @Option(
        names = "--to-snapshot",
        required = true,
        paramLabel = "ID",
        description = "The snapshot to go back to.")
    Long snapshot;

    @Option(
        names = "--to-tag",
        required = true,
        paramLabel = "NAME",
        description = "The tag to go back to (restored if its snapshot expired).")
    String tag;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Target target;

  @Option(
      names = "--drop-consumers-ahead",
      description = "Delete the consumers that have read past the target instead of refusing.")
  boolean dropConsumersAhead;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      Rollback.RolledBack done;
      try {
        done =
            target.snapshot != null
                ? table.rollback().toSnapshot(target.snapshot, dropConsumersAhead)
                : table.rollback().toTag(target.tag, dropConsumersAhead);
      } catch (IllegalStateException refused) {
        // A consumer has read past the target (or the table is not one changelake can act on).
        System.err.println("error: " + refused.getMessage());
        return 2;
      }
      out.println("rolled " + table.location() + " back to snapshot " + done.snapshotId());
      out.println(
          "removed snapshots "
              + done.removedSnapshots()
              + ", tags "
              + done.removedTags()
              + ", consumers "
              + done.droppedConsumers()
              + ", "
              + done.deletedFiles()
              + " files");
    }
    return 0;
  }
}
