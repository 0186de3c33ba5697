package io.changelake.table;

import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.schema.TableSchema;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Test fixture: a seeded random stream of upserts and retractions written to one of our tables in
 * many commits with random compactions, and what a plain in-memory model of the merge engine says
 * the table holds afterwards.
 *
 * <p>Everything random comes from the case's seed, the table options included (1 to 3 buckets,
 * sometimes a partition column, sometimes buffers and files so small that the writer spills,
 * flushes mid-commit and rolls files), so a seed reproduces a failure exactly.
 *
 * <p>The table is {@code orders(order_id BIGINT NOT NULL, store_id BIGINT, amount BIGINT)}, plus
 * {@code day INT NOT NULL} as partition and key column when partitioned; a key's day is fixed by
 * its order id, so the order id alone names a key.
 */
final class RandomChangeStream {

  static final TablePath PATH = new TablePath("db", "orders");

  /**
   * One stream: merge engine, changelog producer and seed.
   *
   * @param completeInput whether the input is a complete changelog (-U before every +U, -D with the
   *     stored row), as the input producer needs for a correct changelog
   */
  record Case(String engine, String producer, long seed, boolean completeInput) {
    @Override
    public String toString() {
      return engine + "/" + producer + (completeInput ? "/complete-input" : "") + " seed=" + seed;
    }
  }

  /**
   * What the stream left.
   *
   * @param expected the rows the model predicts, for every key but the unpredictable ones
   * @param unpredictable the order ids of keys whose row depends on how flushes and compactions
   *     happened to group their records (see {@link Model#apply})
   * @param options the options the seed drew
   */
  record Written(List<Object[]> expected, Set<Long> unpredictable, Map<String, String> options) {
    /** The rows of keys the model predicts. */
    List<Object[]> predictable(List<Object[]> rows) {
      return rows.stream().filter(r -> !unpredictable.contains((Long) r[0])).toList();
    }
  }

  private final Case c;
  private final Random random;
  private final Map<String, String> options = new TreeMap<>();
  private final boolean partitioned;
  private final Model model;
  private final int keys;
  private final boolean waitCompaction;

  RandomChangeStream(Case c, int keys) {
    this(c, keys, true);
  }

  /**
   * @param waitCompaction false to let each plain commit compact in the background ({@link
   *     TableWriter#prepareCommit(long, CompactionRequest, boolean)}); the stream, the options and
   *     the requests drawn are the same either way
   */
  RandomChangeStream(Case c, int keys, boolean waitCompaction) {
    this.c = c;
    this.waitCompaction = waitCompaction;
    // Each engine and producer draws its own options from the same seed.
    this.random = new Random(c.seed() * 31 + (c.engine() + "/" + c.producer()).hashCode());
    this.keys = keys;
    this.partitioned = random.nextBoolean();
    options.put("bucket", Integer.toString(1 + random.nextInt(3)));
    options.put("merge-engine", c.engine());
    options.put("changelog-producer", c.producer());
    if (random.nextInt(3) == 0) {
      options.put("write-buffer-size", "8 kb");
      // Unspillable, a full buffer flushes to level 0 mid-commit, and the write stall compacts.
      options.put("write-buffer-spillable", Boolean.toString(random.nextBoolean()));
      options.put("target-file-size", "4 kb");
    }
    if (random.nextBoolean()) {
      options.put("num-sorted-run.compaction-trigger", "2");
    }
    switch (c.producer()) {
      case "lookup":
        options.put("lookup-wait", Boolean.toString(random.nextInt(3) != 0));
        break;
      case "full-compaction":
        options.put("full-compaction.delta-commits", Integer.toString(1 + random.nextInt(3)));
        break;
      default:
        break;
    }
    if (random.nextInt(3) == 0 && !c.producer().equals("none") && !c.producer().equals("input")) {
      options.put("changelog-producer.row-deduplicate", "true");
    }
    String retractionRule = "";
    switch (c.engine()) {
      case "partial-update":
        retractionRule =
            List.of("", "ignore-delete", "partial-update.remove-record-on-delete")
                .get(random.nextInt(3));
        break;
      case "aggregation":
        options.put("fields.amount.aggregate-function", "sum");
        retractionRule = random.nextBoolean() ? "" : "aggregation.remove-record-on-delete";
        break;
      case "first-row":
        retractionRule = random.nextBoolean() ? "" : "ignore-delete";
        break;
      default:
        break;
    }
    if (!retractionRule.isEmpty()) {
      options.put(retractionRule, "true");
    }
    this.model = new Model(c.engine(), retractionRule);
  }

  /** The table options the seed drew. */
  Map<String, String> options() {
    return Map.copyOf(options);
  }

  TableSchema schema() {
    List<DataField> fields = new ArrayList<>(Orders.ROW_TYPE.fields());
    if (!partitioned) {
      return Orders.schema(options);
    }
    fields.add(new DataField(3, "day", DataType.intType().notNull()));
    return TableSchema.create(
        new RowType(fields), List.of("day"), List.of("order_id", "day"), options, null);
  }

  private Object[] row(long orderId, Long storeId, Long amount) {
    Object[] row = Orders.row(orderId, storeId, amount);
    if (!partitioned) {
      return row;
    }
    return new Object[] {row[0], row[1], row[2], 20260101 + (int) (orderId % 3)};
  }

  /** A random row for the key; partial-update and aggregation get nulls, which they merge. */
  private Object[] randomRow(long key) {
    boolean nulls = c.engine().equals("partial-update") || c.engine().equals("aggregation");
    Long store = nulls && random.nextInt(4) == 0 ? null : (long) random.nextInt(10);
    // A null amount is left to partial-update: the aggregation model would need sum's null rules.
    Long amount =
        c.engine().equals("partial-update") && random.nextInt(4) == 0
            ? null
            : (long) random.nextInt(1000);
    return row(key, store, amount);
  }

  /**
   * Writes about {@code operations} changes over the case's keys in {@code commits} commits (ids 1,
   * 2, ...), with a random NORMAL or FULL compaction now and then, and ends with what makes every
   * change surface in the changelog: a full compaction for full-compaction tables, an empty commit
   * for lookup tables that do not wait (their last flush is compacted one commit late).
   */
  Written write(Table table, int operations, int commits) throws Exception {
    SnapshotCommit commit = table.newCommit("random-stream");
    long id = 0;
    try (TableWriter writer = table.newWriter()) {
      for (int i = 0; i < commits; i++) {
        // Uneven commits: some empty, some twice the average.
        int count = random.nextInt(2 * operations / commits + 1);
        for (int op = 0; op < count; op++) {
          writeOne(writer);
        }
        int dice = random.nextInt(20);
        CompactionRequest request =
            dice == 0
                ? CompactionRequest.FULL
                : dice < 3 ? CompactionRequest.NORMAL : CompactionRequest.AUTO;
        id++;
        commit.commit(id, writer.prepareCommit(id, request, waitCompaction));
      }
      if (c.producer().equals("full-compaction")) {
        id++;
        commit.commit(id, writer.prepareCommit(id, CompactionRequest.FULL));
      } else if (c.producer().equals("lookup") && options.get("lookup-wait").equals("false")) {
        id++;
        commit.commit(id, writer.prepareCommit(id));
      }
    }
    return new Written(model.rows(), Set.copyOf(model.unpredictable), options());
  }

  private void writeOne(TableWriter writer) throws Exception {
    long key = random.nextInt(keys);
    Object[] current = model.get(key);
    boolean retract = model.acceptsRetractions() && random.nextInt(5) == 0;
    if (c.completeInput()) {
      // A database's CDC: +I for a new key, -U/+U or -D carrying the stored row for an old one.
      if (current == null) {
        emit(writer, RowKind.INSERT, randomRow(key));
      } else if (retract) {
        emit(writer, RowKind.DELETE, current);
      } else {
        emit(writer, RowKind.UPDATE_BEFORE, current);
        emit(writer, RowKind.UPDATE_AFTER, randomRow(key));
      }
      return;
    }
    if (!retract) {
      if (model.removed.contains(key) && random.nextInt(4) != 0) {
        // Mostly leave removed keys removed, so that most keys stay predictable.
        return;
      }
      RowKind kind = random.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER;
      emit(writer, kind, randomRow(key));
      return;
    }
    if (current == null && !model.retractsAbsentKeys()) {
      return;
    }
    // Partial-update's remove-record-on-delete takes -D only: after a -D in the same merge, a -U
    // would bring back a row of nulls (as in Paimon), which no real stream sends.
    RowKind kind =
        random.nextBoolean() || c.engine().equals("partial-update")
            ? RowKind.DELETE
            : RowKind.UPDATE_BEFORE;
    // Retract the stored row or, for engines that do not look at it, any values.
    Object[] retracted = current != null && random.nextBoolean() ? current.clone() : randomRow(key);
    if (c.engine().equals("aggregation")) {
      // Retracting a store nulls it (last_non_null_value), but only if the retraction reaches the
      // stored row as such: merged first with other retractions in a flush, it becomes a +I that
      // leaves the store alone (in Paimon too). Null stores keep the model exact.
      retracted[1] = null;
    }
    emit(writer, kind, retracted);
  }

  private void emit(TableWriter writer, RowKind kind, Object[] row) throws Exception {
    writer.write(kind, row);
    model.apply(kind, row);
  }

  /**
   * The table each merge engine should hold, kept in the plainest way: deduplicate keeps the last
   * row, first-row the first, partial-update overlays non-null values, aggregation sums amounts and
   * keeps the last non-null store. Retractions follow the case's rule ({@code ignore-delete},
   * {@code *.remove-record-on-delete}).
   */
  private static final class Model {
    private final String engine;
    private final String retractionRule;
    private final Map<Long, Object[]> rows = new LinkedHashMap<>();

    /** Keys a remove-record-on-delete rule removed, not written since. */
    final Set<Long> removed = new HashSet<>();

    final Set<Long> unpredictable = new HashSet<>();

    Model(String engine, String retractionRule) {
      this.engine = engine;
      this.retractionRule = retractionRule;
    }

    boolean acceptsRetractions() {
      return engine.equals("deduplicate")
          || engine.equals("aggregation")
          || !retractionRule.isEmpty();
    }

    /**
     * Whether a retraction of a key the table does not hold is well defined: under aggregation a
     * lone retraction is kept or dropped depending on which files a compaction happens to merge, so
     * the stream only retracts what it added; partial-update's rules ignore or remove.
     */
    boolean retractsAbsentKeys() {
      return !engine.equals("aggregation");
    }

    Object[] get(long key) {
      return rows.get(key);
    }

    /**
     * Applies one change. A key re-added after a remove-record-on-delete -D becomes unpredictable:
     * if the -D and the add are merged before they meet the removed row (one flush, or a compaction
     * of level 0 alone), the -D is lost and the add merges into the old row; if they meet it, the
     * row starts afresh. Paimon's merge functions do the same.
     */
    void apply(RowKind kind, Object[] row) {
      long key = (Long) row[0];
      Object[] old = rows.get(key);
      if (kind.isAdd() && removed.remove(key)) {
        unpredictable.add(key);
      }
      if (!kind.isAdd()) {
        if (retractionRule.equals("ignore-delete")) {
          return;
        }
        switch (engine) {
          case "deduplicate":
            rows.remove(key);
            return;
          case "partial-update":
            // remove-record-on-delete: -D removes the row (the stream sends no -U).
            rows.remove(key);
            removed.add(key);
            return;
          case "aggregation":
            if (kind == RowKind.DELETE && !retractionRule.isEmpty()) {
              rows.remove(key);
              removed.add(key);
            } else {
              Object[] next = old.clone();
              next[1] = row[1] != null ? null : old[1];
              next[2] = subtract((Long) old[2], (Long) row[2]);
              rows.put(key, next);
            }
            return;
          default:
            throw new IllegalStateException(engine + " takes no retraction in these streams");
        }
      }
      if (old == null || engine.equals("deduplicate")) {
        rows.put(key, row.clone());
        return;
      }
      Object[] next = old.clone();
      switch (engine) {
        case "first-row":
          return;
        case "partial-update":
          for (int i = 1; i < row.length; i++) {
            next[i] = row[i] != null ? row[i] : old[i];
          }
          break;
        case "aggregation":
          next[1] = row[1] != null ? row[1] : old[1];
          next[2] = add((Long) old[2], (Long) row[2]);
          break;
        default:
          throw new IllegalStateException(engine);
      }
      rows.put(key, next);
    }

    private static Long add(Long a, Long b) {
      return a == null ? b : b == null ? a : a + b;
    }

    private static Long subtract(Long a, Long b) {
      return b == null ? a : a == null ? -b : a - b;
    }

    List<Object[]> rows() {
      List<Object[]> predictable = new ArrayList<>();
      for (Map.Entry<Long, Object[]> e : rows.entrySet()) {
        if (!unpredictable.contains(e.getKey())) {
          predictable.add(e.getValue());
        }
      }
      return predictable;
    }
  }
}
