package io.changelake.beam;

import com.google.auto.value.AutoValue;
import io.changelake.store.S3Settings;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.annotation.Nullable;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.transforms.errorhandling.ErrorHandler;
import org.apache.beam.sdk.transforms.windowing.GlobalWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.joda.time.Duration;

/**
 * The write transform of {@link ChangelakeIO#write()}: Beam rows into one changelake table ({@link
 * #to}) or into many ({@link #toDestinations}). Its settings and their defaults are documented on
 * {@link ChangelakeIO}; instances are immutable, each {@code with} method returns a changed copy.
 */
@AutoValue
public abstract class ChangelakeWrite extends PTransform<PCollection<Row>, WriteResult> {

  private static final long serialVersionUID = 1L;

  static final Duration DEFAULT_COMMIT_INTERVAL = Duration.standardSeconds(10);
  static final int DEFAULT_MAX_BATCH_ROWS = 100_000;

  // Static, so that the tags (held by the stages' DoFns) do not carry this transform with them.
  private static final TupleTag<KV<String, KindedRow>> ROWS = new TupleTag<>() {};
  private static final TupleTag<BadRecord> REJECTED = new TupleTag<>() {};
  private static final TupleTag<KV<String, WrittenBatch>> WRITTEN = new TupleTag<>() {};
  private static final TupleTag<BadRecord> REFUSED = new TupleTag<>() {};
  private static final TupleTag<Row> SNAPSHOTS = new TupleTag<>() {};
  private static final TupleTag<Row> SETTLED = new TupleTag<>() {};

  abstract @Nullable String getWarehouse();

  abstract @Nullable String getDatabase();

  abstract @Nullable String getTable();

  abstract @Nullable SerializableFunction<Row, Destination> getRouter();

  abstract @Nullable SerializableFunction<Destination, TableDefinition> getDefinitions();

  abstract S3Settings getS3Settings();

  abstract @Nullable String getRowKindField();

  abstract @Nullable List<String> getPrimaryKeys();

  abstract @Nullable List<String> getPartitionKeys();

  abstract @Nullable Integer getBuckets();

  abstract @Nullable Map<String, String> getTableOptions();

  abstract @Nullable Duration getCommitInterval();

  abstract @Nullable String getCommitUser();

  abstract int getMaxBatchRows();

  abstract @Nullable List<String> getSequenceFields();

  abstract boolean getArrivalOrder();

  abstract boolean getSchemaEvolution();

  abstract @Nullable ErrorHandler<BadRecord, ?> getErrorHandler();

  abstract FaultInjection getFaults();

  abstract Duration getIdleWriterTimeout();

  abstract BucketStage getBucketStage();

  abstract int getForgetCheckEvery();

  abstract Builder toBuilder();

  @AutoValue.Builder
  abstract static class Builder {
    abstract Builder setWarehouse(String warehouse);

    abstract Builder setDatabase(String database);

    abstract Builder setTable(String table);

    abstract Builder setRouter(SerializableFunction<Row, Destination> router);

    abstract Builder setDefinitions(SerializableFunction<Destination, TableDefinition> definitions);

    abstract Builder setS3Settings(S3Settings settings);

    abstract Builder setRowKindField(String field);

    abstract Builder setPrimaryKeys(List<String> keys);

    abstract Builder setPartitionKeys(List<String> keys);

    abstract Builder setBuckets(Integer count);

    abstract Builder setTableOptions(Map<String, String> options);

    abstract Builder setCommitInterval(@Nullable Duration interval);

    abstract Builder setCommitUser(String user);

    abstract Builder setMaxBatchRows(int rows);

    abstract Builder setSequenceFields(List<String> fields);

    abstract Builder setArrivalOrder(boolean arrivalOrder);

    abstract Builder setSchemaEvolution(boolean evolve);

    abstract Builder setErrorHandler(ErrorHandler<BadRecord, ?> handler);

    abstract Builder setFaults(FaultInjection faults);

    abstract Builder setIdleWriterTimeout(Duration timeout);

    abstract Builder setBucketStage(BucketStage stage);

    abstract Builder setForgetCheckEvery(int newKeys);

    abstract ChangelakeWrite build();
  }

  /** The write with every setting at its default. */
  static ChangelakeWrite create() {
    return new AutoValue_ChangelakeWrite.Builder()
        .setS3Settings(S3Settings.defaults())
        .setCommitInterval(DEFAULT_COMMIT_INTERVAL)
        .setMaxBatchRows(DEFAULT_MAX_BATCH_ROWS)
        .setArrivalOrder(false)
        .setSchemaEvolution(false)
        .setFaults(FaultInjection.NONE)
        .setIdleWriterTimeout(Duration.millis(WriteBucketFn.DEFAULT_IDLE_TIMEOUT_MILLIS))
        .setBucketStage(WriteBucketFn::new)
        .setForgetCheckEvery(AssignHashBucketFn.DEFAULT_FORGET_CHECK_EVERY)
        .build();
  }

  /**
   * The table: {@code warehouse} is {@code s3://bucket/prefix}, {@code file:///path} or a local
   * path; the table lives in {@code <warehouse>/<database>.db/<table>/}.
   */
  public ChangelakeWrite to(String warehouse, String database, String table) {
    return toBuilder().setWarehouse(warehouse).setDatabase(database).setTable(table).build();
  }

  /**
   * Many tables from one write: each row goes to the table its {@code router} names (a {@link
   * Destination}, {@code <warehouse>/<database>.db/<table>/}), which is created on its first row
   * from what {@code definitions} gives for it, and each table has its own committer and commit
   * user ({@link #withCommitUser}'s, followed by {@code -<database>.<table>}).
   *
   * <p>The rows of all tables travel in one {@code PCollection<Row>}, whose schema is the union of
   * their columns: each {@link TableDefinition} names the input fields that are its table's
   * columns, and the other fields of a row are not written (leave them null). The row-kind,
   * sequence and {@link SourcePosition} fields are shared by every table. The router may be {@link
   * Destination#ofField} (a STRING field holding {@code database.table}, checked here) or any
   * serializable function of the row.
   *
   * <p>A row with no destination (the router gives none or fails), and every row of a destination
   * whose definition fails, is null, names what no input field holds, or does not fit the existing
   * table, goes to the dead letters as {@code destination <db.table>: <reason>}; the pipeline goes
   * on. Refused when applied, naming the fix: {@link #to}, {@link #withPrimaryKeys}, {@link
   * #withPartitionKeys}, {@link #withBuckets}, {@link #withTableOptions} (a table's keys, buckets
   * and options belong in its definition) and {@link #withSchemaEvolution}. Each table has a fixed
   * bucket count with its partition columns inside its key: dynamic-bucket and cross-partition
   * tables are refused (as dead letters of their destination).
   *
   * @param warehouse {@code s3://bucket/prefix}, {@code file:///path} or a local path
   */
  public ChangelakeWrite toDestinations(
      String warehouse,
      SerializableFunction<Row, Destination> router,
      SerializableFunction<Destination, TableDefinition> definitions) {
    return toBuilder()
        .setWarehouse(warehouse)
        .setRouter(router)
        .setDefinitions(definitions)
        .build();
  }

  /** How to reach S3 for an {@code s3://} warehouse; default: AWS, default credential chain. */
  public ChangelakeWrite withS3Settings(S3Settings settings) {
    return toBuilder().setS3Settings(settings).build();
  }

  /** The STRING field holding each row's kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}). */
  public ChangelakeWrite withRowKindField(String field) {
    return toBuilder().setRowKindField(field).build();
  }

  /** Creates the table if missing, with these primary-key columns (the columns: the input's). */
  public ChangelakeWrite withPrimaryKeys(List<String> keys) {
    return toBuilder().setPrimaryKeys(List.copyOf(keys)).build();
  }

  /**
   * Partition columns of a table created by the write. A partition column outside the primary key
   * makes a cross-partition upsert table, which needs {@code withBuckets(-1)} (see {@link
   * ChangelakeIO}).
   */
  public ChangelakeWrite withPartitionKeys(List<String> keys) {
    return toBuilder().setPartitionKeys(List.copyOf(keys)).build();
  }

  /**
   * The bucket count of a table created by the write (table option {@code bucket}); -1 creates a
   * dynamic-bucket table, whose keys get their buckets from its hash index (see {@link
   * ChangelakeIO}).
   */
  public ChangelakeWrite withBuckets(int count) {
    return toBuilder().setBuckets(count).build();
  }

  /** Table options of a table created by the write, in Paimon's names. */
  public ChangelakeWrite withTableOptions(Map<String, String> options) {
    return toBuilder().setTableOptions(Map.copyOf(options)).build();
  }

  /** Streaming only: the time between commits. */
  public ChangelakeWrite withCommitInterval(Duration interval) {
    return toBuilder().setCommitInterval(interval).build();
  }

  /**
   * The commit user recorded in every snapshot. Keep it stable across a job's updates and restarts
   * that keep its state; never share it between two running jobs.
   */
  public ChangelakeWrite withCommitUser(String user) {
    return toBuilder().setCommitUser(user).build();
  }

  /** Streaming only: the most rows of one bucket written as one batch. */
  public ChangelakeWrite withMaxBatchRows(int rows) {
    return toBuilder().setMaxBatchRows(rows).build();
  }

  /**
   * The input fields that order the versions of one key: the newest by these fields, compared one
   * after another (nulls first), wins whatever order the rows reach the writer in; equal ones go by
   * arrival. A table the write creates gets them as its {@code sequence.field}; an existing table
   * must already have exactly these as its {@code sequence.field}, which the workers check when
   * they open it (a table's own sequence is what its merge uses). Give a value that grows with each
   * change of a key at its source: a log position, a version, an offset.
   */
  public ChangelakeWrite withSequenceField(String... fields) {
    return toBuilder().setSequenceFields(List.of(fields)).build();
  }

  /**
   * States that each key's rows reach the writer in the order they changed, so that an unbounded
   * write needs no sequence field. True only when both the source and the runner keep per-key order
   * up to this transform: for example one Kafka partition per key read on the DirectRunner, or a
   * TestStream. Dataflow, Flink and Spark may reorder elements after every shuffle (the write's own
   * GroupIntoBatches is one), so on them give {@link #withSequenceField} instead.
   */
  public ChangelakeWrite withArrivalOrder() {
    return toBuilder().setArrivalOrder(true).build();
  }

  /**
   * Lets the input schema change an existing table when the pipeline is built: an input field the
   * table lacks becomes a new nullable column, and a column whose type widens to the input field's
   * (INT to BIGINT, FLOAT to DOUBLE, ...) is widened, as {@code Table.alter} does, before any row
   * is written. Without it, an input that differs so fails at {@code expand}, naming the columns.
   * Either way, a field that would narrow a column or change its kind, a key column the input lacks
   * or retypes, and a NOT NULL column the input lacks are refused at {@code expand}.
   *
   * <p>It also lets the rows' {@link DynamicColumns} add and widen columns while the pipeline runs.
   */
  public ChangelakeWrite withSchemaEvolution() {
    return toBuilder().setSchemaEvolution(true).build();
  }

  /** Also sends the dead letters to this error handler. */
  public ChangelakeWrite withBadRecordErrorHandler(ErrorHandler<BadRecord, ?> handler) {
    return toBuilder().setErrorHandler(handler).build();
  }

  /** Test hook: closes a bucket writer unused this long (default 10 minutes, see WriteBucketFn). */
  ChangelakeWrite withIdleWriterTimeout(Duration timeout) {
    return toBuilder().setIdleWriterTimeout(timeout).build();
  }

  /** Benchmark hook: another bucket-writer stage in place of {@link WriteBucketFn}. */
  ChangelakeWrite withBucketStage(BucketStage stage) {
    return toBuilder().setBucketStage(stage).build();
  }

  /** Test hook: new keys between an assigner's checks for committed assignments (default 4096). */
  ChangelakeWrite withForgetCheckEvery(int newKeys) {
    return toBuilder().setForgetCheckEvery(newKeys).build();
  }

  /** Test hook: see {@link FaultInjection}. */
  ChangelakeWrite withFaultInjection(FaultInjection injection) {
    return toBuilder().setFaults(injection).build();
  }

  @Override
  public WriteResult expand(PCollection<Row> input) {
    Destinations destinations = WriteChecks.validate(this, input);
    TableReference.BucketMode mode = WriteChecks.bucketMode(this, destinations, input);
    String user = getCommitUser() != null ? getCommitUser() : "beam-" + UUID.randomUUID();
    boolean bounded = input.isBounded() == PCollection.IsBounded.BOUNDED;
    Duration interval = getCommitInterval();

    PCollectionTuple assigned =
        input
            .apply("GlobalWindow", Window.into(new GlobalWindows()))
            .apply(
                "AssignBucket",
                ParDo.of(
                        new AssignBucketFn(
                            destinations,
                            getRowKindField(),
                            getSequenceFields(),
                            getSchemaEvolution(),
                            input.getCoder(),
                            ROWS,
                            REJECTED,
                            mode))
                    .withOutputTags(ROWS, TupleTagList.of(REJECTED)));
    KvCoder<String, KindedRow> rowCoder = KvCoder.of(StringUtf8Coder.of(), KindedRowCoder.of());
    PCollection<KV<String, KindedRow>> rows = assigned.get(ROWS).setCoder(rowCoder);
    if (mode == TableReference.BucketMode.DYNAMIC) {
      rows =
          rows.apply(
                  "AssignDynamicBucket",
                  ParDo.of(new AssignHashBucketFn(destinations.single(), getForgetCheckEvery())))
              .setCoder(rowCoder);
    } else if (mode == TableReference.BucketMode.CROSS_PARTITION) {
      rows =
          rows.apply(
                  "AssignCrossPartition",
                  ParDo.of(new AssignCrossPartitionFn(destinations.single())))
              .setCoder(rowCoder);
    }
    PCollection<KV<String, Iterable<KindedRow>>> batches =
        bounded
            ? rows.apply("GroupByBucket", GroupByKey.create())
            : rows.apply(
                "BatchPerBucket",
                GroupIntoBatches.<String, KindedRow>ofSize(getMaxBatchRows())
                    .withMaxBufferingDuration(interval));

    PCollectionTuple written =
        batches.apply(
            "WriteBuckets",
            ParDo.of(
                    getBucketStage()
                        .create(
                            destinations,
                            WRITTEN,
                            REFUSED,
                            getFaults(),
                            getIdleWriterTimeout().getMillis(),
                            bounded))
                .withOutputTags(WRITTEN, TupleTagList.of(REFUSED)));
    PCollectionTuple committed =
        written
            .get(WRITTEN)
            .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenBatchCoder.of()))
            .apply(
                "Commit",
                ParDo.of(
                        new CommitFn(
                            destinations,
                            SNAPSHOTS,
                            SETTLED,
                            user,
                            bounded ? null : interval,
                            getFaults()))
                    .withOutputTags(SNAPSHOTS, TupleTagList.of(SETTLED)));
    PCollection<Row> snapshots = committed.get(SNAPSHOTS).setRowSchema(CommitFn.SNAPSHOT_SCHEMA);

    PCollection<BadRecord> deadLetters =
        PCollectionList.of(assigned.get(REJECTED).setCoder(BadRecord.getCoder(input.getPipeline())))
            .and(written.get(REFUSED).setCoder(BadRecord.getCoder(input.getPipeline())))
            .apply("DeadLetters", Flatten.pCollections());
    if (getErrorHandler() != null) {
      getErrorHandler().addErrorCollection(deadLetters);
    }
    return new WriteResult(
        input.getPipeline(),
        snapshots,
        deadLetters,
        settled(input, destinations, assigned, committed));
  }

  /** The positions the commits settled and those of the rows the first stage refused. */
  private static PCollection<Row> settled(
      PCollection<Row> input,
      Destinations destinations,
      PCollectionTuple assigned,
      PCollectionTuple committed) {
    PCollectionList<Row> settled =
        PCollectionList.of(committed.get(SETTLED).setRowSchema(SourcePosition.SETTLED_SCHEMA));
    int position = SourcePosition.fieldIndex(input.getSchema());
    if (position >= 0) {
      settled =
          settled.and(
              assigned
                  .get(REJECTED)
                  .apply(
                      "SettleRejected",
                      ParDo.of(new SettleRejectedFn(destinations, input.getCoder(), position)))
                  .setRowSchema(SourcePosition.SETTLED_SCHEMA));
    }
    return settled.apply("SettledPositions", Flatten.pCollections());
  }
}
