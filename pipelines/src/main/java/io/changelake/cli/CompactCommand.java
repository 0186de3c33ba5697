package io.changelake.cli;

import io.changelake.store.ObjectStore;
import io.changelake.table.DedicatedCompaction;
import io.changelake.table.Table;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Compacts a table's buckets in a job of its own: dedicated compaction for write-only tables. */
@Command(
    name = "compact",
    mixinStandardHelpOptions = true,
    description = {
      "Compacts the table's buckets as Paimon's dedicated compaction job does, under its own"
          + " commit user ("
          + DedicatedCompaction.COMMIT_USER
          + "), then expires snapshots under"
          + " the retention options.",
      "For write-only tables, whose writers never compact: they may keep writing meanwhile."
          + " The compaction produces the lookup or full-compaction changelog."
    })
final class CompactCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(names = "--full", description = "A full compaction: every bucket into its top level.")
  boolean full;

  @Option(
      names = "--partition",
      paramLabel = "K=V[/K2=V2]",
      description = "Only the partitions whose folder starts with this (default: all).")
  String partition;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      DedicatedCompaction.Compacted done =
          table.newCompaction().run(full, partition == null ? "" : partition);
      out.println(
          (full ? "full" : "normal")
              + " compaction of "
              + done.buckets()
              + " buckets of "
              + table.location()
              + ": "
              + (done.snapshots().isEmpty()
                  ? "nothing to compact"
                  : "snapshots "
                      + done.snapshots().stream()
                          .map(s -> s.id() + " (" + s.commitKind() + ")")
                          .toList()));
      out.println("expired " + done.expired().snapshots() + " snapshots");
    }
    return 0;
  }
}
