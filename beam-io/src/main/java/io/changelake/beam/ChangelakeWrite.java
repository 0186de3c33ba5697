package io.changelake.beam;

import io.changelake.store.S3Settings;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.table.TablePath;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.GroupIntoBatches;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
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
 * The write transform of {@link ChangelakeIO#write()}: Beam rows into a changelake table. Its
 * settings and their defaults are documented on {@link ChangelakeIO}; instances are immutable,
 * each {@code with} method returns a changed copy.
 */
public final class ChangelakeWrite extends PTransform<PCollection<Row>, WriteResult> {
  private static final long serialVersionUID = 1L;

  static final Duration DEFAULT_COMMIT_INTERVAL = Duration.standardSeconds(10);
  static final int DEFAULT_MAX_BATCH_ROWS = 100_000;

  private String warehouse;
  private String database;
  private String table;
  private S3Settings s3 = S3Settings.defaults();
  private String rowKindField;
  private List<String> primaryKeys;
  private List<String> partitionKeys;
  private Integer buckets;
  private Map<String, String> tableOptions;
  private Duration commitInterval = DEFAULT_COMMIT_INTERVAL;
  private String commitUser;
  private int maxBatchRows = DEFAULT_MAX_BATCH_ROWS;
  private List<String> sequenceFields;
  private boolean arrivalOrder;
  private transient ErrorHandler<BadRecord, ?> errorHandler;
  private FaultInjection faults = FaultInjection.NONE;
  private Duration idleWriterTimeout = Duration.millis(WriteBucketFn.DEFAULT_IDLE_TIMEOUT_MILLIS);
  private BucketStage bucketStage = WriteBucketFn::new;

  ChangelakeWrite() {}

  private ChangelakeWrite copy() {
    ChangelakeWrite c = new ChangelakeWrite();
    c.warehouse = warehouse;
    c.database = database;
    c.table = table;
    c.s3 = s3;
    c.rowKindField = rowKindField;
    c.primaryKeys = primaryKeys;
    c.partitionKeys = partitionKeys;
    c.buckets = buckets;
    c.tableOptions = tableOptions;
    c.commitInterval = commitInterval;
    c.commitUser = commitUser;
    c.maxBatchRows = maxBatchRows;
    c.sequenceFields = sequenceFields;
    c.arrivalOrder = arrivalOrder;
    c.errorHandler = errorHandler;
    c.faults = faults;
    c.idleWriterTimeout = idleWriterTimeout;
    c.bucketStage = bucketStage;
    return c;
  }

  /**
   * The table: {@code warehouse} is {@code s3://bucket/prefix}, {@code file:///path} or a local
   * path; the table lives in {@code <warehouse>/<database>.db/<table>/}.
   */
  public ChangelakeWrite to(String warehouse, String database, String table) {
    ChangelakeWrite c = copy();
    c.warehouse = warehouse;
    c.database = database;
    c.table = table;
    return c;
  }

  /** How to reach S3 for an {@code s3://} warehouse; default: AWS, default credential chain. */
  public ChangelakeWrite withS3Settings(S3Settings settings) {
    ChangelakeWrite c = copy();
    c.s3 = settings;
    return c;
  }

  /** The STRING field holding each row's kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}). */
  public ChangelakeWrite withRowKindField(String field) {
    ChangelakeWrite c = copy();
    c.rowKindField = field;
    return c;
  }

  /** Creates the table if missing, with these primary-key columns (the columns: the input's). */
  public ChangelakeWrite withPrimaryKeys(List<String> keys) {
    ChangelakeWrite c = copy();
    c.primaryKeys = List.copyOf(keys);
    return c;
  }

  /** Partition columns of a table created by the write; they must be in the primary key. */
  public ChangelakeWrite withPartitionKeys(List<String> keys) {
    ChangelakeWrite c = copy();
    c.partitionKeys = List.copyOf(keys);
    return c;
  }

  /** The bucket count of a table created by the write (table option {@code bucket}). */
  public ChangelakeWrite withBuckets(int count) {
    ChangelakeWrite c = copy();
    c.buckets = count;
    return c;
  }

  /** Table options of a table created by the write, in Paimon's names. */
  public ChangelakeWrite withTableOptions(Map<String, String> options) {
    ChangelakeWrite c = copy();
    c.tableOptions = Map.copyOf(options);
    return c;
  }

  /** Streaming only: the time between commits. */
  public ChangelakeWrite withCommitInterval(Duration interval) {
    ChangelakeWrite c = copy();
    c.commitInterval = interval;
    return c;
  }

  /**
   * The commit user recorded in every snapshot. Keep it stable across a job's updates and restarts
   * that keep its state; never share it between two running jobs.
   */
  public ChangelakeWrite withCommitUser(String user) {
    ChangelakeWrite c = copy();
    c.commitUser = user;
    return c;
  }

  /** Streaming only: the most rows of one bucket written as one batch. */
  public ChangelakeWrite withMaxBatchRows(int rows) {
    ChangelakeWrite c = copy();
    c.maxBatchRows = rows;
    return c;
  }

  /**
   * The input fields that order the versions of one key: the newest by these fields, compared one
   * after another (nulls first), wins whatever order the rows reach the writer in; equal ones go
   * by arrival. A table the write creates gets them as its {@code sequence.field}; an existing
   * table must already have exactly these as its {@code sequence.field}, which the workers check
   * when they open it (a table's own sequence is what its merge uses). Give a value that grows
   * with each change of a key at its source: a log position, a version, an offset.
   */
  public ChangelakeWrite withSequenceField(String... fields) {
    ChangelakeWrite c = copy();
    c.sequenceFields = List.of(fields);
    return c;
  }

  /**
   * States that each key's rows reach the writer in the order they changed, so that an unbounded
   * write needs no sequence field. True only when both the source and the runner keep per-key
   * order up to this transform: for example one Kafka partition per key read on the DirectRunner,
   * or a TestStream. Dataflow, Flink and Spark may reorder elements after every shuffle (the
   * write's own GroupIntoBatches is one), so on them give {@link #withSequenceField} instead.
   */
  public ChangelakeWrite withArrivalOrder() {
    ChangelakeWrite c = copy();
    c.arrivalOrder = true;
    return c;
  }

  /** Also sends the dead letters to this error handler. */
  public ChangelakeWrite withBadRecordErrorHandler(ErrorHandler<BadRecord, ?> handler) {
    ChangelakeWrite c = copy();
    c.errorHandler = handler;
    return c;
  }

  /** Test hook: closes a bucket writer unused this long (default 10 minutes, see WriteBucketFn). */
  ChangelakeWrite withIdleWriterTimeout(Duration timeout) {
    ChangelakeWrite c = copy();
    c.idleWriterTimeout = timeout;
    return c;
  }

  /** Benchmark hook: another bucket-writer stage in place of {@link WriteBucketFn}. */
  ChangelakeWrite withBucketStage(BucketStage stage) {
    ChangelakeWrite c = copy();
    c.bucketStage = stage;
    return c;
  }

  /** Test hook: see {@link FaultInjection}. */
  ChangelakeWrite withFaultInjection(FaultInjection injection) {
    ChangelakeWrite c = copy();
    c.faults = injection;
    return c;
  }

  @Override
  public WriteResult expand(PCollection<Row> input) {
    TableTarget target = validate(input);
    String user = commitUser != null ? commitUser : "beam-" + UUID.randomUUID();
    boolean bounded = input.isBounded() == PCollection.IsBounded.BOUNDED;

    TupleTag<KV<String, KindedRow>> rowsTag = new TupleTag<>() {};
    TupleTag<BadRecord> rejectedTag = new TupleTag<>() {};
    PCollectionTuple assigned =
        input
            .apply("GlobalWindow", Window.into(new GlobalWindows()))
            .apply(
                "AssignBucket",
                ParDo.of(
                        new AssignBucketFn(
                            target, input.getSchema(), rowKindField, sequenceFields,
                            input.getCoder(), rowsTag, rejectedTag))
                    .withOutputTags(rowsTag, TupleTagList.of(rejectedTag)));
    PCollection<KV<String, KindedRow>> rows =
        assigned.get(rowsTag).setCoder(KvCoder.of(StringUtf8Coder.of(), KindedRowCoder.of()));
    PCollection<KV<String, Iterable<KindedRow>>> batches =
        bounded
            ? rows.apply("GroupByBucket", GroupByKey.create())
            : rows.apply(
                "BatchPerBucket",
                GroupIntoBatches.<String, KindedRow>ofSize(maxBatchRows)
                    .withMaxBufferingDuration(commitInterval));

    TupleTag<KV<String, WrittenBatch>> writtenTag = new TupleTag<>() {};
    TupleTag<BadRecord> refusedTag = new TupleTag<>() {};
    PCollectionTuple written =
        batches.apply(
            "WriteBuckets",
            ParDo.of(
                    bucketStage.create(
                        target, writtenTag, refusedTag, faults, idleWriterTimeout.getMillis()))
                .withOutputTags(writtenTag, TupleTagList.of(refusedTag)));
    PCollection<Row> snapshots =
        written
            .get(writtenTag)
            .setCoder(KvCoder.of(StringUtf8Coder.of(), WrittenBatchCoder.of()))
            .apply(
                "Commit",
                ParDo.of(new CommitFn(target, user, bounded ? null : commitInterval, faults)))
            .setRowSchema(CommitFn.SNAPSHOT_SCHEMA);

    PCollection<BadRecord> deadLetters =
        PCollectionList.of(assigned.get(rejectedTag).setCoder(BadRecord.getCoder(input.getPipeline())))
            .and(written.get(refusedTag).setCoder(BadRecord.getCoder(input.getPipeline())))
            .apply("DeadLetters", Flatten.pCollections());
    if (errorHandler != null) {
      errorHandler.addErrorCollection(deadLetters);
    }
    return new WriteResult(input.getPipeline(), snapshots, deadLetters);
  }

  /** Checks every setting against the input; each message names the setting to fix. */
  private TableTarget validate(PCollection<Row> input) {
    if (warehouse == null || warehouse.isBlank()) {
      throw invalid("to(warehouse, database, table) is required: name the table to write");
    }
    TablePath path;
    try {
      path = new TablePath(database, table);
    } catch (IllegalArgumentException e) {
      throw invalid("to(warehouse, database, table): " + e.getMessage());
    }
    if (!input.hasSchema()) {
      throw invalid("the input PCollection<Row> has no schema: call setRowSchema on it");
    }
    Schema schema = input.getSchema();
    if (rowKindField != null
        && (!schema.hasField(rowKindField)
            || schema.getField(rowKindField).getType().getTypeName() != Schema.TypeName.STRING)) {
      throw invalid(
          "withRowKindField('" + rowKindField + "'): the input has no STRING field of that name"
              + " (fields " + schema.getFieldNames() + ")");
    }
    if (commitInterval == null || !commitInterval.isLongerThan(Duration.ZERO)) {
      throw invalid("withCommitInterval(" + commitInterval + "): give a positive duration");
    }
    if (maxBatchRows < 1) {
      throw invalid("withMaxBatchRows(" + maxBatchRows + "): give at least 1");
    }
    try {
      RowMapping.tableType(schema, rowKindField);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    if (sequenceFields != null) {
      checkSequenceFields(schema);
    }
    TableTarget.Creation creation = creation(schema);
    checkOrdered(input, creation);
    return new TableTarget(warehouse, path, s3, creation);
  }

  private void checkSequenceFields(Schema schema) {
    if (sequenceFields.isEmpty()) {
      throw invalid("withSequenceField(): name at least one field");
    }
    for (String field : sequenceFields) {
      if (!schema.hasField(field) || field.equals(rowKindField)) {
        throw invalid(
            "withSequenceField('" + field + "'): the input has no such column (fields "
                + schema.getFieldNames() + ", the row-kind field excluded)");
      }
    }
  }

  /**
   * Refuses an unbounded write whose result would depend on the order rows arrive in, unless it
   * has a sequence or the user states that arrival order is the change order. A write is
   * order-free only when it creates an aggregation table of plain inserts whose every value
   * column has an aggregate that does not care about order (sum, product, count, min, max,
   * bool_and, bool_or).
   */
  private void checkOrdered(PCollection<Row> input, TableTarget.Creation creation) {
    if (input.isBounded() == PCollection.IsBounded.BOUNDED
        || arrivalOrder
        || sequenceFields != null
        || (creation != null && orderFree(creation))) {
      return;
    }
    throw invalid(
        "an unbounded write of updates or deletes needs the order of each key's changes, and a"
            + " runner such as Dataflow or Flink delivers rows in any order: call"
            + " withSequenceField(<a column that grows with each change of a key, such as a log"
            + " position>), or withArrivalOrder() if the source and the runner keep each key's"
            + " order");
  }

  private static final List<String> ORDER_FREE_AGGREGATES =
      List.of("sum", "product", "count", "min", "max", "bool_and", "bool_or");

  private boolean orderFree(TableTarget.Creation creation) {
    TableOptions options = TableOptions.of(creation.options());
    if (!options.sequenceFields().isEmpty()) {
      return true;
    }
    if (rowKindField != null || options.mergeEngine() != MergeEngine.AGGREGATION) {
      return false;
    }
    for (String column : creation.input().getFieldNames()) {
      if (!creation.primaryKeys().contains(column)
          && !ORDER_FREE_AGGREGATES.contains(options.aggregateFunction(column))) {
        return false;
      }
    }
    return true;
  }

  private TableTarget.Creation creation(Schema schema) {
    if (primaryKeys == null) {
      if (partitionKeys != null || buckets != null || tableOptions != null) {
        throw invalid(
            "withPartitionKeys, withBuckets and withTableOptions describe a table to create:"
                + " also set withPrimaryKeys, or drop them to write an existing table");
      }
      return null;
    }
    Map<String, String> options = new LinkedHashMap<>(tableOptions == null ? Map.of() : tableOptions);
    if (sequenceFields != null) {
      String fields = String.join(",", sequenceFields);
      String given = options.put("sequence.field", fields);
      if (given != null && !given.equals(fields)) {
        throw invalid(
            "withSequenceField(" + fields + ") and table option 'sequence.field'=" + given
                + " disagree: set one of them");
      }
    }
    if (buckets != null) {
      String given = options.put("bucket", Integer.toString(buckets));
      if (given != null && !given.equals(Integer.toString(buckets))) {
        throw invalid(
            "withBuckets(" + buckets + ") and table option 'bucket'=" + given + " disagree: set"
                + " one of them");
      }
    }
    TableTarget.Creation creation =
        new TableTarget.Creation(
            schema,
            rowKindField,
            primaryKeys,
            partitionKeys == null ? List.of() : partitionKeys,
            options);
    try {
      creation.schema();
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return creation;
  }

  private static IllegalArgumentException invalid(String message) {
    return new IllegalArgumentException("ChangelakeIO.write(): " + message);
  }
}
