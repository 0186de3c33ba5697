package io.changelake.templates;

import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.ChangelakeWrite;
import io.changelake.beam.Destination;
import io.changelake.beam.WriteResult;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.FileIO;
import org.apache.beam.sdk.io.TextIO;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Watch;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * Template: Debezium JSON change events from files or Kafka into a changelake table.
 *
 * <p>Reads the files matching {@code --inputFilePattern} (one event a line; with {@code
 * --streaming}, new files as they appear) or, with {@code --bootstrapServers}, the Kafka topics
 * {@code --topics} ({@link KafkaSource}), turns each event into change rows ({@code c}/{@code r} to
 * +I, {@code u} to -U(before) and +U(after), or +U(after) without a before-image, {@code d} to
 * -D(before)) and writes them into {@code --table}, created with {@code --columns} (or the columns
 * of the first event's schema envelope), {@code --primaryKeys} (or, from Kafka, the columns of the
 * first record's key), {@code --buckets}, the changelog producer {@code --producer} and the column
 * {@code _sequence} as its {@code sequence.field}. Bad events (unparsable JSON, no key, wrong
 * types) and rows the table refuses go to {@code --deadLetterDir}; the pipeline goes on.
 *
 * <p>With {@code --schemaEvolution=true} the table follows the source's schema while the pipeline
 * runs: an event carrying a column the table lacks adds it, one whose column's type the source
 * widened widens it, and the rows are written with the new values; an incompatible change (a kind
 * change, a key column's type) sends the event to the dead letters. The columns that appear after
 * the pipeline was built travel in {@link TableColumns#DYNAMIC} (see {@link DebeziumEvents}).
 * Without it, fields of an event that are not columns of the table are ignored.
 *
 * <pre>
 * ./changelake run cdc-to-table --inputFilePattern='/data/orders/*.json' \
 *     --warehouse=/tmp/lake --table=orders --columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT \
 *     --primaryKeys=order_id --producer=lookup --deadLetterDir=/tmp/lake-dead-letters
 * </pre>
 *
 * <p><b>Database mode.</b> With {@code --tableNameFormat} (for example {@code {db}_{table}}) each
 * Debezium source table, named by its events' {@code source.db} and {@code source.table}, goes to
 * its own table of {@code --database}, all through one many-table write ({@link
 * io.changelake.beam.ChangelakeWrite#toDestinations}). At launch the template reads the input once:
 * the files, or from Kafka the first event in the envelope of each topic of {@code --topics} or
 * {@code --topicPattern} (Debezium writes one topic per source table; a topic that holds none
 * within 30 s is refused, naming it: launch once Debezium has written to it). Each source table's
 * columns come from its first event in the schema envelope, its key from {@code
 * --primaryKeys=db.table=key,key;db.table=key}. Bad events go to the dead letters as {@code
 * destination <database.table>: <reason>} ({@code (none)} for an event naming no source table, or
 * one not seen at launch, as a file that appears later under {@code --streaming} or a second source
 * table in one topic). From Kafka each partition's offset in {@code --consumerGroup} moves only
 * once the tables' commits hold its records, and its metadata names the table and its commit
 * ({@link OffsetTracker}). Refused in this mode: {@code --table}, {@code --columns}, {@code
 * --schemaEvolution}, and a column name with two types in two source tables (the rows of all tables
 * travel in one schema). See {@link SourceTables}.
 *
 * <pre>
 * ./changelake run cdc-to-table --inputFilePattern='/data/cdc/*.json' --warehouse=/tmp/lake \
 *     --database=lake --tableNameFormat='{db}_{table}' \
 *     --primaryKeys='inventory.orders=order_id;inventory.customers=customer_id' \
 *     --deadLetterDir=/tmp/lake-dead-letters
 * ./changelake run cdc-to-table --bootstrapServers=broker:9092 --topicPattern='dbserver1\..*' \
 *     --consumerGroup=changelake-inventory --warehouse=/tmp/lake --database=lake \
 *     --tableNameFormat='{db}_{table}' \
 *     --primaryKeys='inventory.orders=order_id;inventory.customers=customer_id' \
 *     --deadLetterDir=/tmp/lake-dead-letters
 * </pre>
 *
 * <p>Each change is ordered by its event's source position ({@link EventPosition}), not by the
 * order it arrives in. Metadata: {@code templates/cdc-to-table.json}.
 */
public final class CdcToTable {

  /** The options of {@link CdcToTable}. */
  public interface Options extends CdcOptions {

    @Description(
        "Database mode: write each Debezium source table (the events' source.db and"
            + " source.table) into its own table of --database, named by this format of {db} and"
            + " {table}, for example {db}_{table}. The columns come from each source table's"
            + " events' schema envelope, read at launch from --inputFilePattern or, from Kafka, from"
            + " the first enveloped event of each topic (one topic per source table), and"
            + " --primaryKeys names each table's key as db.table=key,key;db.table=key. Not with"
            + " --table, --columns or --schemaEvolution.")
    String getTableNameFormat();

    void setTableNameFormat(String value);
  }

  private CdcToTable() {}

  public static void main(String[] args) {
    run(PipelineOptionsFactory.fromArgs(args).withValidation().as(Options.class)).waitUntilFinish();
  }

  /**
   * Checks the options, then starts the pipeline.
   *
   * @throws IllegalArgumentException naming the option to fix, before anything runs
   */
  public static PipelineResult run(Options options) {
    Pipeline pipeline;
    WrittenTable written;
    if (options.getTableNameFormat() != null) {
      KafkaSource kafka = KafkaSource.of(options);
      SourceTables tables = SourceTables.discover(options, kafka);
      pipeline = Pipeline.create(options);
      written = eventsToTables(pipeline.begin(), options, tables, kafka);
    } else {
      OptionChecks.Cdc cdc = OptionChecks.checkCdc(options);
      pipeline = Pipeline.create(options);
      written = eventsToTable(pipeline.begin(), options, cdc);
    }
    PCollectionList.of(written.deadLetters())
        .apply("DeadLetters", new DeadLetterFiles(options.getDeadLetterDir()));
    return pipeline.run();
  }

  /** What {@link #eventsToTable} leaves: the write's result and the dead-letter lines so far. */
  record WrittenTable(WriteResult result, PCollection<String> deadLetters) {}

  /**
   * The events of {@code --inputFilePattern} or of Kafka, parsed and written into {@code --table},
   * ordered by their source position ({@link TableColumns#SEQUENCE} is the table's {@code
   * sequence.field}).
   */
  static WrittenTable eventsToTable(PBegin begin, CdcOptions options, OptionChecks.Cdc cdc) {
    KafkaSource kafka = cdc.kafka();
    PCollection<KV<String, Row>> events = events(begin, options, kafka);
    TableColumns columns = cdc.columns();
    PCollectionTuple parsed =
        events.apply(
            "ParseEvents",
            new ParseChangeEvents(
                columns,
                cdc.timeUnit(),
                kafka != null,
                options.getDatabase() + "." + options.getTable()));
    PCollection<Row> changes = parsed.get(ParseChangeEvents.CHANGES);
    ChangelakeWrite write =
        ChangelakeIO.write()
            .to(options.getWarehouse(), options.getDatabase(), options.getTable())
            .withPrimaryKeys(cdc.primaryKeys())
            .withBuckets(options.getBuckets())
            .withTableOptions(OptionChecks.tableOptions(options))
            .withRowKindField(TableColumns.ROW_KIND)
            .withSequenceField(TableColumns.SEQUENCE)
            .withS3Settings(OptionChecks.s3Settings(options))
            .withCommitInterval(Duration.standardSeconds(options.getCommitIntervalSeconds()));
    WriteResult result =
        changes.apply("WriteTable", columns.isEvolving() ? write.withSchemaEvolution() : write);
    return settled(parsed, result, kafka);
  }

  /**
   * The database mode: the events of {@code --inputFilePattern} or of Kafka, each written into its
   * source table's own table ({@link SourceTables}) by one many-table write, ordered by their
   * source position; the rows of every table travel in the union schema. From Kafka the consumer
   * group's offsets follow the commits of the tables the partitions feed.
   */
  static WrittenTable eventsToTables(
      PBegin begin, CdcOptions options, SourceTables tables, KafkaSource kafka) {
    PCollectionTuple parsed =
        events(begin, options, kafka)
            .apply(
                "ParseEvents",
                new ParseChangeEvents(
                    new DatabaseEvents(tables), kafka != null, options.getDatabase()));
    WriteResult result =
        parsed
            .get(ParseChangeEvents.CHANGES)
            .apply(
                "WriteTables",
                ChangelakeIO.write()
                    .toDestinations(
                        options.getWarehouse(),
                        Destination.ofField(TableColumns.DESTINATION),
                        tables::definition)
                    .withRowKindField(TableColumns.ROW_KIND)
                    .withSequenceField(TableColumns.SEQUENCE)
                    .withS3Settings(OptionChecks.s3Settings(options))
                    .withCommitInterval(
                        Duration.standardSeconds(options.getCommitIntervalSeconds())));
    return settled(parsed, result, kafka);
  }

  /**
   * What a write leaves: its result and every dead letter (the events the parse refused, the rows
   * the write refused); from Kafka, the group's offsets committed after the commits that hold them.
   */
  private static WrittenTable settled(
      PCollectionTuple parsed, WriteResult result, KafkaSource kafka) {
    PCollection<String> deadLetters =
        PCollectionList.of(parsed.get(ParseChangeEvents.DEAD_LETTERS))
            .and(DeadLetterFiles.refusedRows("RefusedRows", result.getDeadLetters()))
            .apply("TableDeadLetters", Flatten.pCollections());
    commitOffsets(kafka, parsed, result);
    return new WrittenTable(result, deadLetters);
  }

  /** The events of Kafka (the group placed first), or else of the files. */
  private static PCollection<KV<String, Row>> events(
      PBegin begin, CdcOptions options, KafkaSource kafka) {
    if (kafka == null) {
      return fileEvents(begin, options);
    }
    OffsetTracker.placeGroup(kafka, java.time.Duration.ofSeconds(30));
    return begin.apply("Kafka", kafka.read());
  }

  /**
   * From Kafka, commits to the group the positions settled by the parse step and by the write's
   * table commits.
   */
  private static void commitOffsets(
      KafkaSource kafka, PCollectionTuple parsed, WriteResult result) {
    if (kafka != null) {
      PCollectionList.of(parsed.get(ParseChangeEvents.SETTLED))
          .and(result.getSettledPositions())
          .apply("SettledPositions", Flatten.pCollections())
          .apply("ConsumerGroup", kafka.commitOffsets());
    }
  }

  /** The lines of the files of {@code --inputFilePattern}, watched under {@code --streaming}. */
  private static PCollection<KV<String, Row>> fileEvents(PBegin begin, CdcOptions options) {
    FileIO.Match match = FileIO.match().filepattern(options.getInputFilePattern());
    if (options.isStreaming()) {
      match =
          match.continuously(
              Duration.standardSeconds(options.getFilePollIntervalSeconds()), Watch.Growth.never());
    }
    return begin
        .apply("MatchFiles", match)
        .apply("OpenFiles", FileIO.readMatches())
        .apply("ReadLines", TextIO.readFiles())
        .apply(
            "NoPosition",
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.rows()))
                .via(line -> KV.of(line, (Row) null)))
        .setCoder(KafkaSource.EVENT_CODER);
  }
}
