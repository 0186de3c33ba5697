package io.changelake.templates;

import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.WriteResult;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.Watch;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

/**
 * Template: Debezium-style JSON change events from files into a changelake table.
 *
 * <p>Reads the files matching {@code --inputFilePattern} (one event a line; with {@code
 * --streaming}, new files as they appear), turns each event into change rows ({@code c}/{@code r}
 * to +I, {@code u} to -U(before) and +U(after), or +U(after) without a before-image, {@code d} to
 * -D(before)) and writes them into {@code --table}, created with {@code --columns}, {@code
 * --primaryKeys}, {@code --buckets} and the changelog producer {@code --producer}. Bad events
 * (unparsable JSON, no key, wrong types) and rows the table refuses go to {@code --deadLetterDir};
 * the pipeline goes on.
 *
 * <pre>
 * ./changelake run cdc-to-table --inputFilePattern='/data/orders/*.json' \
 *     --warehouse=/tmp/lake --table=orders --columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT \
 *     --primaryKeys=order_id --producer=lookup --deadLetterDir=/tmp/lake-dead-letters
 * </pre>
 *
 * <p>Events are applied in the order they arrive: within one file, line order on the DirectRunner.
 * Metadata: {@code templates/cdc-to-table.json}.
 */
public final class CdcToTable {

  /** The options of {@link CdcToTable}. */
  public interface Options extends CdcOptions {}

  private CdcToTable() {}

  public static void main(String[] args) {
    run(PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class))
        .waitUntilFinish();
  }

  /**
   * Checks the options, then starts the pipeline.
   *
   * @throws IllegalArgumentException naming the option to fix, before anything runs
   */
  public static PipelineResult run(Options options) {
    TableColumns columns = OptionChecks.checkCdc(options);
    Pipeline pipeline = Pipeline.create(options);
    WrittenTable written = eventsToTable(pipeline.begin(), options, columns);
    PCollectionList.of(written.deadLetters())
        .apply("DeadLetters", new DeadLetterFiles(options.getDeadLetterDir()));
    return pipeline.run();
  }

  /** What {@link #eventsToTable} leaves: the write's result and the dead-letter lines so far. */
  record WrittenTable(WriteResult result, PCollection<String> deadLetters) {}

  /** The events of {@code --inputFilePattern}, parsed and written into {@code --table}. */
  static WrittenTable eventsToTable(PBegin begin, CdcOptions options, TableColumns columns) {
    FileIO.Match match = FileIO.match().filepattern(options.getInputFilePattern());
    if (options.isStreaming()) {
      match =
          match.continuously(
              Duration.standardSeconds(options.getFilePollIntervalSeconds()), Watch.Growth.never());
    }
    PCollection<String> events =
        begin
            .apply("MatchFiles", match)
            .apply("OpenFiles", FileIO.readMatches())
            .apply("ReadLines", TextIO.readFiles());
    PCollectionTuple parsed = events.apply("ParseEvents", new ParseChangeEvents(columns));
    PCollection<Row> changes = parsed.get(ParseChangeEvents.CHANGES);
    WriteResult result =
        changes.apply(
            "WriteTable",
            ChangelakeIO.write()
                .to(options.getWarehouse(), options.getDatabase(), options.getTable())
                .withPrimaryKeys(OptionChecks.primaryKeys(options))
                .withBuckets(options.getBuckets())
                .withTableOptions(OptionChecks.tableOptions(options))
                .withRowKindField(TableColumns.ROW_KIND)
                .withS3Settings(OptionChecks.s3Settings(options))
                .withCommitInterval(Duration.standardSeconds(options.getCommitIntervalSeconds())));
    PCollection<String> deadLetters =
        PCollectionList.of(parsed.get(ParseChangeEvents.DEAD_LETTERS))
            .and(DeadLetterFiles.refusedRows("RefusedRows", result.getDeadLetters()))
            .apply("TableDeadLetters", Flatten.pCollections());
    return new WrittenTable(result, deadLetters);
  }
}
