package io.changelake.beam;

import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
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
 * <p>Topology: {@code Impulse -> PlanSnapshotRead (one task per partition and bucket) ->
 * Reshuffle -> ReadTasks}.
 */
public final class ReadRows extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  private SourceTable source;
  private Long snapshotId;
  private Long asOfMillis;
  private String tagName;
  private List<String> columns = List.of();
  private SerializableFunction<Row, Boolean> partitionFilter;

  ReadRows() {}

  private ReadRows copy() {
    ReadRows copy = new ReadRows();
    copy.source = source;
    copy.snapshotId = snapshotId;
    copy.asOfMillis = asOfMillis;
    copy.tagName = tagName;
    copy.columns = columns;
    copy.partitionFilter = partitionFilter;
    return copy;
  }

  /**
   * The table to read: {@code database.table} in the warehouse at {@code warehouse}
   * ({@code s3://bucket/prefix}, {@code file:///path} or a local path).
   */
  public ReadRows from(String warehouse, String database, String table) {
    ReadRows copy = copy();
    copy.source = new SourceTable(warehouse, S3Settings.defaults(), database, table);
    return copy;
  }

  /** How to reach S3 for an {@code s3://} warehouse; default {@link S3Settings#defaults()}. */
  public ReadRows withS3Settings(S3Settings settings) {
    ReadRows copy = copy();
    copy.source = requireSource().withS3Settings(settings);
    return copy;
  }

  /** Reads snapshot {@code id} instead of the latest; an id that does not exist fails the read. */
  public ReadRows atSnapshot(long id) {
    ReadRows copy = copy();
    copy.snapshotId = id;
    copy.asOfMillis = null;
    copy.tagName = null;
    return copy;
  }

  /** Reads the newest snapshot committed at or before {@code epochMillis}. */
  public ReadRows asOfTimestamp(long epochMillis) {
    ReadRows copy = copy();
    copy.asOfMillis = epochMillis;
    copy.snapshotId = null;
    copy.tagName = null;
    return copy;
  }

  /**
   * Reads the snapshot tagged {@code name} (Paimon's {@code scan.tag-name}), which stays readable
   * after the snapshot itself expired; a tag that does not exist fails the read.
   */
  public ReadRows atTag(String name) {
    ReadRows copy = copy();
    copy.tagName = name;
    copy.snapshotId = null;
    copy.asOfMillis = null;
    return copy;
  }

  /** Emits only these columns, in this order. */
  public ReadRows withColumns(String... names) {
    ReadRows copy = copy();
    copy.columns = Arrays.asList(names);
    return copy;
  }

  /**
   * Reads only the partitions for which {@code filter} returns true, given a Row of the partition
   * columns; other partitions are never opened.
   */
  public ReadRows withPartitionFilter(SerializableFunction<Row, Boolean> filter) {
    ReadRows copy = copy();
    copy.partitionFilter = filter;
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
    OutputShape shape;
    PartitionFilter partitions;
    try (SourceTable.Opened opened = table.open()) {
      Table t = opened.table();
      shape = new OutputShape(t.schema().rowType(), columns, null, null, null);
      partitions = PartitionFilter.forTable(t, partitionFilter);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    return input
        .apply(Impulse.create())
        .apply(
            "PlanSnapshotRead",
            ParDo.of(new PlanSnapshotReadFn(table, snapshotId, asOfMillis, tagName, partitions)))
        .setCoder(ChangelogTaskCoder.of())
        .apply("SpreadTasks", Reshuffle.viaRandomKey())
        .apply("ReadTasks", ParDo.of(new ReadTaskFn(table, shape)))
        .setRowSchema(shape.schema());
  }
}
