package io.changelake.templates;

import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.CompactTable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * Template: the dedicated compaction job of a {@code write-only} table, as Paimon's compaction job.
 * Writers with {@code write-only=true} only add level-0 files; this job compacts the table's
 * buckets (universal picks, or with {@code --full} every bucket into its top level), so producing
 * the table's {@code lookup} or {@code full-compaction} changelog, and expires snapshots by the
 * table's retention options. It commits as {@code changelake-compact}; the writers' commits and its
 * own do not conflict, since a writer only adds files and a compaction only rewrites files already
 * committed. Run one such job per table.
 *
 * <p>With {@code --everySeconds} it runs unbounded, one compaction per interval, until cancelled;
 * without it, it compacts once and ends. {@code --partition} limits it to the partitions whose
 * folder starts with a prefix ({@code region=eu/}).
 *
 * <pre>
 * ./changelake run compact-table --warehouse=/tmp/lake --database=shop --table=orders \
 *     --everySeconds=60
 * </pre>
 *
 * <p>Metadata: {@code templates/compact-table.json}.
 */
public final class CompactionJob {

  /** The options of {@link CompactionJob}. */
  public interface Options extends WarehouseOptions {

    @Description("The write-only table to compact. Required.")
    String getTable();

    void setTable(String value);

    @Description(
        "Seconds between compactions: the job runs until cancelled. Without it, it compacts once"
            + " and ends.")
    Integer getEverySeconds();

    void setEverySeconds(Integer value);

    @Description(
        "Compact every bucket fully into its top level (the full-compaction changelog's trigger),"
            + " instead of universal compaction's picks.")
    @Default.Boolean(false)
    Boolean getFull();

    void setFull(Boolean value);

    @Description(
        "Only the partitions whose folder starts with this prefix, as region=eu/ or"
            + " region=eu/day=2026-12-01/; all partitions when absent.")
    String getPartition();

    void setPartition(String value);
  }

  private CompactionJob() {}

  public static void main(String[] args) {
    run(PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class)).waitUntilFinish();
  }

  /**
   * Checks the options, then starts the pipeline.
   *
   * @throws IllegalArgumentException naming the option to fix, before anything runs
   */
  public static PipelineResult run(Options options) {
    OptionChecks.checkWarehouse(options);
    OptionChecks.required("table", options.getTable(), "orders");
    CompactTable compact =
        ChangelakeIO.compact()
            .from(options.getWarehouse(), options.getDatabase(), options.getTable())
            .withS3Settings(OptionChecks.s3Settings(options));
    if (options.getEverySeconds() != null) {
      OptionChecks.positive("everySeconds", options.getEverySeconds());
      compact = compact.every(java.time.Duration.ofSeconds(options.getEverySeconds()));
    }
    if (Boolean.TRUE.equals(options.getFull())) {
      compact = compact.full();
    }
    if (options.getPartition() != null && !options.getPartition().isBlank()) {
      compact = compact.withPartitionPrefix(options.getPartition());
    }
    Pipeline pipeline = Pipeline.create(options);
    pipeline.apply("Compact " + options.getTable(), compact);
    return pipeline.run();
  }
}
