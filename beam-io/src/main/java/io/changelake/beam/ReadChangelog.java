package io.changelake.beam;

import com.google.auto.value.AutoValue;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.store.S3Settings;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Table;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
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
 * A read of a table's changelog, following new snapshots or bounded by an end snapshot; see {@link
 * ChangelakeIO#readChangelog()} for the options and the output.
 *
 * <p>Topology: {@code Impulse -> ResolveStart -> WatchSnapshots (splittable) + state tasks ->
 * Reshuffle -> ReadTasks [-> NormalizeChanges -> Select]}.
 */
@AutoValue
public abstract class ReadChangelog extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  /** Names of the metadata fields the normalize step needs when the user did not ask for them. */
  private static final String INTERNAL_SNAPSHOT = "_changelake_snapshot_id";

  private static final String INTERNAL_SEQUENCE = "_changelake_sequence_number";

  abstract @Nullable TableReference getSource();

  abstract ChangelogStart getStart();

  abstract @Nullable Long getEndSnapshot();

  abstract Duration getPollInterval();

  abstract List<String> getColumns();

  abstract @Nullable SerializableFunction<Row, Boolean> getPartitionFilter();

  abstract @Nullable String getRowKindField();

  abstract @Nullable String getSnapshotIdField();

  abstract @Nullable String getSequenceNumberField();

  abstract boolean getNormalize();

  abstract boolean getRawRows();

  abstract boolean getWaitForTable();

  abstract Builder toBuilder();

  @AutoValue.Builder
  abstract static class Builder {
    abstract Builder setSource(TableReference source);

    abstract Builder setStart(ChangelogStart start);

    abstract Builder setEndSnapshot(Long endInclusive);

    abstract Builder setPollInterval(Duration interval);

    abstract Builder setColumns(List<String> columns);

    abstract Builder setPartitionFilter(SerializableFunction<Row, Boolean> filter);

    abstract Builder setRowKindField(String name);

    abstract Builder setSnapshotIdField(String name);

    abstract Builder setSequenceNumberField(String name);

    abstract Builder setNormalize(boolean normalize);

    abstract Builder setRawRows(boolean rawRows);

    abstract Builder setWaitForTable(boolean waitForTable);

    abstract ReadChangelog build();
  }

  /** The read with every option at its default and no table yet. */
  static ReadChangelog create() {
    return new AutoValue_ReadChangelog.Builder()
        .setStart(new ChangelogStart(ChangelogStart.Mode.LATEST_FULL, 0, null, null))
        .setPollInterval(Duration.ofSeconds(10))
        .setColumns(List.of())
        .setRowKindField("_row_kind")
        .setNormalize(false)
        .setRawRows(false)
        .setWaitForTable(false)
        .build();
  }

  /**
   * The table to read: {@code database.table} in the warehouse at {@code warehouse} ({@code
   * s3://bucket/prefix}, {@code file:///path} or a local path).
   */
  public ReadChangelog from(String warehouse, String database, String table) {
    return toBuilder().setSource(TableReference.of(warehouse, database, table)).build();
  }

  /** How to reach S3 for an {@code s3://} warehouse; default {@link S3Settings#defaults()}. */
  public ReadChangelog withS3Settings(S3Settings settings) {
    return toBuilder().setSource(requireSource().withS3Settings(settings)).build();
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
   * The rows of the snapshot tagged {@code tagName} as +I, then the changes of every later snapshot
   * (Paimon's {@code scan.tag-name} as a starting point).
   */
  public ReadChangelog fromTag(String tagName) {
    String consumer = getStart().consumerId();
    return toBuilder()
        .setStart(new ChangelogStart(ChangelogStart.Mode.FROM_TAG, 0, tagName, consumer))
        .build();
  }

  /**
   * A bounded read of the changes of the snapshots after {@code startExclusive} up to {@code
   * endInclusive}, as Paimon's {@code incremental-between}.
   */
  public ReadChangelog betweenSnapshots(long startExclusive, long endInclusive) {
    if (startExclusive >= endInclusive) {
      throw new IllegalArgumentException(
          "the snapshot range ("
              + startExclusive
              + ", "
              + endInclusive
              + "] is empty or"
              + " reversed: give the older snapshot first");
    }
    return fromSnapshot(startExclusive + 1).untilSnapshot(endInclusive);
  }

  /**
   * Stops after snapshot {@code endInclusive}, making the read bounded; if that snapshot is not
   * committed yet, the read waits for it.
   */
  public ReadChangelog untilSnapshot(long endInclusive) {
    return toBuilder().setEndSnapshot(endInclusive).build();
  }

  private ReadChangelog startingAt(ChangelogStart.Mode mode, long value) {
    return toBuilder()
        .setStart(new ChangelogStart(mode, value, null, getStart().consumerId()))
        .build();
  }

  /**
   * Records progress as consumer {@code consumerId} and, when it has recorded some, resumes there
   * instead of at the starting point. Expiry keeps the snapshots it has yet to read.
   */
  public ReadChangelog withConsumerId(String consumerId) {
    return toBuilder().setStart(getStart().withConsumerId(consumerId)).build();
  }

  /** How long to wait before looking again when no new snapshot is there; default 10 s. */
  public ReadChangelog withPollInterval(Duration interval) {
    return toBuilder().setPollInterval(interval).build();
  }

  /**
   * Emits only these table columns, in this order (metadata fields follow); the other columns of a
   * changelog file are neither fetched nor decoded (with {@link #withNormalize()}, every column is
   * read: its state needs them).
   */
  public ReadChangelog withColumns(String... names) {
    return toBuilder().setColumns(List.of(names)).build();
  }

  /** Reads only partitions for which {@code filter} holds, given a Row of partition columns. */
  public ReadChangelog withPartitionFilter(SerializableFunction<Row, Boolean> filter) {
    return toBuilder().setPartitionFilter(filter).build();
  }

  /** The name of the row-kind field ({@code +I}, {@code -U}, {@code +U}, {@code -D}). */
  public ReadChangelog withRowKindField(String name) {
    return toBuilder().setRowKindField(name).build();
  }

  /** Adds a field {@code name} (INT64) holding the snapshot id of each change. */
  public ReadChangelog withSnapshotIdField(String name) {
    return toBuilder().setSnapshotIdField(name).build();
  }

  /** Adds a field {@code name} (INT64) holding the sequence number of each change. */
  public ReadChangelog withSequenceNumberField(String name) {
    return toBuilder().setSequenceNumberField(name).build();
  }

  /**
   * For {@code changelog-producer=none} tables: rebuilds -U/+U with state per key (see the cost in
   * {@link ChangelakeIO}).
   */
  public ReadChangelog withNormalize() {
    return toBuilder().setNormalize(true).build();
  }

  /**
   * Allows a {@code none} read of a partial-update, aggregation or first-row table, whose rows are
   * then the raw inputs, not merged rows.
   */
  public ReadChangelog withRawRows() {
    return toBuilder().setRawRows(true).build();
  }

  /** Waits, at pipeline construction, for the table to be created instead of failing. */
  public ReadChangelog withWaitForTable() {
    return toBuilder().setWaitForTable(true).build();
  }

  private TableReference requireSource() {
    if (getSource() == null) {
      throw new IllegalStateException(
          "no table to read: call from(warehouse, database, table) first");
    }
    return getSource();
  }

  @Override
  public PCollection<Row> expand(PBegin input) {
    TableReference table = requireSource();
    Table t;
    try (TableReference.Opened opened =
        getWaitForTable() ? table.awaitOpen(getPollInterval()) : table.open()) {
      t = opened.table();
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    checkReadable(t.options(), t.location());
    PartitionFilter partitions = PartitionFilter.forTable(t, getPartitionFilter());
    RowType rowType = t.schema().rowType();
    String rowKind = getRowKindField();
    String snapshotField = getSnapshotIdField();
    String sequenceField = getSequenceNumberField();
    // Normalizing needs every column and the version of each row; Select trims them afterwards.
    String snapshotName = snapshotField != null ? snapshotField : INTERNAL_SNAPSHOT;
    String sequenceName = sequenceField != null ? sequenceField : INTERNAL_SEQUENCE;
    // Built also when normalizing, to check the names the user gave before the pipeline runs.
    OutputShape userShape =
        new OutputShape(rowType, getColumns(), rowKind, snapshotField, sequenceField);
    OutputShape readShape =
        getNormalize()
            ? new OutputShape(rowType, List.of(), rowKind, snapshotName, sequenceName)
            : userShape;

    PCollectionTuple started =
        input
            .apply(Impulse.create())
            .apply(
                "ResolveStart",
                ParDo.of(new ResolveStartFn(table, getStart(), partitions))
                    .withOutputTags(
                        ResolveStartFn.FIRST_SNAPSHOT,
                        TupleTagList.of(ResolveStartFn.STATE_TASKS)));
    PCollection<ChangelogTask> stateTasks =
        started.get(ResolveStartFn.STATE_TASKS).setCoder(ChangelogTaskCoder.of());
    String consumer = getStart().consumerId();
    WatchSnapshotsFn watch =
        getEndSnapshot() == null
            ? new WatchSnapshotsFn.Unbounded(table, getPollInterval(), consumer, partitions)
            : new WatchSnapshotsFn.Bounded(
                table, getEndSnapshot(), getPollInterval(), consumer, partitions);
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
    if (!getNormalize()) {
      return rows;
    }
    List<String> keep = new ArrayList<>(userShape.columns());
    keep.add(rowKind);
    if (snapshotField != null) {
      keep.add(snapshotField);
    }
    if (sequenceField != null) {
      keep.add(sequenceField);
    }
    return rows.apply(
            "NormalizeChanges",
            new NormalizeChanges(
                t.schema().primaryKeys(), readShape.columns(), rowKind, snapshotName, sequenceName))
        .apply("SelectColumns", Select.fieldNames(keep.toArray(String[]::new)));
  }

  /**
   * Refuses the reads that would emit something other than the user expects: unmerged raw rows of
   * merging engines under {@code none} (as Paimon's Flink connector does), and a normalize step on
   * a table whose producer already emits -U/+U.
   */
  private void checkReadable(TableOptions options, String location) {
    ChangelogProducer producer = options.changelogProducer();
    MergeEngine engine = options.mergeEngine();
    if (producer == ChangelogProducer.NONE && engine != MergeEngine.DEDUPLICATE && !getRawRows()) {
      String fix =
          engine == MergeEngine.FIRST_ROW
              ? "'changelog-producer' = 'lookup'"
              : "'changelog-producer' = 'lookup' (or 'full-compaction')";
      throw new IllegalArgumentException(
          "table "
              + location
              + " has merge-engine="
              + engine.value()
              + " and changelog-producer"
              + "=none: its changelog would be the raw input rows, not the merged rows. Set "
              + fix
              + " on the table to read merged changes, or call withRawRows() to read the raw"
              + " rows on purpose");
    }
    if (getNormalize() && producer != ChangelogProducer.NONE) {
      throw new IllegalArgumentException(
          "withNormalize() is for changelog-producer=none tables; "
              + location
              + " has"
              + " changelog-producer="
              + producer.value()
              + ", whose changelog already carries"
              + " -U/+U: drop withNormalize()");
    }
  }
}
