package io.changelake.templates;

import io.changelake.beam.WriteResult;
import io.changelake.table.TablePath;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.Row;

/**
 * Template: {@link CdcToTable} and {@link ChangelogToAggregate} in one pipeline. Change events are
 * written into {@code --table}; the changelog of every snapshot that write commits is turned into
 * signed deltas of {@code SUM}, {@code COUNT} (and so {@code AVG}) of {@code --valueColumn} by
 * {@code --groupColumn} in {@code --aggregateTable}.
 *
 * <p>The aggregate is exactly as right as the table's changelog: with {@code --producer=lookup} or
 * {@code full-compaction} always; with {@code input} only when updates carry before-images; with
 * {@code none} not once a key changes in a later commit (no retraction reaches the aggregate).
 *
 * <pre>
 * ./changelake run cdc-to-aggregate --inputFilePattern='/data/orders/*.json' \
 *     --warehouse=/tmp/lake --table=orders --columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT \
 *     --primaryKeys=order_id --producer=lookup --groupColumn=store_id --valueColumn=amount \
 *     --aggregateTable=store_totals --deadLetterDir=/tmp/lake-dead-letters
 * </pre>
 *
 * <p>Metadata: {@code templates/cdc-to-aggregate.json}.
 */
public final class CdcToAggregate {

  /** The options of {@link CdcToAggregate}. */
  public interface Options extends CdcOptions, AggregateOptions {}

  private CdcToAggregate() {}

  public static void main(String[] args) {
    run(PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class)).waitUntilFinish();
  }

  /**
   * Checks the options, then starts the pipeline.
   *
   * @throws IllegalArgumentException naming the option to fix, before anything runs
   */
  public static PipelineResult run(Options options) {
    Pipeline pipeline = Pipeline.create(options);
    addTo(pipeline, options);
    return pipeline.run();
  }

  /**
   * Checks the options and adds the flow to a pipeline under the name {@code <table> to
   * <aggregateTable>}, so one pipeline can hold several flows (the demo runs four side by side).
   *
   * @throws IllegalArgumentException naming the option to fix
   */
  public static void addTo(Pipeline pipeline, Options options) {
    OptionChecks.Cdc checked = OptionChecks.checkCdc(options);
    OptionChecks.checkAggregate(options);
    OptionChecks.checkAggregateOf(checked.columns(), options);
    // The aggregate reads its two columns with the types the pipeline is built with.
    OptionChecks.Cdc cdc =
        new OptionChecks.Cdc(
            checked
                .columns()
                .withFixedTypes(Set.of(options.getGroupColumn(), options.getValueColumn())),
            checked.primaryKeys(),
            checked.kafka(),
            checked.timeUnit());
    pipeline.apply(
        options.getTable() + " to " + options.getAggregateTable(), new Flow(options, cdc));
  }

  private static final class Flow extends PTransform<PBegin, PDone> {
    private static final long serialVersionUID = 1L;

    // Options are only read while the pipeline is built, never on a worker.
    private final transient Options options;
    private final transient OptionChecks.Cdc cdc;

    Flow(Options options, OptionChecks.Cdc cdc) {
      this.options = options;
      this.cdc = cdc;
    }

    @Override
    public PDone expand(PBegin begin) {
      CdcToTable.WrittenTable table = CdcToTable.eventsToTable(begin, options, cdc);
      TableColumns columns = cdc.columns();
      Schema changes =
          Schema.builder()
              .addField(columns.changeSchema().getField(options.getGroupColumn()))
              .addField(columns.changeSchema().getField(options.getValueColumn()))
              .addStringField(TableColumns.ROW_KIND)
              .build();
      PCollection<Row> committed =
          table
              .result()
              .getSnapshots()
              .apply(
                  "ReadCommittedChanges",
                  ParDo.of(
                      new CommittedChanges(
                          options.getWarehouse(),
                          OptionChecks.s3Settings(options),
                          new TablePath(options.getDatabase(), options.getTable()),
                          changes)))
              .setRowSchema(changes);
      WriteResult aggregate = committed.apply("Aggregate", new AggregateChanges(options));
      return PCollectionList.of(table.deadLetters())
          .and(DeadLetterFiles.refusedRows("RefusedAggregates", aggregate.getDeadLetters()))
          .apply("DeadLetters", new DeadLetterFiles(options.getDeadLetterDir()));
    }
  }
}
