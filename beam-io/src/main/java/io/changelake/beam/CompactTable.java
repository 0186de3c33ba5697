package io.changelake.beam;

import com.google.auto.value.AutoValue;
import io.changelake.store.S3Settings;
import io.changelake.table.DedicatedCompaction;
import io.changelake.table.Snapshot;
import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.joda.time.Duration;

/**
 * Dedicated compaction as a pipeline of its own, as Paimon's compaction job: on a schedule, or
 * once, compacts the buckets of a {@code write-only} table that other pipelines write, commits
 * under {@link DedicatedCompaction#COMMIT_USER}, expires snapshots, and emits the id of each
 * snapshot it committed.
 *
 * <pre>{@code
 * pipeline.apply(ChangelakeIO.compact()
 *     .from("s3://warehouse/prefix", "shop", "orders")
 *     .every(java.time.Duration.ofMinutes(1)));
 * }</pre>
 *
 * <p>Each run happens in one DoFn call (one worker), so runs never race each other; a run that
 * fails (a conflict with a concurrent compaction, an S3 outage) fails the bundle and the runner
 * retries it.
 */
@AutoValue
public abstract class CompactTable extends PTransform<PBegin, PCollection<Long>> {
  private static final long serialVersionUID = 1L;

  abstract @Nullable TableReference getSource();

  abstract @Nullable java.time.Duration getEvery();

  abstract boolean getFull();

  abstract String getPartitionPrefix();

  abstract Builder toBuilder();

  @AutoValue.Builder
  abstract static class Builder {
    abstract Builder setSource(TableReference source);

    abstract Builder setEvery(java.time.Duration interval);

    abstract Builder setFull(boolean full);

    abstract Builder setPartitionPrefix(String prefix);

    abstract CompactTable build();
  }

  /** A single universal compaction of every partition, with no table yet. */
  static CompactTable create() {
    return new AutoValue_CompactTable.Builder().setFull(false).setPartitionPrefix("").build();
  }

  /** The table: {@code database.table} in the warehouse at {@code warehouse}. */
  public CompactTable from(String warehouse, String database, String table) {
    return toBuilder().setSource(TableReference.of(warehouse, database, table)).build();
  }

  /** How to reach S3 for an {@code s3://} warehouse. */
  public CompactTable withS3Settings(S3Settings settings) {
    return toBuilder().setSource(requireSource().withS3Settings(settings)).build();
  }

  /** Compacts every {@code interval}, unbounded; without it the transform compacts once. */
  public CompactTable every(java.time.Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "the compaction interval must be positive, got " + interval);
    }
    return toBuilder().setEvery(interval).build();
  }

  /** Full compactions (every bucket into its top level) instead of universal picks. */
  public CompactTable full() {
    return toBuilder().setFull(true).build();
  }

  /** Only the partitions whose folder starts with {@code prefix} ({@code k=v/...}). */
  public CompactTable withPartitionPrefix(String prefix) {
    return toBuilder().setPartitionPrefix(prefix).build();
  }

  private TableReference requireSource() {
    if (getSource() == null) {
      throw new IllegalStateException(
          "no table to compact: call from(warehouse, database, table) first");
    }
    return getSource();
  }

  @Override
  public PCollection<Long> expand(PBegin input) {
    TableReference table = requireSource();
    java.time.Duration every = getEvery();
    GenerateSequence ticks =
        every == null
            ? GenerateSequence.from(0).to(1)
            : GenerateSequence.from(0).withRate(1, Duration.millis(every.toMillis()));
    return input
        .apply("Schedule", ticks)
        .apply("Compact", ParDo.of(new CompactFn(table, getFull(), getPartitionPrefix())));
  }

  /** One compaction run per tick. */
  private static final class CompactFn extends DoFn<Long, Long> {
    private static final long serialVersionUID = 1L;

    private final TableReference source;
    private final boolean full;
    private final String partitionPrefix;

    CompactFn(TableReference source, boolean full, String partitionPrefix) {
      this.source = source;
      this.full = full;
      this.partitionPrefix = partitionPrefix;
    }

    @ProcessElement
    public void processElement(OutputReceiver<Long> out) throws IOException {
      try (TableReference.Opened opened = source.open()) {
        DedicatedCompaction.Compacted done =
            opened.table().newCompaction().run(full, partitionPrefix);
        for (Snapshot s : done.snapshots()) {
          out.output(s.id());
        }
      }
    }
  }
}
