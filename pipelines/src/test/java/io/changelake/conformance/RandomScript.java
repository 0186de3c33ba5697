package io.changelake.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test fixture: a seeded random conformance script, in the shared format, with the producer and
 * merge engine to run it with. Everything comes from the seed, so a seed names its script.
 *
 * <p>Options are drawn among those that change how one key's rows combine: {@code bucket} 1 to 3,
 * {@code sequence.field} (one or two fields), {@code ignore-delete}, {@code
 * changelog-producer.row-deduplicate} (with or without ignore-fields), partial-update's {@code
 * fields.store_id.sequence-group} and {@code remove-record-on-delete}, every aggregate function
 * that takes a BIGINT on either column with and without {@code ignore-retract}, {@code
 * aggregation.remove-record-on-delete}, {@code full-compaction.delta-commits}, a tiny {@code
 * target-file-size} (files then move up a level without being rewritten) and a small {@code
 * write-buffer-size}; combinations Paimon rejects included, now and then. Rows go to a few keys,
 * with nulls, retractions of every kind and random COMMIT, COMPACT and COMPACT_FULL points; few
 * enough of them that Paimon never starts a compaction in the background whose timing would decide
 * its answer.
 *
 * @param seed the seed
 * @param producer the changelog producer
 * @param engine the merge engine
 * @param lines the script
 */
record RandomScript(long seed, String producer, String engine, List<String> lines) {

  static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
  static final List<String> ENGINES =
      List.of("deduplicate", "partial-update", "aggregation", "first-row");
  static final List<String> AGGREGATES =
      List.of(
          "sum", "product", "count", "min", "max", "last_value", "last_non_null_value",
          "first_value", "first_non_null_value");

  /** The script of a seed. */
  static RandomScript of(long seed) {
    // SplittableRandom mixes its seed: java.util.Random draws nearly the same first values from
    // consecutive seeds.
    SplittableRandom r = new SplittableRandom(seed);
    String engine = ENGINES.get(r.nextInt(ENGINES.size()));
    String producer = PRODUCERS.get(r.nextInt(PRODUCERS.size()));
    if (engine.equals("first-row")
        && (producer.equals("input") || producer.equals("full-compaction"))
        && r.nextInt(5) != 0) {
      // Rejected by Paimon: keep a few to check that we reject them too.
      producer = r.nextBoolean() ? "none" : "lookup";
    }
    List<String> lines = new ArrayList<>();
    lines.add("# seed " + seed + ": " + producer + " / " + engine);
    boolean retractionsAccepted = options(r, engine, producer, lines);
    // Commits that do not wait for compaction stop below five runs, where Paimon's compaction
    // would run in the background and its timing decide the layout.
    boolean waits = producer.equals("lookup") || engine.equals("first-row");
    // Retractions only where the engine takes them: changelake refuses one it cannot take when
    // it arrives (so that a pipeline can dead-letter it), Paimon when it meets another version
    // of its key, and not at all while it stays alone; EngineBadInputTest covers the refusal.
    actions(r, retractionsAccepted, waits ? 6 : 4, lines);
    return new RandomScript(seed, producer, engine, List.copyOf(lines));
  }

  /** Adds OPTION lines; returns whether the engine takes retractions with them. */
  private static boolean options(
      SplittableRandom r, String engine, String producer, List<String> lines) {
    if (r.nextInt(4) == 0) {
      option(lines, "bucket", Integer.toString(2 + r.nextInt(2)));
    }
    if (r.nextInt(5) == 0) {
      option(lines, "sequence.field", r.nextBoolean() ? "store_id" : "store_id,amount");
    }
    boolean ignoreDelete = r.nextInt(7) == 0;
    if (ignoreDelete) {
      option(lines, "ignore-delete", "true");
    }
    if ((producer.equals("lookup") || producer.equals("full-compaction")) && r.nextInt(4) == 0) {
      option(lines, "changelog-producer.row-deduplicate", "true");
      if (r.nextBoolean()) {
        option(lines, "changelog-producer.row-deduplicate-ignore-fields", "store_id");
      }
    }
    if (producer.equals("full-compaction") ? r.nextBoolean() : r.nextInt(15) == 0) {
      option(lines, "full-compaction.delta-commits", Integer.toString(1 + r.nextInt(3)));
    }
    if (r.nextInt(6) == 0) {
      option(lines, "target-file-size", "1 kb");
    }
    if (r.nextInt(10) == 0) {
      option(lines, "write-buffer-size", "256 kb");
    }
    boolean retractions = ignoreDelete;
    switch (engine) {
      case "deduplicate" -> retractions = true;
      case "partial-update" -> {
        if (r.nextInt(3) == 0) {
          option(lines, "partial-update.remove-record-on-delete", "true");
          retractions = true;
        }
        if (r.nextInt(4) == 0) {
          option(lines, "fields.store_id.sequence-group", "amount");
          retractions = true;
        }
      }
      case "aggregation" -> {
        retractions = true;
        for (String column : List.of("amount", "store_id")) {
          if (column.equals("amount") || r.nextInt(3) == 0) {
            String function = AGGREGATES.get(r.nextInt(AGGREGATES.size()));
            option(lines, "fields." + column + ".aggregate-function", function);
            boolean ignoreRetract = r.nextInt(4) == 0;
            if (ignoreRetract) {
              option(lines, "fields." + column + ".ignore-retract", "true");
            }
            retractions &= ignoreRetract || List.of("sum", "product", "last_value",
                "last_non_null_value").contains(function);
          }
        }
        if (r.nextInt(5) == 0) {
          option(lines, "aggregation.remove-record-on-delete", "true");
        }
      }
      default -> {}
    }
    return retractions;
  }

  private static void actions(
      SplittableRandom r, boolean retractions, int maxCommits, List<String> lines) {
    int keys = 1 + r.nextInt(4);
    int commits = 1 + r.nextInt(maxCommits);
    for (int c = 0; c < commits; c++) {
      // At least one write: Paimon checks some option conflicts only when it merges.
      int writes = c == 0 ? 1 + r.nextInt(6) : r.nextInt(7);
      for (int w = 0; w < writes; w++) {
        String kind;
        int dice = r.nextInt(20);
        if (!retractions || dice < 7) {
          kind = dice % 2 == 0 ? "I " : "UA";
        } else if (dice < 12) {
          kind = "UA";
        } else if (dice < 15) {
          kind = "UB";
        } else {
          kind = "D ";
        }
        long key = 1001 + r.nextInt(keys);
        String store = r.nextInt(8) == 0 ? "-" : Integer.toString(10 * (1 + r.nextInt(3)));
        String amount = r.nextInt(8) == 0 ? "-" : Integer.toString(1 + r.nextInt(9));
        lines.add(kind + " " + key + " " + store + " " + amount);
      }
      if (c < commits - 1 || r.nextInt(4) != 0) {
        int dice = r.nextInt(10);
        lines.add(dice < 7 ? "COMMIT" : dice < 9 ? "COMPACT" : "COMPACT_FULL");
      }
    }
  }

  private static void option(List<String> lines, String key, String value) {
    lines.add("OPTION " + key + "=" + value);
  }

  /** The script as a file of the shared format. */
  String text() {
    return String.join("\n", lines) + "\n";
  }

  /** The file-name stem of a kept case: {@code <name>__<producer>__<engine>}. */
  String caseName() {
    return "fuzz2_" + seed + "__" + producer + "__" + engine;
  }
}
