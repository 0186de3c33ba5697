package io.changelake.beam;

import com.google.auto.value.AutoValue;
import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.Reshuffle;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * A batch read of a table's rows as of one snapshot; see {@link ChangelakeIO#read()} for the
 * options and the output.
 *
 * <p>Topology: {@code Impulse -> PlanSnapshotRead (one task per partition and bucket) -> Reshuffle
 * -> ReadTasks}.
 */
@AutoValue
public abstract class ReadRows extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  abstract @Nullable TableReference getSource();

  abstract @Nullable Long getSnapshotId();

  abstract @Nullable Long getAsOfMillis();

  abstract @Nullable String getTagName();

  abstract List<String> getColumns();

  abstract @Nullable SerializableFunction<Row, Boolean> getPartitionFilter();

  abstract Builder toBuilder();

  @AutoValue.Builder
  abstract static class Builder {
    abstract Builder setSource(TableReference source);

    abstract Builder setSnapshotId(@Nullable Long id);

    abstract Builder setAsOfMillis(@Nullable Long epochMillis);

    abstract Builder setTagName(@Nullable String name);

    abstract Builder setColumns(List<String> columns);

    abstract Builder setPartitionFilter(SerializableFunction<Row, Boolean> filter);

    abstract ReadRows build();
  }

  /** The read with every option at its default and no table yet. */
  static ReadRows create() {
    return new AutoValue_ReadRows.Builder().setColumns(List.of()).build();
  }

  /**
   * The table to read: {@code database.table} in the warehouse at {@code warehouse} ({@code
   * s3://bucket/prefix}, {@code file:///path} or a local path).
   */
  public ReadRows from(String warehouse, String database, String table) {
    return toBuilder().setSource(TableReference.of(warehouse, database, table)).build();
  }

  /** How to reach S3 for an {@code s3://} warehouse; default {@link S3Settings#defaults()}. */
  public ReadRows withS3Settings(S3Settings settings) {
    return toBuilder().setSource(requireSource().withS3Settings(settings)).build();
  }

  /** Reads snapshot {@code id} instead of the latest; an id that does not exist fails the read. */
  public ReadRows atSnapshot(long id) {
    return toBuilder().setSnapshotId(id).setAsOfMillis(null).setTagName(null).build();
  }

  /** Reads the newest snapshot committed at or before {@code epochMillis}. */
  public ReadRows asOfTimestamp(long epochMillis) {
    return toBuilder().setAsOfMillis(epochMillis).setSnapshotId(null).setTagName(null).build();
  }

  /**
   * Reads the snapshot tagged {@code name} (Paimon's {@code scan.tag-name}), which stays readable
   * after the snapshot itself expired; a tag that does not exist fails the read.
   */
  public ReadRows atTag(String name) {
    return toBuilder().setTagName(name).setSnapshotId(null).setAsOfMillis(null).build();
  }

  /**
   * Emits only these columns, in this order. The others are neither fetched nor decoded where the
   * rows need no merge or the newest version of a key wins (a deduplicate table without {@code
   * sequence.field}); other merge engines merge whole rows, then cut them down.
   */
  public ReadRows withColumns(String... names) {
    return toBuilder().setColumns(List.of(names)).build();
  }

  /**
   * Reads only the partitions for which {@code filter} returns true, given a Row of the partition
   * columns; other partitions are never opened.
   */
  public ReadRows withPartitionFilter(SerializableFunction<Row, Boolean> filter) {
    return toBuilder().setPartitionFilter(filter).build();
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
    OutputShape shape;
    PartitionFilter partitions;
    try (TableReference.Opened opened = table.open()) {
      Table t = opened.table();
      shape = new OutputShape(t.schema().rowType(), getColumns(), null, null, null);
      partitions = PartitionFilter.forTable(t, getPartitionFilter());
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    return input
        .apply(Impulse.create())
        .apply(
            "PlanSnapshotRead",
            ParDo.of(
                new PlanSnapshotReadFn(
                    table, getSnapshotId(), getAsOfMillis(), getTagName(), partitions)))
        .setCoder(ChangelogTaskCoder.of())
        .apply("SpreadTasks", Reshuffle.viaRandomKey())
        .apply("ReadTasks", ParDo.of(new ReadTaskFn(table, shape)))
        .setRowSchema(shape.schema());
  }
}
