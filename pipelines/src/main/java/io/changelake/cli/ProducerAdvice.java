package io.changelake.cli;

import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rules of the README's choice of a changelog producer, applied to what is known of a table:
 * its merge engine, what recent commits wrote, its key count, and what the user says of the input,
 * the downstream and the latency target.
 */
final class ProducerAdvice {

  /**
   * Keys from which a lookup per written key stops being cheap: the default 256 MB lookup cache
   * holds a few million rows, so beyond tens of millions most lookups go to local disk or to the
   * files themselves, while a full compaction's cost does not depend on the write rate.
   */
  static final long HUGE_KEY_COUNT = 50_000_000L;

  /** A latency target from which "minutes are fine" holds. */
  static final long MINUTES_SECONDS = 60;

  /** The fewest commits between full compactions on a busy table: 1 or 2 rewrite it too often. */
  static final int MIN_DELTA_COMMITS = 3;

  /**
   * What the advice starts from.
   *
   * @param current the table's producer
   * @param engine the table's merge engine
   * @param sample what recent commits wrote, or null for a table without snapshots
   * @param keyCount records in the live files, an upper bound of the key count
   * @param latencySeconds how soon downstream needs a change, or null if not given
   * @param inputHasBeforeImages the user says the input carries -U before each +U
   * @param downstreamUpsertsOnly the user says every consumer only upserts by primary key
   */
  record Facts(
      ChangelogProducer current,
      MergeEngine engine,
      WriteSample sample,
      long keyCount,
      Long latencySeconds,
      boolean inputHasBeforeImages,
      boolean downstreamUpsertsOnly) {}

  /**
   * A recommendation.
   *
   * @param producer the producer to use
   * @param deltaCommits full-compaction.delta-commits for full-compaction, else null
   * @param reasons why, in the order the rules were applied
   */
  record Advice(ChangelogProducer producer, Integer deltaCommits, List<String> reasons) {
    Advice {
      reasons = List.copyOf(reasons);
    }

    /** The table options to set, as {@code key=value} words. */
    String options() {
      return "changelog-producer="
          + producer
          + (deltaCommits == null ? "" : " full-compaction.delta-commits=" + deltaCommits);
    }
  }

  private ProducerAdvice() {}

  /** Applies the rules. */
  static Advice advise(Facts facts) {
    List<String> why = new ArrayList<>();
    WriteSample sample = facts.sample();
    boolean minutesAreFine =
        facts.latencySeconds() != null && facts.latencySeconds() >= MINUTES_SECONDS;
    boolean hugeKeyCount = facts.keyCount() >= HUGE_KEY_COUNT;

    if (facts.engine() != MergeEngine.DEDUPLICATE) {
      why.add(
          "merge-engine "
              + facts.engine()
              + " stores raw inputs: only a producer that merges"
              + " (lookup, full-compaction) publishes the rows the table holds; none and input"
              + " publish the inputs");
      if (facts.engine() == MergeEngine.FIRST_ROW) {
        why.add("first-row rejects input and full-compaction, so lookup is the one choice");
        return conclude(facts, ChangelogProducer.LOOKUP, null, why);
      }
      return minutesAreFine && hugeKeyCount ? fullCompaction(facts, why) : lookup(facts, why);
    }
    if (facts.downstreamUpsertsOnly()) {
      why.add(
          "downstream only upserts by primary key: it needs no retractions, so none is"
              + " enough");
      return conclude(facts, ChangelogProducer.NONE, null, why);
    }
    if (sample == null || sample.writes() == 0) {
      why.add("no writes to measure: the advice rests on the options and flags alone");
    } else if (sample.updates() == 0 && sample.deletes() == 0) {
      why.add(
          "no update or delete in "
              + sample.writes()
              + " sampled writes: every change is a"
              + " new key, which none publishes correctly as +I (advise again if updates start)");
      return conclude(facts, ChangelogProducer.NONE, null, why);
    } else {
      why.add(
          String.format(
              Locale.ROOT,
              "%.1f%% of %d sampled writes update a key already written (%d deletes): a downstream"
                  + " aggregate needs their retractions, which none never emits (100 then 80 sums"
                  + " to 180)",
              100 * sample.updateRatio(),
              sample.writes(),
              sample.deletes()));
    }
    if (facts.current() == ChangelogProducer.INPUT
        && sample != null
        && sample.updates() > 0
        && sample.beforeImages() == 0) {
      why.add(
          "warning: the table uses input, but its changelog has "
              + sample.updates()
              + " updates and no -U: consumers get no retractions today");
    }
    boolean beforeImagesSeen =
        facts.current() == ChangelogProducer.INPUT && sample != null && sample.beforeImages() > 0;
    if (facts.inputHasBeforeImages() || beforeImagesSeen) {
      why.add(
          "the input carries complete -U/+U ("
              + (beforeImagesSeen ? sample.beforeImages() + " -U rows in the sample" : "as given")
              + "): input publishes it as it is, with no lookup and no extra compaction");
      return conclude(facts, ChangelogProducer.INPUT, null, why);
    }
    why.add(
        "the input is taken as upsert-only (no --input-has-before-images): input would echo"
            + " the upserts without a single -U");
    return minutesAreFine && hugeKeyCount ? fullCompaction(facts, why) : lookup(facts, why);
  }

  private static Advice lookup(Facts facts, List<String> why) {
    if (facts.latencySeconds() == null) {
      why.add(
          "no --latency-seconds: retractions are taken to be wanted within seconds, which"
              + " lookup gives at every commit");
    } else if (facts.latencySeconds() < MINUTES_SECONDS) {
      why.add(
          "a "
              + facts.latencySeconds()
              + " s latency target needs retractions within"
              + " seconds: lookup gives them at every commit");
    } else {
      why.add(
          String.format(
              Locale.ROOT,
              "up to %,d keys, below %,d: a lookup per written key stays cheap, and changes arrive"
                  + " at every commit",
              facts.keyCount(),
              HUGE_KEY_COUNT));
    }
    why.add("watch lookup cost, the local cache (lookup.cache-max-memory-size) and commit time");
    return conclude(facts, ChangelogProducer.LOOKUP, null, why);
  }

  private static Advice fullCompaction(Facts facts, List<String> why) {
    Long gap = facts.sample() == null ? null : facts.sample().medianCommitGapMillis();
    int deltaCommits = MIN_DELTA_COMMITS;
    if (gap == null || gap == 0) {
      why.add(
          "commit interval unknown: delta-commits x commit interval must stay within the "
              + facts.latencySeconds()
              + " s target");
    } else {
      deltaCommits = (int) Math.max(MIN_DELTA_COMMITS, facts.latencySeconds() * 1000 / gap);
    }
    why.add(
        String.format(
            Locale.ROOT,
            "a %d s latency target and up to %,d keys (huge from %,d): full-compaction rewrites each"
                + " bucket once per %d commits instead of looking up every written key; never 1 or 2"
                + " on a busy table",
            facts.latencySeconds(),
            facts.keyCount(),
            HUGE_KEY_COUNT,
            deltaCommits));
    return conclude(facts, ChangelogProducer.FULL_COMPACTION, deltaCommits, why);
  }

  private static Advice conclude(
      Facts facts, ChangelogProducer producer, Integer deltaCommits, List<String> why) {
    why.add(
        facts.current() == producer
            ? "the table already uses " + producer
            : "the table uses " + facts.current() + ": set changelog-producer=" + producer);
    return new Advice(producer, deltaCommits, why);
  }
}
