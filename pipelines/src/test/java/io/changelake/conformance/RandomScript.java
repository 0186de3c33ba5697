package io.changelake.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Test fixture: a seeded random conformance script, in the shared format, with the producer and
 * merge engine to run it with. Everything comes from the seed, so a seed names its script.
 *
 * <p>The table: the shared {@code orders(order_id, store_id, amount)}, now and then with the
 * columns {@code note STRING} and {@code flag BOOLEAN} (most aggregation tables), with a partition
 * column {@code region} (two partitions), and one seed in four with a second primary-key column,
 * {@code shard BIGINT} or {@code tag STRING} ({@link ConformanceScript} describes the COLUMN
 * lines).
 *
 * <p>Options are drawn among those that change how one key's rows combine: {@code bucket} 1 to 3,
 * {@code sequence.field} (one or two fields), {@code ignore-delete}, {@code
 * changelog-producer.row-deduplicate} (with or without ignore-fields), partial-update's {@code
 * fields.store_id.sequence-group} and {@code remove-record-on-delete}, every aggregate function of
 * Paimon 1.3.1 whose column type changelake has ({@link #AGGREGATES}: on BIGINT, STRING and
 * BOOLEAN, {@code fields.note.list-agg-delimiter}, {@code fields.default-aggregate-function}) with
 * and without {@code ignore-retract}, {@code aggregation.remove-record-on-delete}, {@code
 * full-compaction.delta-commits}, {@code lookup-wait=false} for lookup and first-row tables, a tiny
 * {@code target-file-size} (files then move up a level without being rewritten) and a tiny {@code
 * write-buffer-size} that spills ({@link #TINY_WRITE_BUFFER}, with the commits of many rows it
 * needs), a tiny {@code lookup.cache-max-memory-size} ({@link #TINY_LOOKUP_CACHE}: lookup copies
 * spill to disk, where a roomy cache holds them in memory); combinations Paimon rejects included,
 * now and then ({@link #MISFITS}: a function on a column type it does not take, {@code count},
 * which Paimon 1.3.1 does not have). Rows go to a few keys, with nulls, retractions of every kind
 * and random COMMIT, COMPACT and COMPACT_FULL points; few enough of them that Paimon never starts a
 * compaction in the background whose timing would decide its answer.
 *
 * <p>Not drawn: the functions whose column types changelake does not have (collect, merge_map,
 * nested_update on ARRAY and MAP; rbm32, rbm64, hll_sketch, theta_sketch on serialized sketches),
 * which changelake refuses by name; min and max on a BOOLEAN, which Paimon takes and fails on at
 * the first two non-null values, and changelake refuses before any write; and a tiny {@code
 * write-buffer-size} with {@code write-buffer-spillable=false}, where the buffer flushes when full
 * and where it is full depends on how each side counts memory (Paimon: binary rows in pages), which
 * is not part of the format.
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

  /** The aggregate functions of Paimon 1.3.1 that take a column type, per type. */
  static final Map<String, List<String>> AGGREGATES =
      Map.of(
          "BIGINT",
          List.of(
              "sum",
              "product",
              "min",
              "max",
              "last_value",
              "last_non_null_value",
              "first_value",
              "first_non_null_value",
              "first_not_null_value"),
          "STRING",
          List.of(
              "listagg",
              "min",
              "max",
              "last_value",
              "last_non_null_value",
              "first_value",
              "first_non_null_value",
              "first_not_null_value"),
          "BOOLEAN",
          List.of(
              "bool_and",
              "bool_or",
              "last_value",
              "last_non_null_value",
              "first_value",
              "first_non_null_value",
              "first_not_null_value"));

  /** Functions Paimon 1.3.1 rejects on a column type (count it does not have), drawn rarely. */
  static final Map<String, List<String>> MISFITS =
      Map.of(
          "BIGINT", List.of("count", "listagg", "bool_and"),
          "STRING", List.of("sum", "bool_or"),
          "BOOLEAN", List.of("product", "listagg"));

  /** Functions that take a retraction without {@code ignore-retract}. */
  private static final Set<String> RETRACTING =
      Set.of("sum", "product", "last_value", "last_non_null_value");

  /** The write-buffer size, and Paimon's page size, of a buffer that spills every few rows. */
  static final String TINY_WRITE_BUFFER = "1536 b";

  static final String TINY_PAGE = "512 b";

  /**
   * A lookup cache smaller than one block with its index: every lookup copy is spilled to local
   * disk as it is built, and read back from there.
   */
  static final String TINY_LOOKUP_CACHE = "1 kb";

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
    List<String> columns = new ArrayList<>(List.of("store_id", "amount"));
    if (engine.equals("aggregation") ? r.nextInt(3) != 0 : r.nextInt(4) == 0) {
      lines.add("COLUMN note STRING");
      lines.add("COLUMN flag BOOLEAN");
      columns.addAll(List.of("note", "flag"));
    }
    boolean partitioned = r.nextInt(3) == 0;
    if (partitioned) {
      lines.add("COLUMN region BIGINT PARTITION");
    }
    boolean tinyBuffer = r.nextInt(6) == 0;
    boolean retractionsAccepted = options(r, engine, producer, columns, tinyBuffer, lines);
    // Drawn apart from the script's stream, so that every seed keeps the script it had before.
    if (new SplittableRandom(~seed).nextInt(4) == 0) {
      option(lines, "lookup.cache-max-memory-size", TINY_LOOKUP_CACHE);
    }
    // Commits that do not wait for compaction stop below five runs, where Paimon's compaction
    // would run in the background and its timing decide the layout.
    boolean waits = producer.equals("lookup") || engine.equals("first-row");
    // Retractions only where the engine takes them: changelake refuses one it cannot take when
    // it arrives (so that a pipeline can dead-letter it), Paimon when it meets another version
    // of its key, and not at all while it stays alone; EngineBadInputTest covers the refusal.
    // A tiny buffer gets commits of many rows, so that it spills.
    actions(
        r,
        retractionsAccepted,
        lines.contains("OPTION ignore-delete=true"),
        waits ? 6 : 4,
        tinyBuffer ? 80 : 6,
        columns.size() > 2,
        partitioned,
        lines);
    // Drawn apart from the script's stream too, and added to a finished script: every seed keeps
    // the draws it had before, and one in four gains a key column.
    SplittableRandom keyDraws = new SplittableRandom(seed ^ 0x6b6579L);
    if (keyDraws.nextInt(4) == 0) {
      addKeyColumn(keyDraws, lines);
    }
    return new RandomScript(seed, producer, engine, List.copyOf(lines));
  }

  /**
   * Makes the primary key {@code (order_id, <a BIGINT or STRING column>)}, the column's values a
   * few, drawn per write: each order_id then stands for up to three keys, which the data files key
   * by both columns, ordered by the second where the first ties.
   */
  private static void addKeyColumn(SplittableRandom r, List<String> lines) {
    boolean text = r.nextBoolean();
    List<String> values = text ? List.of("a", "ab", "b") : List.of("-7", "0", "5");
    int at = 1;
    while (at < lines.size()
        && (lines.get(at).startsWith("OPTION") || lines.get(at).startsWith("COLUMN"))) {
      at++;
    }
    lines.add(at, text ? "COLUMN tag STRING KEY" : "COLUMN shard BIGINT KEY");
    for (int i = at + 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (!line.startsWith("COMMIT") && !line.startsWith("COMPACT")) {
        lines.set(i, line + " " + values.get(r.nextInt(values.size())));
      }
    }
  }

  /** Whether the script's table has a buffer that spills every few rows. */
  boolean spills() {
    return lines.contains("OPTION write-buffer-size=" + TINY_WRITE_BUFFER);
  }

  /** Adds OPTION lines; returns whether the engine takes retractions with them. */
  private static boolean options(
      SplittableRandom r,
      String engine,
      String producer,
      List<String> columns,
      boolean tinyBuffer,
      List<String> lines) {
    // One draw of eight: a fixed bucket count for two (the draws of earlier versions of this
    // generator, which drew one of four), dynamic bucket mode for one, with a target of a few
    // keys a bucket so that the keys spread over buckets opened as they come.
    int buckets = r.nextInt(8);
    if (buckets % 4 == 0) {
      option(lines, "bucket", Integer.toString(2 + r.nextInt(2)));
    } else if (buckets == 1) {
      option(lines, "bucket", "-1");
      option(lines, "dynamic-bucket.target-row-num", Integer.toString(1 + r.nextInt(3)));
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
    if ((producer.equals("lookup") || engine.equals("first-row")) && r.nextInt(4) == 0) {
      option(lines, "lookup-wait", "false");
    }
    if (r.nextInt(6) == 0) {
      option(lines, "target-file-size", "1 kb");
    }
    if (tinyBuffer) {
      // Paimon's buffer needs three pages at least: of 512 bytes, they hold a few rows each.
      option(lines, "write-buffer-size", TINY_WRITE_BUFFER);
      option(lines, "page-size", TINY_PAGE);
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
      case "aggregation" -> retractions = aggregateOptions(r, columns, lines);
      default -> {}
    }
    return retractions;
  }

  /** Adds the aggregation engine's options; returns whether it takes retractions with them. */
  private static boolean aggregateOptions(
      SplittableRandom r, List<String> columns, List<String> lines) {
    String defaultFunction = "last_non_null_value";
    if (r.nextInt(8) == 0) {
      // Functions that take every column type but BOOLEAN's min and max.
      List<String> anyType =
          List.of("last_value", "last_non_null_value", "first_value", "first_non_null_value");
      defaultFunction = anyType.get(r.nextInt(anyType.size()));
      option(lines, "fields.default-aggregate-function", defaultFunction);
    }
    boolean retractions = true;
    for (String column : columns) {
      // The conformance table's default: amount sums.
      String function = column.equals("amount") ? "sum" : defaultFunction;
      if (column.equals("amount") || r.nextBoolean()) {
        List<String> functions = (r.nextInt(15) == 0 ? MISFITS : AGGREGATES).get(typeOf(column));
        function = functions.get(r.nextInt(functions.size()));
        option(lines, "fields." + column + ".aggregate-function", function);
        if (function.equals("listagg") && r.nextBoolean()) {
          option(lines, "fields." + column + ".list-agg-delimiter", r.nextBoolean() ? ";" : "|");
        }
      }
      boolean ignoreRetract = r.nextInt(4) == 0;
      if (ignoreRetract) {
        option(lines, "fields." + column + ".ignore-retract", "true");
      }
      retractions &= ignoreRetract || RETRACTING.contains(function);
    }
    if (r.nextInt(5) == 0) {
      option(lines, "aggregation.remove-record-on-delete", "true");
    }
    return retractions;
  }

  private static String typeOf(String column) {
    return switch (column) {
      case "note" -> "STRING";
      case "flag" -> "BOOLEAN";
      default -> "BIGINT";
    };
  }

  private static void actions(
      SplittableRandom r,
      boolean retractions,
      boolean retractionsDropped,
      int maxCommits,
      int maxWrites,
      boolean extras,
      boolean partitioned,
      List<String> lines) {
    int keys = 1 + r.nextInt(4);
    int commits = 1 + r.nextInt(maxCommits);
    for (int c = 0; c < commits; c++) {
      // At least one write: Paimon checks some option conflicts only when it merges.
      int writes = c == 0 ? 1 + r.nextInt(maxWrites) : r.nextInt(maxWrites + 1);
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
        if (c == 0 && w == 0 && retractionsDropped) {
          // The write that reaches the merge: ignore-delete drops a retraction before it.
          kind = "I ";
        }
        long key = 1001 + r.nextInt(keys);
        String store = r.nextInt(8) == 0 ? "-" : Integer.toString(10 * (1 + r.nextInt(3)));
        String amount = r.nextInt(8) == 0 ? "-" : Integer.toString(1 + r.nextInt(9));
        StringBuilder line = new StringBuilder(kind + " " + key + " " + store + " " + amount);
        if (extras) {
          line.append(' ')
              .append(r.nextInt(8) == 0 ? "-" : List.of("a", "b", "cc").get(r.nextInt(3)));
          line.append(' ').append(r.nextInt(8) == 0 ? "-" : Boolean.toString(r.nextBoolean()));
        }
        if (partitioned) {
          line.append(' ').append(1 + r.nextInt(2));
        }
        lines.add(line.toString());
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
    return "fuzz3_" + seed + "__" + producer + "__" + engine;
  }
}
