package io.changelake.cli;

import io.changelake.schema.TableOptions;
import io.changelake.store.ObjectStore;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Recommends a changelog producer for a table, with the reasoning. */
@Command(
    name = "advise",
    mixinStandardHelpOptions = true,
    description = {
      "Recommends a changelog producer from the table's merge engine, the update ratio of its"
          + " recent commits, its key count and your latency target, and prints the reasoning.",
      "Ends with: RECOMMEND changelog-producer=P [full-compaction.delta-commits=N]"
    })
final class AdviseCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(
      names = "--latency-seconds",
      paramLabel = "N",
      description = "How soon downstream needs a change, in seconds (default: within seconds).")
  Long latencySeconds;

  @Option(
      names = "--input-has-before-images",
      description = "The input carries a -U before every +U, as database CDC does.")
  boolean inputHasBeforeImages;

  @Option(
      names = "--downstream-upserts-only",
      description =
          "Every consumer only upserts rows by primary key (no aggregates on other" + " columns).")
  boolean downstreamUpsertsOnly;

  @Option(
      names = "--sample-snapshots",
      paramLabel = "N",
      defaultValue = "10",
      description = "Measure the writes of the N newest snapshots (default: ${DEFAULT-VALUE}).")
  int sampleSnapshots;

  @Override
  public Integer call() throws Exception {
    if (sampleSnapshots < 1) {
      throw new IllegalArgumentException(
          "--sample-snapshots " + sampleSnapshots + " samples nothing: give 1 or more");
    }
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      TableOptions options = table.options();
      out.println(
          "advise     "
              + table.location()
              + " (changelog-producer "
              + options.changelogProducer()
              + ", merge-engine "
              + options.mergeEngine()
              + ")");
      Optional<Snapshot> latest = table.snapshots().latest();
      WriteSample sample = null;
      long keyCount = 0;
      if (latest.isEmpty()) {
        out.println("sample     none: the table has no snapshot");
      } else {
        long last = latest.get().id();
        long first = Math.max(table.snapshots().earliestId().orElse(1), last - sampleSnapshots + 1);
        sample = WriteSample.measure(table, first, last);
        keyCount = latest.get().totalRecordCount();
        out.printf(
            Locale.ROOT,
            "sample     snapshots %d to %d: %d writes, %d updates (%.1f%%), %d deletes, %d -U%n",
            first,
            last,
            sample.writes(),
            sample.updates(),
            100 * sample.updateRatio(),
            sample.deletes(),
            sample.beforeImages());
        Long gap = sample.medianCommitGapMillis();
        out.println(
            "commits    "
                + (gap == null
                    ? "one in the sample: interval unknown"
                    : String.format(Locale.ROOT, "every %.1f s (median)", gap / 1000.0)));
        out.printf(
            Locale.ROOT,
            "keys       at most %,d (records in the live files of snapshot %d, before merging)%n",
            keyCount,
            last);
      }
      out.println("latency    " + (latencySeconds == null ? "not given" : latencySeconds + " s"));
      ProducerAdvice.Advice advice =
          ProducerAdvice.advise(
              new ProducerAdvice.Facts(
                  options.changelogProducer(),
                  options.mergeEngine(),
                  sample,
                  keyCount,
                  latencySeconds,
                  inputHasBeforeImages,
                  downstreamUpsertsOnly));
      out.println("reasoning");
      advice.reasons().forEach(reason -> out.println("  - " + reason));
      out.println("RECOMMEND " + advice.options());
    }
    return 0;
  }
}
