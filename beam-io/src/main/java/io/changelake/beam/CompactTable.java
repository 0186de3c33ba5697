package io.changelake.beam;

import io.changelake.store.S3Settings;
import io.changelake.table.DedicatedCompaction;
import io.changelake.table.Snapshot;
import java.io.IOException;
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
public final class CompactTable extends PTransform<PBegin, PCollection<Long>> {
  private static final long serialVersionUID = 1L;

  private SourceTable source;
  private java.time.Duration every;
  private boolean full;
  private String partitionPrefix = "";

  CompactTable() {}

  private CompactTable copy() {
    CompactTable copy = new CompactTable();
    copy.source = source;
    copy.every = every;
    copy.full = full;
    copy.partitionPrefix = partitionPrefix;
    return copy;
  }

  /** The table: {@code database.table} in the warehouse at {@code warehouse}. */
  public CompactTable from(String warehouse, String database, String table) {
    CompactTable copy = copy();
    copy.source = new SourceTable(warehouse, S3Settings.defaults(), database, table);
    return copy;
  }

  /** How to reach S3 for an {@code s3://} warehouse. */
  public CompactTable withS3Settings(S3Settings settings) {
    CompactTable copy = copy();
    copy.source = requireSource().withS3Settings(settings);
    return copy;
  }

  /** Compacts every {@code interval}, unbounded; without it the transform compacts once. */
  public CompactTable every(java.time.Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "the compaction interval must be positive, got " + interval);
    }
    CompactTable copy = copy();
    copy.every = interval;
    return copy;
  }

  /** Full compactions (every bucket into its top level) instead of universal picks. */
  public CompactTable full() {
    CompactTable copy = copy();
    copy.full = true;
    return copy;
  }

  /** Only the partitions whose folder starts with {@code prefix} ({@code k=v/...}). */
  public CompactTable withPartitionPrefix(String prefix) {
    CompactTable copy = copy();
    copy.partitionPrefix = prefix;
    return copy;
  }

  private SourceTable requireSource() {
    if (source == null) {
      throw new IllegalStateException(
          "no table to compact: call from(warehouse, database, table) first");
    }
    return source;
  }

  @Override
  public PCollection<Long> expand(PBegin input) {
    SourceTable table = requireSource();
    GenerateSequence ticks =
        every == null
            ? GenerateSequence.from(0).to(1)
            : GenerateSequence.from(0).withRate(1, Duration.millis(every.toMillis()));
    return input
        .apply("Schedule", ticks)
        .apply("Compact", ParDo.of(new CompactFn(table, full, partitionPrefix)));
  }

  /** One compaction run per tick. */
  private static final class CompactFn extends DoFn<Long, Long> {
    private static final long serialVersionUID = 1L;

    private final SourceTable source;
    private final boolean full;
    private final String partitionPrefix;

    CompactFn(SourceTable source, boolean full, String partitionPrefix) {
      this.source = source;
      this.full = full;
      this.partitionPrefix = partitionPrefix;
    }

    @ProcessElement
    public void processElement(OutputReceiver<Long> out) throws IOException {
      try (SourceTable.Opened opened = source.open()) {
        DedicatedCompaction.Compacted done =
            opened.table().newCompaction().run(full, partitionPrefix);
        for (Snapshot s : done.snapshots()) {
          out.output(s.id());
        }
      }
    }
  }
}
