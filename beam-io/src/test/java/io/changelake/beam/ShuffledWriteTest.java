package io.changelake.beam;

import static org.junit.Assert.assertEquals;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The ordering contract under a reordering runner: for every merge engine and changelog producer, a
 * write of the same changes delivered in random order ({@link #SEEDS}, {@link ShuffledInput})
 * leaves the same table and the same changelog replay as the write of the ordered changes, and the
 * seed story (order 1001 of store 10 corrected from 100 to 80) still sums to 80 downstream.
 *
 * <p>Every table but first-row orders a key's versions by the column {@code seq} ({@code
 * withSequenceField("seq")}); first-row cannot have a sequence field (the first to arrive wins), so
 * its input repeats each key's row unchanged, as an at-least-once source redelivers it, and only
 * then is its result order-free.
 *
 * <p>What "the same changelog replay" means: within one commit, folding the changelog (+I/+U put,
 * -U/-D remove) gives the same rows. Across commits, a change older than one already committed
 * lands in a later snapshot: lookup and full-compaction still replay to the same rows (they emit
 * the merged state); input holds exactly the input rows, so the same multiset (any sum of signed
 * deltas agrees); input and none of deduplicate and first-row replay to the same rows when the
 * replay keeps, per key, the change with the highest {@code seq}, as a consumer of a sequenced
 * table must.
 */
public class ShuffledWriteTest {

  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  static final Schema SCHEMA =
      Schema.builder()
          .addInt64Field("order_id")
          .addNullableField("store_id", Schema.FieldType.INT64)
          .addNullableField("amount", Schema.FieldType.INT64)
          .addInt64Field("seq")
          .addStringField("op")
          .build();

  private static final ShuffledInput.Changes CHANGES =
      new ShuffledInput.Changes(
          SCHEMA,
          r -> r.getInt64("order_id"),
          r -> r.getInt64("seq"),
          r -> r.getString("op").equals("-D"));

  /**
   * The shuffle seeds: one in the default build (a run of all 14 tables takes about 25 s), more
   * with {@code -Dchangelake.shuffleSeeds=11,12,13,...}.
   */
  static final List<Long> SEEDS =
      Arrays.stream(System.getProperty("changelake.shuffleSeeds", "11").split(","))
          .map(String::trim)
          .map(Long::valueOf)
          .toList();

  private static final List<String> PRODUCERS =
      List.of("none", "input", "lookup", "full-compaction");
  private static final Duration INTERVAL = Duration.standardSeconds(10);
  private static final int COMMITS = 4;

  /** A merge engine, its table options and an ordered change stream it is fed. */
  enum Engine {
    DEDUPLICATE(Map.of()),
    PARTIAL_UPDATE(Map.of("merge-engine", "partial-update")),
    AGGREGATION(Map.of("merge-engine", "aggregation", "fields.amount.aggregate-function", "sum")),
    FIRST_ROW(Map.of("merge-engine", "first-row"));

    final Map<String, String> options;

    Engine(Map<String, String> options) {
      this.options = options;
    }

    boolean sequenced() {
      return this != FIRST_ROW;
    }

    /**
     * The changes in the order they happened; {@code seq} grows with each. Aggregation corrects a
     * key with -U/+U within one commit, and with signed deltas across commits (a retraction that is
     * a key's newest version at a compaction resets its last_value columns, the sequence field
     * among them, as Paimon's retract does).
     */
    List<Row> changes(boolean acrossCommits) {
      Random random = new Random(7);
      List<Row> rows = new ArrayList<>();
      Map<Long, Row> state = new HashMap<>();
      if (this == FIRST_ROW) {
        for (long key = 0; key < 40; key++) {
          long store = random.nextInt(4);
          long amount = random.nextInt(1000);
          for (int copy = random.nextInt(3); copy >= 0; copy--) {
            rows.add(row("+I", key, store, amount, key * 10));
          }
        }
        return rows;
      }
      rows.add(row("+I", 1001, 10L, 100L, 0));
      for (int event = 1; event <= 150; event++) {
        long seq = event * 10L;
        if (event == 75) {
          story(rows, seq, acrossCommits);
          continue;
        }
        long key = random.nextInt(25);
        Row old = state.get(key);
        long amount = random.nextInt(1000);
        switch (this) {
          case DEDUPLICATE:
            long store = random.nextInt(4);
            if (old == null) {
              state.put(key, add(rows, row("+I", key, store, amount, seq)));
            } else if (random.nextInt(4) == 0) {
              rows.add(row("-D", key, old.getInt64("store_id"), old.getInt64("amount"), seq));
              state.remove(key);
            } else {
              rows.add(row("-U", key, old.getInt64("store_id"), old.getInt64("amount"), seq));
              state.put(key, add(rows, row("+U", key, store, amount, seq + 1)));
            }
            break;
          case PARTIAL_UPDATE:
            boolean storeOnly = random.nextInt(3) == 0;
            boolean amountOnly = !storeOnly && random.nextInt(3) == 0;
            rows.add(
                row(
                    "+I",
                    key,
                    amountOnly ? null : (long) random.nextInt(4),
                    storeOnly ? null : amount,
                    seq));
            break;
          case AGGREGATION:
            if (acrossCommits) {
              rows.add(row("+I", key, key % 4, amount - 500, seq));
            } else if (old == null || random.nextInt(3) > 0) {
              state.put(key, add(rows, row("+I", key, key % 4, amount, seq)));
            } else {
              rows.add(row("-U", key, key % 4, old.getInt64("amount"), seq));
              state.put(key, add(rows, row("+U", key, key % 4, amount, seq + 1)));
            }
            break;
          default:
            throw new AssertionError(this);
        }
      }
      return rows;
    }

    /** Order 1001 of store 10 is corrected from 100 to 80, as this engine is told it. */
    private void story(List<Row> rows, long seq, boolean acrossCommits) {
      if (this == PARTIAL_UPDATE) {
        rows.add(row("+I", 1001, null, 80L, seq));
      } else if (this == AGGREGATION && acrossCommits) {
        rows.add(row("+I", 1001, 10L, -20L, seq));
      } else {
        rows.add(row("-U", 1001, 10L, 100L, seq));
        rows.add(row("+U", 1001, 10L, 80L, seq + 1));
      }
    }

    private static Row add(List<Row> rows, Row row) {
      rows.add(row);
      return row;
    }
  }

  static Row row(String op, long key, Long store, Long amount, long seq) {
    return Row.withSchema(SCHEMA).addValues(key, store, amount, seq, op).build();
  }

  /** One table of a run: an engine with a producer. */
  record Case(Engine engine, String producer) {
    String table() {
      return engine.name().toLowerCase() + "_" + producer.replace('-', '_');
    }

    Map<String, String> options() {
      Map<String, String> options = new LinkedHashMap<>(engine.options);
      options.put("changelog-producer", producer);
      if (producer.equals("full-compaction")) {
        options.put("full-compaction.delta-commits", "1");
      }
      return options;
    }

    /** Whether the downstream SUM of store 10 over this table's changelog is the story's 80. */
    boolean sumsTheStory() {
      return engine != Engine.FIRST_ROW
          && (producer.equals("lookup")
              || producer.equals("full-compaction")
              || (producer.equals("input") && engine != Engine.PARTIAL_UPDATE));
    }
  }

  /**
   * Every engine with every producer it takes (in a dynamic-bucket table, lookup and input only),
   * but partial-update across commits: its merged row keeps one sequence for all its columns, so a
   * column set by an older version merged in one commit outlives a newer version's merged in
   * another (Paimon's rule too). Across commits a partial-update table needs a sequence group per
   * column group ({@code fields.<seq>.sequence-group}), not one {@code sequence.field}.
   */
  static List<Case> cases(boolean acrossCommits, Map<String, String> buckets) {
    List<Case> cases = new ArrayList<>();
    for (Engine engine : Engine.values()) {
      if (acrossCommits && engine == Engine.PARTIAL_UPDATE) {
        continue;
      }
      for (String producer : PRODUCERS) {
        if (engine == Engine.FIRST_ROW
            && (producer.equals("input") || producer.equals("full-compaction"))) {
          continue; // refused for first-row, as by Paimon
        }
        if (buckets == DYNAMIC_BUCKETS && !producer.equals("lookup") && !producer.equals("input")) {
          continue; // the assigner is the same for every producer: two of them keep the run short
        }
        cases.add(new Case(engine, producer));
      }
    }
    return cases;
  }

  /** What a run left in one table. */
  record Outcome(
      List<String> rows,
      List<String> replay,
      List<String> sequencedReplay,
      List<String> changelog,
      long storyTotal) {}

  @Test
  public void shuffledWithinOneCommitEqualsOrdered() throws Exception {
    shuffledWithinOneCommitEqualsOrdered(FIXED_BUCKETS);
  }

  /**
   * As in a table of two buckets, in a dynamic-bucket table whose 26 keys fill buckets of 8 keys
   * opened by two assigners: the bucket-assigner stage gives the same keys the same buckets
   * whatever order their rows come in.
   */
  @Test
  public void shuffledWithinOneCommitEqualsOrderedInDynamicBucketTables() throws Exception {
    shuffledWithinOneCommitEqualsOrdered(DYNAMIC_BUCKETS);
  }

  @Test
  public void shuffledAcrossCommitsEqualsOrderedInDynamicBucketTables() throws Exception {
    shuffledAcrossCommitsEqualsOrdered(DYNAMIC_BUCKETS);
  }

  private static final Map<String, String> FIXED_BUCKETS = Map.of("bucket", "2");

  private static final Map<String, String> DYNAMIC_BUCKETS =
      Map.of(
          "bucket", "-1",
          "dynamic-bucket.target-row-num", "8",
          "dynamic-bucket.initial-buckets", "2");

  private void shuffledWithinOneCommitEqualsOrdered(Map<String, String> buckets) throws Exception {
    Map<Case, Outcome> ordered = run(null, false, buckets);
    for (long seed : SEEDS) {
      Map<Case, Outcome> shuffled = run(seed, false, buckets);
      for (Case c : cases(false, buckets)) {
        String what = c + " seed " + seed;
        Outcome expected = ordered.get(c);
        Outcome actual = shuffled.get(c);
        assertEquals(what + ": table", expected.rows(), actual.rows());
        if (c.producer().equals("input") && c.engine() != Engine.DEDUPLICATE) {
          // The changelog is the raw input, partial rows or deltas: the same rows, not a replay.
          assertEquals(what + ": changelog rows", expected.changelog(), actual.changelog());
        } else {
          assertEquals(what + ": changelog replay", expected.replay(), actual.replay());
          assertEquals(what + ": replay is the table", actual.rows(), actual.replay());
        }
        checkStory(c, what, actual);
      }
    }
  }

  @Test
  public void shuffledAcrossCommitsEqualsOrdered() throws Exception {
    shuffledAcrossCommitsEqualsOrdered(FIXED_BUCKETS);
  }

  private void shuffledAcrossCommitsEqualsOrdered(Map<String, String> buckets) throws Exception {
    Map<Case, Outcome> ordered = run(null, true, buckets);
    for (long seed : SEEDS) {
      Map<Case, Outcome> shuffled = run(seed, true, buckets);
      for (Case c : cases(true, buckets)) {
        String what = c + " seed " + seed + " over " + COMMITS + " commits";
        Outcome expected = ordered.get(c);
        Outcome actual = shuffled.get(c);
        assertEquals(what + ": table", expected.rows(), actual.rows());
        switch (c.producer()) {
          case "lookup":
          case "full-compaction":
            assertEquals(what + ": changelog replay", expected.replay(), actual.replay());
            assertEquals(what + ": replay is the table", actual.rows(), actual.replay());
            break;
          case "input":
            assertEquals(what + ": changelog rows", expected.changelog(), actual.changelog());
            break;
          default:
            break;
        }
        if (!c.producer().equals("lookup")
            && !c.producer().equals("full-compaction")
            && (c.engine() == Engine.DEDUPLICATE || c.engine() == Engine.FIRST_ROW)) {
          assertEquals(
              what + ": replay by seq", expected.sequencedReplay(), actual.sequencedReplay());
          assertEquals(
              what + ": replay by seq is the table", actual.rows(), actual.sequencedReplay());
        }
        checkStory(c, what, actual);
      }
    }
  }

  private static void checkStory(Case c, String what, Outcome actual) {
    if (c.sumsTheStory()) {
      assertEquals(what + ": SUM(amount) of store 10 downstream", 80, actual.storyTotal());
    }
    if (c.engine() != Engine.FIRST_ROW) {
      assertEquals(
          what + ": order 1001 in the table",
          "[1001, 10, 80]",
          actual.rows().stream()
              .filter(r -> r.startsWith("[1001,"))
              .map(r -> r.substring(0, r.lastIndexOf(',')) + "]")
              .collect(Collectors.joining()));
    }
  }

  /** One pipeline writing every case's table from the changes as {@code seed} delivers them. */
  private Map<Case, Outcome> run(Long seed, boolean acrossCommits, Map<String, String> buckets)
      throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    Pipeline pipeline = Pipeline.create(PipelineOptionsFactory.create());
    for (Case c : cases(acrossCommits, buckets)) {
      List<Row> changes = c.engine().changes(acrossCommits);
      PCollection<Row> input =
          pipeline.apply(
              "Input " + c.table(),
              acrossCommits
                  ? ShuffledInput.acrossCommits(changes, CHANGES, seed, COMMITS, INTERVAL)
                  : ShuffledInput.oneCommit(changes, CHANGES, seed));
      ChangelakeWrite write =
          ChangelakeIO.write()
              .to(warehouse, "shop", c.table())
              .withPrimaryKeys(List.of("order_id"))
              .withTableOptions(with(c.options(), buckets))
              .withRowKindField("op")
              .withCommitInterval(INTERVAL)
              .withMaxBatchRows(100_000);
      write = c.engine().sequenced() ? write.withSequenceField("seq") : write.withArrivalOrder();
      input.apply("Write " + c.table(), write);
    }
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
    Map<Case, Outcome> outcomes = new HashMap<>();
    for (Case c : cases(acrossCommits, buckets)) {
      outcomes.put(c, outcome(warehouse, new TablePath("shop", c.table())));
    }
    return outcomes;
  }

  private static Map<String, String> with(Map<String, String> options, Map<String, String> more) {
    Map<String, String> all = new LinkedHashMap<>(options);
    all.putAll(more);
    return all;
  }

  private static Outcome outcome(String warehouse, TablePath path) throws IOException {
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table table = Table.open(store, path);
      List<String> rows =
          table.newRead().readAll().stream().map(Arrays::toString).sorted().toList();
      TreeMap<Object, String> replay = new TreeMap<>();
      TreeMap<Object, Object[]> bySeq = new TreeMap<>();
      List<String> changelog = new ArrayList<>();
      long[] storyTotal = {0};
      OptionalLong latest = table.snapshots().latestId();
      if (latest.isPresent()) {
        table
            .newChangelogScan()
            .walk(
                1,
                latest.getAsLong(),
                new ChangelogScan.ChangeVisitor() {
                  @Override
                  public void snapshot(Snapshot snapshot) {}

                  @Override
                  public void change(ChangeRow row) {
                    KeyValue change = row.toKeyValue();
                    Object[] v = change.value();
                    RowKind kind = change.kind();
                    changelog.add(kind.shortString() + Arrays.toString(v));
                    if (kind.isAdd()) {
                      replay.put(v[0], Arrays.toString(v));
                    } else {
                      replay.remove(v[0]);
                    }
                    Object[] newest = bySeq.get(v[0]);
                    if (newest == null || (long) v[3] >= (long) newest[0]) {
                      bySeq.put(
                          v[0], new Object[] {v[3], kind.isAdd() ? Arrays.toString(v) : null});
                    }
                    if (Long.valueOf(10).equals(v[1]) && v[2] != null) {
                      storyTotal[0] += kind.isAdd() ? (long) v[2] : -(long) v[2];
                    }
                  }
                });
      }
      List<String> sequenced =
          bySeq.values().stream().map(s -> (String) s[1]).filter(s -> s != null).sorted().toList();
      return new Outcome(
          rows,
          replay.values().stream().sorted().toList(),
          sequenced,
          changelog.stream().sorted().toList(),
          storyTotal[0]);
    }
  }
}
