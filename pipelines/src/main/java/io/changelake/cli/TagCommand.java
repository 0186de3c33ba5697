package io.changelake.cli;

import io.changelake.store.ObjectStore;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TagDeletion;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Lists, creates and deletes a table's tags. */
@Command(
    name = "tag",
    mixinStandardHelpOptions = true,
    description = {
      "Tags: named snapshots, in Paimon's layout (tag/tag-<name>), that stay readable after the"
          + " snapshot expires (read them with ReadRows.atTag, start a changelog at one with"
          + " ReadChangelog.fromTag; Paimon reads them with scan.tag-name).",
      "Without --create or --delete, lists the tags."
    })
final class TagCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(names = "--create", paramLabel = "NAME", description = "Tag a snapshot with NAME.")
  String create;

  @Option(
      names = "--snapshot",
      paramLabel = "ID",
      description = "The snapshot --create tags (default: the latest).")
  Long snapshot;

  @Option(
      names = "--delete",
      paramLabel = "NAME",
      description = "Remove the tag NAME; files only it held are left for clean-orphans.")
  String delete;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    if (create != null && delete != null) {
      throw new IllegalArgumentException("give --create or --delete, not both");
    }
    if (snapshot != null && create == null) {
      throw new IllegalArgumentException("--snapshot goes with --create NAME");
    }
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      if (create != null) {
        long id =
            snapshot != null
                ? snapshot
                : table
                    .snapshots()
                    .latestId()
                    .orElseThrow(
                        () ->
                            new IllegalArgumentException(
                                table.location() + " has no snapshot to tag yet: commit first"));
        table.tags().create(create, id);
        out.println("tagged snapshot " + id + " of " + table.location() + " as '" + create + "'");
      } else if (delete != null) {
        int files = new TagDeletion(table).delete(delete).size();
        out.println(
            "deleted tag '"
                + delete
                + "' of "
                + table.location()
                + " and "
                + files
                + " files only it kept");
      } else {
        Map<String, Snapshot> tags = table.tags().list();
        out.println("tags of " + table.location() + ": " + tags.size());
        for (Map.Entry<String, Snapshot> tag : tags.entrySet()) {
          Snapshot s = tag.getValue();
          out.println(
              "  "
                  + tag.getKey()
                  + "  snapshot "
                  + s.id()
                  + " ("
                  + s.commitKind()
                  + ", "
                  + s.totalRecordCount()
                  + " records, committed at "
                  + s.timeMillis()
                  + ")");
        }
      }
    }
    return 0;
  }
}
