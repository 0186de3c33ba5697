package io.changelake.templates;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.Table;
import io.changelake.table.TableNotFoundException;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * Brings the aggregate table up to the source table's latest snapshot: reads the changelog of every
 * source snapshot the aggregate has not applied yet, in snapshot order, sums its signed deltas per
 * group ({@link AggregateChanges} says which) and commits them into the aggregate table, so that
 * the aggregate's commits themselves record how far it has applied the source.
 *
 * <p>The record: every aggregate commit is made under the commit user {@link #commitUser} and the
 * commit identifier of the <em>last source snapshot it applied</em>. A commit holds the deltas of
 * one or more whole source snapshots ({@link #SNAPSHOTS_PER_COMMIT} at most), never part of one,
 * and is atomic. Where to go on is therefore the identifier of that user's newest aggregate
 * snapshot, read from the table before each catch-up: a retried bundle, a restarted job or a job
 * that crashed between the source's commit and the aggregate's finds the snapshots not applied yet
 * and applies each once; and {@link SnapshotCommit} does not repeat a commit whose (user,
 * identifier) already landed, which covers a crash after the aggregate snapshot and before the
 * runner heard of it. Source snapshots that bring no delta make no aggregate commit; the job keeps
 * in state how far it went past them, and a new job reads them again, harmlessly.
 *
 * <p>Each input element only wakes the catch-up up (a snapshot the source write committed, or the
 * pipeline's start); it reads the source table's snapshots itself, whoever made them, so arrival
 * order, duplicates and lost wake-ups do not matter, and a start with nothing new to read still
 * applies what a stopped job left behind. One key, so one worker applies the snapshots one after
 * another: the aggregate's throughput is that of one reader of the source changelog.
 *
 * <p>Refused: a group value that is null (the aggregate's primary key is NOT NULL): the change
 * becomes a dead-letter line, and the snapshot is applied without it (the line comes again if the
 * snapshot is read again: a retried bundle, or a new job past snapshots with no delta). A source
 * snapshot that expired before the aggregate applied it fails the catch-up with a message naming
 * it, since the aggregate could no longer be right; so does an aggregate table that holds snapshots
 * but none of {@link #commitUser} (a table another writer made, whose progress is unknown).
 *
 * <p>Metrics in {@code changelake.templates}: counters {@code aggregateSnapshotsApplied}, {@code
 * aggregateCommits}, {@code aggregateNullGroups}; gauge {@code aggregateSnapshotsBehind} (source
 * snapshots not applied yet, when the catch-up last looked).
 */
final class AggregateCatchUp extends DoFn<KV<String, Long>, String> {
  private static final long serialVersionUID = 1L;

  /** At most this many source snapshots go into one aggregate commit, so progress stays durable. */
  static final int SNAPSHOTS_PER_COMMIT = 100;

  private final String warehouse;
  private final S3Settings s3;
  private final String database;
  private final String sourceTable;
  private final String aggregateTable;
  private final String groupColumn;
  private final String valueColumn;
  private final int buckets;

  private final Counter applied =
      Metrics.counter("changelake.templates", "aggregateSnapshotsApplied");
  private final Counter commits = Metrics.counter("changelake.templates", "aggregateCommits");
  private final Counter nullGroups = Metrics.counter("changelake.templates", "aggregateNullGroups");
  private final Gauge behind = Metrics.gauge("changelake.templates", "aggregateSnapshotsBehind");

  /** The newest source snapshot applied, as this job last saw it: spares reading the tables. */
  @StateId("applied-through")
  private final StateSpec<ValueState<Long>> appliedSpec = StateSpecs.value(VarLongCoder.of());

  private transient ObjectStore store;

  AggregateCatchUp(AggregateOptions options, String sourceTable, S3Settings s3) {
    this.warehouse = options.getWarehouse();
    this.s3 = s3;
    this.database = options.getDatabase();
    this.sourceTable = sourceTable;
    this.aggregateTable = options.getAggregateTable();
    this.groupColumn = options.getGroupColumn();
    this.valueColumn = options.getValueColumn();
    this.buckets = options.getAggregateBuckets();
  }

  /**
   * The commit user of every aggregate commit: fixed by the two tables, so that every job of the
   * flow, and every restart, continues the same record.
   */
  static String commitUser(String database, String sourceTable) {
    return "changelake-aggregate-of-" + database + "." + sourceTable;
  }

  /**
   * Fails before the pipeline runs when the aggregate table exists with snapshots of which none is
   * this flow's (the catch-up refuses it again on the workers, for a launcher that cannot reach the
   * warehouse): how far it holds the source is unknown, and applying the source from its first
   * snapshot would count what it may hold twice.
   *
   * @throws IllegalArgumentException naming {@code --aggregateTable} and the fix
   */
  static void checkResumable(ObjectStore store, String database, String source, String aggregate)
      throws IOException {
    try {
      Table table = Table.open(store, new TablePath(database, aggregate));
      checkResumable(table, table.newCommit(commitUser(database, source)), source);
    } catch (TableNotFoundException absent) {
      // Made by the first catch-up.
    }
  }

  private static void checkResumable(Table aggregate, SnapshotCommit commit, String source)
      throws IOException {
    if (aggregate.snapshots().latestId().isPresent()
        && commit.lastCommittedIdentifier().isEmpty()) {
      throw new IllegalArgumentException(
          "--aggregateTable="
              + aggregate.path().table()
              + " is not valid: the table has snapshots, but none committed by "
              + commit.commitUser()
              + ", so which changes of "
              + source
              + " it holds is unknown; drop it (the template rebuilds it from every snapshot of "
              + source
              + ") or name a new table");
    }
  }

  @Setup
  public void setup() throws IOException {
    store = ObjectStores.open(warehouse, s3);
  }

  @ProcessElement
  public void process(
      @Element KV<String, Long> wakeUp,
      @StateId("applied-through") ValueState<Long> appliedThrough,
      OutputReceiver<String> deadLetters)
      throws IOException {
    Long known = appliedThrough.read();
    // A snapshot this job has applied already: nothing to read. The start (-1) always looks.
    if (known != null && wakeUp.getValue() >= 0 && wakeUp.getValue() <= known) {
      return;
    }
    Table source;
    try {
      source = Table.open(store, new TablePath(database, sourceTable));
    } catch (TableNotFoundException notYet) {
      return;
    }
    OptionalLong latest = source.snapshots().latestId();
    if (latest.isEmpty()) {
      return;
    }
    Table aggregate =
        Table.openOrCreate(store, new TablePath(database, aggregateTable), schema(source));
    SnapshotCommit commit = aggregate.newCommit(commitUser(database, sourceTable));
    checkResumable(aggregate, commit, sourceTable);
    // This job's own record may be ahead of the table's: snapshots with no delta make no commit.
    long through = Math.max(commit.lastCommittedIdentifier().orElse(0), known == null ? 0 : known);
    checkNotExpired(source, through);
    behind.set(latest.getAsLong() - through);
    while (through < latest.getAsLong()) {
      long last = Math.min(latest.getAsLong(), through + SNAPSHOTS_PER_COMMIT);
      Map<Object, Object[]> deltas = deltas(source, through + 1, last, deadLetters);
      try (TableWriter writer = aggregate.newWriter()) {
        for (Object[] row : deltas.values()) {
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(last, writer.prepareCommit(last));
      }
      commits.inc();
      applied.inc(last - through);
      through = last;
    }
    behind.set(0);
    appliedThrough.write(through);
  }

  private void checkNotExpired(Table source, long through) throws IOException {
    OptionalLong earliest = source.snapshots().earliestId();
    if (earliest.isPresent() && earliest.getAsLong() > through + 1) {
      behind.set(source.snapshots().latestId().orElse(through) - through);
      throw new IllegalStateException(
          "the aggregate "
              + aggregateTable
              + " has applied "
              + sourceTable
              + " up to snapshot "
              + through
              + ", but "
              + sourceTable
              + "'s snapshots before "
              + earliest.getAsLong()
              + " have expired: rebuild the aggregate (drop it), and keep the source's snapshots"
              + " longer (snapshot.time-retained) than the aggregate may fall behind");
    }
  }

  /** The summed deltas of source snapshots {@code first} to {@code last}, as aggregate rows. */
  private Map<Object, Object[]> deltas(
      Table source, long first, long last, OutputReceiver<String> deadLetters) throws IOException {
    RowType columns = source.schema().rowType();
    int group = columns.indexOf(groupColumn);
    int value = columns.indexOf(valueColumn);
    boolean doubles = summedAsDouble(columns.type(value));
    Map<Object, Object[]> sums = new LinkedHashMap<>();
    source
        .newChangelogScan()
        .walk(
            first,
            last,
            new ChangelogScan.ChangeVisitor() {
              @Override
              public void snapshot(Snapshot snapshot) {}

              @Override
              public void change(ChangeRow change) {
                Number amount = (Number) change.get(value);
                if (amount == null) {
                  return;
                }
                Object groupValue = change.get(group);
                if (groupValue == null) {
                  nullGroups.inc();
                  deadLetters.output(
                      DeadLetterFiles.line(
                          "the group column "
                              + groupColumn
                              + " is null: the aggregate "
                              + aggregateTable
                              + " has no row for it",
                          change.kind().shortString()
                              + " "
                              + Arrays.toString(change.toKeyValue().value())));
                  return;
                }
                long sign = AggregateChanges.sign(change.kind().shortString());
                Object[] sum =
                    sums.computeIfAbsent(
                        groupKey(groupValue),
                        k -> new Object[] {groupValue, doubles ? (Object) 0.0 : (Object) 0L, 0L});
                if (doubles) {
                  sum[1] = (Double) sum[1] + sign * amount.doubleValue();
                } else {
                  sum[1] = (Long) sum[1] + sign * amount.longValue();
                }
                sum[2] = (Long) sum[2] + sign;
              }
            });
    return sums;
  }

  /** A map key equal for equal group values: byte arrays compare by content. */
  private static Object groupKey(Object group) {
    return group instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : group;
  }

  private static boolean summedAsDouble(DataType type) {
    return switch (type.root()) {
      case FLOAT, DOUBLE -> true;
      default -> false;
    };
  }

  /** The aggregate table's first schema: the group column as in the source, the sum, the count. */
  private TableSchema schema(Table source) {
    RowType columns = source.schema().rowType();
    DataType sum =
        summedAsDouble(columns.type(columns.indexOf(valueColumn)))
            ? DataType.doubleType()
            : DataType.bigint();
    Map<String, String> options = new LinkedHashMap<>(AggregateChanges.tableOptions(valueColumn));
    options.put("bucket", Integer.toString(buckets));
    return Table.checkMergeEngine(
        TableSchema.create(
            RowType.of(
                new String[] {
                  groupColumn, AggregateChanges.sumColumn(valueColumn), AggregateChanges.COUNT
                },
                new DataType[] {
                  columns.type(columns.indexOf(groupColumn)), sum, DataType.bigint()
                }),
            List.of(),
            List.of(groupColumn),
            options,
            null));
  }

  @Teardown
  public void teardown() throws IOException {
    if (store != null) {
      store.close();
    }
  }
}
