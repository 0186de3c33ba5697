package io.changelake.beam;

import io.changelake.store.S3Settings;
import io.changelake.schema.ChangelogProducer;
import io.changelake.table.ChangelogTask;
import io.changelake.schema.MergeEngine;
import io.changelake.table.Table;
import io.changelake.schema.TableOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.transforms.Select;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTagList;

/**
 * A read of a table's changelog, following new snapshots or bounded by an end snapshot; see
 * {@link ChangelakeIO#readChangelog()} for the options and the output.
 *
 * <p>Topology: {@code Impulse -> ResolveStart -> WatchSnapshots (splittable) + state tasks ->
 * Reshuffle -> ReadTasks [-> NormalizeChanges -> Select]}.
 */
public final class ReadChangelog extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  /** Names of the metadata fields the normalize step needs when the user did not ask for them. */
  private static final String INTERNAL_SNAPSHOT = "_changelake_snapshot_id";
  private static final String INTERNAL_SEQUENCE = "_changelake_sequence_number";

  private SourceTable source;
  private ChangelogStart start =
      new ChangelogStart(ChangelogStart.Mode.LATEST_FULL, 0, null, null);
  private Long endSnapshot;
  private Duration pollInterval = Duration.ofSeconds(10);
  private List<String> columns = List.of();
  private SerializableFunction<Row, Boolean> partitionFilter;
  private String rowKindField = "_row_kind";
  private String snapshotIdField;
  private String sequenceNumberField;
  private boolean normalize;
  private boolean rawRows;
  private boolean waitForTable;

  ReadChangelog() {}

  private ReadChangelog copy() {
    ReadChangelog copy = new ReadChangelog();
    copy.source = source;
    copy.start = start;
    copy.endSnapshot = endSnapshot;
    copy.pollInterval = pollInterval;
    copy.columns = columns;
    copy.partitionFilter = partitionFilter;
    copy.rowKindField = rowKindField;
    copy.snapshotIdField = snapshotIdField;
    copy.sequenceNumberField = sequenceNumberField;
    copy.normalize = normalize;
    copy.rawRows = rawRows;
    copy.waitForTable = waitForTable;
    return copy;
  }

  /**
   * The table to read: {@code database.table} in the warehouse at {@code warehouse}
   * ({@code s3://bucket/prefix}, {@code file:///path} or a local path).
   */
  public ReadChangelog from(String warehouse, String database, String table) {
    ReadChangelog copy = copy();
    copy.source = new SourceTable(warehouse, S3Settings.defaults(), database, table);
    return copy;
  }

  /** How to reach S3 for an {@code s3://} warehouse; default {@link S3Settings#defaults()}. */
  public ReadChangelog withS3Settings(S3Settings settings) {
    ReadChangelog copy = copy();
    copy.source = requireSource().withS3Settings(settings);
    return copy;
  }

  /** The default start: the latest snapshot's rows as +I, then every later change. */
  public ReadChangelog latestFull() {
    return startingAt(ChangelogStart.Mode.LATEST_FULL, 0);
  }

  /** Only changes committed after the latest snapshot at start. */
  public ReadChangelog latest() {
    return startingAt(ChangelogStart.Mode.LATEST, 0);
  }

  /** The changes of snapshot {@code snapshotId} and every later one. */
  public ReadChangelog fromSnapshot(long snapshotId) {
    return startingAt(ChangelogStart.Mode.FROM_SNAPSHOT, snapshotId);
  }

  /** The changes of the first snapshot committed at or after {@code epochMillis}, and later. */
  public ReadChangelog fromTimestamp(long epochMillis) {
    return startingAt(ChangelogStart.Mode.FROM_TIMESTAMP, epochMillis);
  }

  /**
   * The rows of the snapshot tagged {@code tagName} as +I, then the changes of every later
   * snapshot (Paimon's {@code scan.tag-name} as a starting point).
   */
  public ReadChangelog fromTag(String tagName) {
    ReadChangelog copy = copy();
    copy.start = new ChangelogStart(ChangelogStart.Mode.FROM_TAG, 0, tagName, start.consumerId());
    return copy;
  }

  /**
   * A bounded read of the changes of the snapshots after {@code startExclusive} up to {@code
   * endInclusive}, as Paimon's {@code incremental-between}.
   */
  public ReadChangelog betweenSnapshots(long startExclusive, long endInclusive) {
    if (startExclusive >= endInclusive) {
      throw new IllegalArgumentException(
          "the snapshot range (" + startExclusive + ", " + endInclusive + "] is empty or"
              + " reversed: give the older snapshot first");
    }
    return fromSnapshot(startExclusive + 1).untilSnapshot(endInclusive);
  }

  /**
   * Stops after snapshot {@code endInclusive}, making the read bounded; if that snapshot is not
   * committed yet, the read waits for it.
   */
  public ReadChangelog untilSnapshot(long endInclusive) {
    ReadChangelog copy = copy();
    copy.endSnapshot = endInclusive;
    return copy;
  }

  private ReadChangelog startingAt(ChangelogStart.Mode mode, long value) {
    ReadChangelog copy = copy();
    copy.start = new ChangelogStart(mode, value, null, start.consumerId());
    return copy;
  }

  /**
   * Records progress as consumer {@code consumerId} and, when it has recorded some, resumes
   * there instead of at the starting point. Expiry keeps the snapshots it has yet to read.
   */
  public ReadChangelog withConsumerId(String consumerId) {
    ReadChangelog copy = copy();
    copy.start = start.withConsumerId(consumerId);
    return copy;
  }

  /** How long to wait before looking again when no new snapshot is there; default 10 s. */
  public ReadChangelog withPollInterval(Duration interval) {
    ReadChangelog copy = copy();
    copy.pollInterval = interval;
    return copy;
  }

  /** Emits only these table columns, in this order (metadata fields follow). */
  public ReadChangelog withColumns(String... names) {
    ReadChangelog copy = copy();
    copy.columns = Arrays.asList(names);
    return copy;
  }

  /** Reads only partitions for which {@code filter} holds, given a Row of partition columns. */
  public ReadChangelog withPartitionFilter(SerializableFunction<Row, Boolean> filter) {
    ReadChangelog copy = copy();
    copy.partitionFilter = filter;
    return copy;
  }

  /** The name of the row-kind field ({@code +I}, {@code -U}, {@code +U}, {@code -D}). */
  public ReadChangelog withRowKindField(String name) {
    ReadChangelog copy = copy();
    copy.rowKindField = name;
    return copy;
  }

  /** Adds a field {@code name} (INT64) holding the snapshot id of each change. */
  public ReadChangelog withSnapshotIdField(String name) {
    ReadChangelog copy = copy();
    copy.snapshotIdField = name;
    return copy;
  }

  /** Adds a field {@code name} (INT64) holding the sequence number of each change. */
  public ReadChangelog withSequenceNumberField(String name) {
    ReadChangelog copy = copy();
    copy.sequenceNumberField = name;
    return copy;
  }

  /**
   * For {@code changelog-producer=none} tables: rebuilds -U/+U with state per key (see the cost in
   * {@link ChangelakeIO}).
   */
  public ReadChangelog withNormalize() {
    ReadChangelog copy = copy();
    copy.normalize = true;
    return copy;
  }

  /**
   * Allows a {@code none} read of a partial-update, aggregation or first-row table, whose rows
   * are then the raw inputs, not merged rows.
   */
  public ReadChangelog withRawRows() {
    ReadChangelog copy = copy();
    copy.rawRows = true;
    return copy;
  }

  /** Waits, at pipeline construction, for the table to be created instead of failing. */
  public ReadChangelog withWaitForTable() {
    ReadChangelog copy = copy();
    copy.waitForTable = true;
    return copy;
  }

  private SourceTable requireSource() {
    if (source == null) {
      throw new IllegalStateException(
          "no table to read: call from(warehouse, database, table) first");
    }
    return source;
  }

  @Override
  public PCollection<Row> expand(PBegin input) {
    SourceTable table = requireSource();
    Table t;
    try (SourceTable.Opened opened =
        waitForTable ? table.awaitOpen(pollInterval) : table.open()) {
      t = opened.table();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    checkReadable(t.options(), t.location());
    PartitionFilter partitions = PartitionFilter.forTable(t, partitionFilter);
    // Normalizing needs every column and the version of each row; Select trims them afterwards.
    String snapshotName = snapshotIdField != null ? snapshotIdField : INTERNAL_SNAPSHOT;
    String sequenceName = sequenceNumberField != null ? sequenceNumberField : INTERNAL_SEQUENCE;
    OutputShape readShape =
        normalize
            ? new OutputShape(
                t.schema().rowType(), List.of(), rowKindField, snapshotName, sequenceName)
            : new OutputShape(
                t.schema().rowType(), columns, rowKindField, snapshotIdField, sequenceNumberField);
    // Built also when normalizing, to check the names the user gave before the pipeline runs.
    OutputShape userShape =
        new OutputShape(
            t.schema().rowType(), columns, rowKindField, snapshotIdField, sequenceNumberField);

    PCollectionTuple started =
        input
            .apply(Impulse.create())
            .apply(
                "ResolveStart",
                ParDo.of(new ResolveStartFn(table, start, partitions))
                    .withOutputTags(
                        ResolveStartFn.FIRST_SNAPSHOT,
                        TupleTagList.of(ResolveStartFn.STATE_TASKS)));
    PCollection<ChangelogTask> stateTasks =
        started.get(ResolveStartFn.STATE_TASKS).setCoder(ChangelogTaskCoder.of());
    WatchSnapshotsFn watch =
        endSnapshot == null
            ? new WatchSnapshotsFn.Unbounded(table, pollInterval, start.consumerId(), partitions)
            : new WatchSnapshotsFn.Bounded(
                table, endSnapshot, pollInterval, start.consumerId(), partitions);
    PCollection<ChangelogTask> changeTasks =
        started
            .get(ResolveStartFn.FIRST_SNAPSHOT)
            .setCoder(VarLongCoder.of())
            .apply("WatchSnapshots", ParDo.of(watch))
            .setCoder(ChangelogTaskCoder.of());
    PCollection<Row> rows =
        PCollectionList.of(stateTasks)
            .and(changeTasks)
            .apply("AllTasks", Flatten.pCollections())
            .apply("SpreadTasks", Reshuffle.viaRandomKey())
            .apply("ReadTasks", ParDo.of(new ReadTaskFn(table, readShape)))
            .setRowSchema(readShape.schema());
    if (!normalize) {
      return rows;
    }
    List<String> keep = new ArrayList<>(userShape.columns());
    keep.add(rowKindField);
    if (snapshotIdField != null) {
      keep.add(snapshotIdField);
    }
    if (sequenceNumberField != null) {
      keep.add(sequenceNumberField);
    }
    return rows.apply(
            "NormalizeChanges",
            new NormalizeChanges(
                t.schema().primaryKeys(),
                readShape.columns(),
                rowKindField,
                snapshotName,
                sequenceName))
        .apply("SelectColumns", Select.fieldNames(keep.toArray(String[]::new)));
  }

  /**
   * Refuses the reads that would emit something other than the user expects: unmerged raw rows of
   * merging engines under {@code none} (as Paimon's Flink connector does), and a normalize step
   * on a table whose producer already emits -U/+U.
   */
  private void checkReadable(TableOptions options, String location) {
    ChangelogProducer producer = options.changelogProducer();
    MergeEngine engine = options.mergeEngine();
    if (producer == ChangelogProducer.NONE && engine != MergeEngine.DEDUPLICATE && !rawRows) {
      String fix =
          engine == MergeEngine.FIRST_ROW
              ? "'changelog-producer' = 'lookup'"
              : "'changelog-producer' = 'lookup' (or 'full-compaction')";
      throw new IllegalArgumentException(
          "table " + location + " has merge-engine=" + engine.value() + " and changelog-producer"
              + "=none: its changelog would be the raw input rows, not the merged rows. Set " + fix
              + " on the table to read merged changes, or call withRawRows() to read the raw"
              + " rows on purpose");
    }
    if (normalize && producer != ChangelogProducer.NONE) {
      throw new IllegalArgumentException(
          "withNormalize() is for changelog-producer=none tables; " + location + " has"
              + " changelog-producer=" + producer.value() + ", whose changelog already carries"
              + " -U/+U: drop withNormalize()");
    }
  }
}
