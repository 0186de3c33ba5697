package io.changelake.templates;

import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.ReadChangelog;
import io.changelake.beam.WriteResult;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.PCollectionList;

/**
 * Template: follows a table's changelog and keeps grouped {@code SUM}, {@code COUNT} and {@code
 * AVG} of {@code --valueColumn} by {@code --groupColumn}, with retraction, in {@code
 * --aggregateTable} (how: {@link AggregateChanges}; AVG is {@code sum_<value> / cnt} on read).
 *
 * <p>Starts from the source table's latest state (as +I rows) and follows every later change, or
 * from {@code --startSnapshot}; runs until cancelled, or, with {@code --endSnapshot}, ends after
 * that snapshot (a batch run). With {@code --consumerId} the read records its progress in the
 * source table, and a restarted run resumes there.
 *
 * <p>The aggregate is exactly as right as the source's changelog: a {@code none} table carries no
 * retractions, so an updated key is counted twice; use {@code lookup} (or {@code input} with
 * complete before-images, or {@code full-compaction}).
 *
 * <pre>
 * ./changelake run changelog-to-aggregate --warehouse=/tmp/lake --sourceTable=orders \
 *     --groupColumn=store_id --valueColumn=amount --aggregateTable=store_totals \
 *     --endSnapshot=12 --deadLetterDir=/tmp/lake-dead-letters
 * </pre>
 *
 * <p>Metadata: {@code templates/changelog-to-aggregate.json}.
 */
public final class ChangelogToAggregate {

  /** The options of {@link ChangelogToAggregate}. */
  public interface Options extends AggregateOptions {

    @Description("The table whose changelog is followed. Required.")
    String getSourceTable();

    void setSourceTable(String value);

    @Description(
        "Read the changes of this snapshot and later; without it, the source's latest state as"
            + " inserts, then every later change.")
    Long getStartSnapshot();

    void setStartSnapshot(Long value);

    @Description(
        "End after this snapshot (waiting for it): a bounded run; without it the run follows the"
            + " changelog until cancelled.")
    Long getEndSnapshot();

    void setEndSnapshot(Long value);

    @Description(
        "Record the read's progress in the source table under this consumer id; a restart resumes"
            + " there and snapshot expiry keeps what it has yet to read.")
    String getConsumerId();

    void setConsumerId(String value);

    @Description("Seconds between looks for new snapshots of the source table.")
    @Default.Integer(10)
    Integer getPollIntervalSeconds();

    void setPollIntervalSeconds(Integer value);
  }

  private ChangelogToAggregate() {}

  public static void main(String[] args) {
    run(PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class)).waitUntilFinish();
  }

  /**
   * Checks the options, then starts the pipeline.
   *
   * @throws IllegalArgumentException naming the option to fix, before anything runs
   */
  public static PipelineResult run(Options options) {
    ReadChangelog read = changelog(options);
    Pipeline pipeline = Pipeline.create(options);
    WriteResult aggregate =
        pipeline.apply("ReadChangelog", read).apply("Aggregate", new AggregateChanges(options));
    PCollectionList.of(DeadLetterFiles.refusedRows("RefusedAggregates", aggregate.getDeadLetters()))
        .apply("DeadLetters", new DeadLetterFiles(options.getDeadLetterDir()));
    return pipeline.run();
  }

  private static ReadChangelog changelog(Options options) {
    OptionChecks.checkAggregate(options);
    if (options.getSourceTable() == null || options.getSourceTable().isBlank()) {
      throw new IllegalArgumentException(
          "--sourceTable is missing: give it, for example --sourceTable=orders");
    }
    if (options.getSourceTable().equals(options.getAggregateTable())) {
      throw new IllegalArgumentException(
          "--aggregateTable="
              + options.getAggregateTable()
              + " is not valid: it is the source"
              + " table; name another table");
    }
    OptionChecks.positive("pollIntervalSeconds", options.getPollIntervalSeconds());
    Long start = options.getStartSnapshot();
    Long end = options.getEndSnapshot();
    if (start != null && start < 1) {
      throw new IllegalArgumentException(
          "--startSnapshot=" + start + " is not valid: snapshot ids start at 1");
    }
    if (end != null && (end < 1 || (start != null && end < start))) {
      throw new IllegalArgumentException(
          "--endSnapshot="
              + end
              + " is not valid: give a snapshot id of at least "
              + (start == null ? 1 : start));
    }
    ReadChangelog read =
        ChangelakeIO.readChangelog()
            .from(options.getWarehouse(), options.getDatabase(), options.getSourceTable())
            .withS3Settings(OptionChecks.s3Settings(options))
            .withColumns(options.getGroupColumn(), options.getValueColumn())
            .withRowKindField(TableColumns.ROW_KIND)
            .withPollInterval(java.time.Duration.ofSeconds(options.getPollIntervalSeconds()));
    read = start == null ? read.latestFull() : read.fromSnapshot(start);
    if (end != null) {
      read = read.untilSnapshot(end);
    }
    return options.getConsumerId() == null ? read : read.withConsumerId(options.getConsumerId());
  }
}
