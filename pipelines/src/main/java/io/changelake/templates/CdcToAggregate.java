package io.changelake.templates;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.Impulse;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.TypeDescriptors;

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
 * <p><b>Stops and restarts: each snapshot of the table is applied to the aggregate exactly
 * once.</b> The aggregate does not follow the events but the table: {@link AggregateCatchUp} reads
 * the changelog of every table snapshot in order and commits the summed deltas of whole snapshots
 * into the aggregate under the identifier of the last snapshot applied (commit user {@code
 * changelake-aggregate-of-<database>.<table>}). At the start, and after each table commit, it goes
 * on from the newest such identifier in the aggregate table. So a stop at any point (a crash, a
 * cancel, a drain) between the table's commit and the aggregate's loses nothing, although the Kafka
 * offsets follow the table's commit (see the package page): the next run applies the snapshots the
 * stopped one left, even with no new event; and a retry or restart doubles nothing, since a
 * snapshot is in the aggregate exactly when an aggregate commit with its identifier or a higher one
 * exists, and that commit is atomic.
 *
 * <p>Assumptions (otherwise it is not exactly once):
 *
 * <ul>
 *   <li>One running pipeline per ({@code --table}, {@code --aggregateTable}). Another writer may
 *       write into the aggregate table, but not under the commit user above, and not so often that
 *       the aggregate's snapshot expiry removes this flow's newest snapshot (then the record is
 *       lost and the start refuses the table).
 *   <li>The table keeps its snapshots (and changelog) until the aggregate applied them: a snapshot
 *       that expired first fails the catch-up, naming it; rebuild the aggregate by dropping it.
 *   <li>An existing aggregate table is taken only if this flow committed into it; one written
 *       otherwise (an earlier version of the template, another template) is refused at launch.
 * </ul>
 *
 * <p>The price: the changelog is read by one worker (one key), snapshot after snapshot, so the
 * aggregate's throughput is one reader's, and it lags the table by that reading plus one commit.
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
    checkResumable(options);
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

  /**
   * {@link AggregateCatchUp#checkResumable} while the pipeline is built, when the launcher can read
   * the warehouse (a local folder that does not exist holds no table yet).
   */
  private static void checkResumable(Options options) {
    String warehouse = options.getWarehouse();
    if (!warehouse.startsWith("s3://")
        && !Files.isDirectory(
            warehouse.startsWith("file:") ? Path.of(URI.create(warehouse)) : Path.of(warehouse))) {
      return;
    }
    try (ObjectStore store = ObjectStores.open(warehouse, OptionChecks.s3Settings(options))) {
      AggregateCatchUp.checkResumable(
          store, options.getDatabase(), options.getTable(), options.getAggregateTable());
    } catch (IOException | UncheckedIOException unreachable) {
      // The workers may reach what the launcher cannot: the catch-up checks again there.
    }
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
      String aggregate = options.getAggregateTable();
      // Wake-ups: the start (-1), then every snapshot the table write commits.
      PCollection<KV<String, Long>> start =
          begin
              .apply("Start", Impulse.create())
              .apply(
                  "AtStart",
                  MapElements.into(
                          TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                      .via(impulse -> KV.of(aggregate, -1L)));
      PCollection<KV<String, Long>> committed =
          table
              .result()
              .getSnapshots()
              .apply(
                  "Committed",
                  MapElements.into(
                          TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.longs()))
                      .via(snapshot -> KV.of(aggregate, snapshot.getInt64("snapshot_id"))));
      PCollection<String> refused =
          PCollectionList.of(start)
              .and(committed)
              .apply("WakeUps", Flatten.pCollections())
              .setCoder(KvCoder.of(StringUtf8Coder.of(), VarLongCoder.of()))
              .apply(
                  "CatchUpAggregate",
                  ParDo.of(
                      new AggregateCatchUp(
                          options, options.getTable(), OptionChecks.s3Settings(options))));
      return PCollectionList.of(table.deadLetters())
          .and(refused)
          .apply("DeadLetters", new DeadLetterFiles(options.getDeadLetterDir()));
    }
  }
}
