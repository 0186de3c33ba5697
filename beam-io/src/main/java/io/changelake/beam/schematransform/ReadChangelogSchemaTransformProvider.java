package io.changelake.beam.schematransform;

import com.google.auto.service.AutoService;
import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.ReadChangelog;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.Field;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.transforms.SchemaTransform;
import org.apache.beam.sdk.schemas.transforms.SchemaTransformProvider;
import org.apache.beam.sdk.values.PCollectionRowTuple;
import org.apache.beam.sdk.values.Row;

/**
 * {@link ChangelakeIO#readChangelog()} as a SchemaTransform, {@value #IDENTIFIER}: a table's
 * changelog as output {@code output}, each row with its kind in a field; unbounded unless {@code
 * end_snapshot} is given.
 */
@AutoService(SchemaTransformProvider.class)
public final class ReadChangelogSchemaTransformProvider implements SchemaTransformProvider {

  public static final String IDENTIFIER = "beam:schematransform:org.changelake:read_changelog:v1";
  public static final String OUTPUT = "output";

  /** The values of {@code start}. */
  private static final List<String> STARTS =
      List.of("latest-full", "latest", "from-snapshot", "from-timestamp");

  private static final Schema CONFIGURATION =
      ConfigurationRow.schemaWith(
          List.of(
              Field.nullable("start", FieldType.STRING)
                  .withDescription(
                      "Where the read starts: latest-full (the latest snapshot's rows as +I, then"
                          + " every later change), latest (only changes committed after the"
                          + " start), from-snapshot (with start_snapshot), from-timestamp (with"
                          + " start_timestamp_millis). Default: latest-full."),
              Field.nullable("start_snapshot", FieldType.INT64)
                  .withDescription(
                      "start from-snapshot: the changes of this snapshot and later; an expired id"
                          + " is an error."),
              Field.nullable("start_timestamp_millis", FieldType.INT64)
                  .withDescription(
                      "start from-timestamp: the changes of snapshots committed at or after this"
                          + " time (epoch milliseconds)."),
              Field.nullable("end_snapshot", FieldType.INT64)
                  .withDescription(
                      "Stop after this snapshot (waiting for it): the output is then bounded."
                          + " Default: unbounded."),
              Field.nullable("consumer_id", FieldType.STRING)
                  .withDescription(
                      "Record progress in consumer/consumer-<id> of the table; a restart resumes"
                          + " there and snapshot expiry keeps what it has yet to read."),
              Field.nullable("poll_interval_seconds", FieldType.INT64)
                  .withDescription("Seconds between looks for new snapshots. Default: 10."),
              Field.nullable("columns", FieldType.array(FieldType.STRING))
                  .withDescription("The table columns emitted, in this order. Default: all."),
              Field.nullable("row_kind_field", FieldType.STRING)
                  .withDescription(
                      "Name of the STRING output field with the row kind (+I, -U, +U, -D)."
                          + " Default: _row_kind."),
              Field.nullable("snapshot_id_field", FieldType.STRING)
                  .withDescription(
                      "Name of an INT64 output field with each change's snapshot id. Default:"
                          + " absent."),
              Field.nullable("sequence_number_field", FieldType.STRING)
                  .withDescription(
                      "Name of an INT64 output field with each change's sequence number; with the"
                          + " snapshot id it orders the changes of one key. Default: absent."),
              Field.nullable("normalize", FieldType.BOOLEAN)
                  .withDescription(
                      "Tables with changelog-producer none only: rebuild -U/+U in Beam state (one"
                          + " state cell per key). Default: false."),
              Field.nullable("raw_rows", FieldType.BOOLEAN)
                  .withDescription(
                      "Allow reading a none-producer partial-update, aggregation or first-row"
                          + " table, whose changes are then raw inputs, not merged rows. Default:"
                          + " false."),
              Field.nullable("wait_for_table", FieldType.BOOLEAN)
                  .withDescription(
                      "Wait at construction for the table to be created instead of failing."
                          + " Default: false.")));

  // Builder settings and phrases of the builder's messages, and the fields they concern.
  private static final Map<String, String> FIELDS_BY_SETTING =
      Map.of(
          "withColumns", "columns",
          "is not in the table", "columns",
          "withRowKindField", "row_kind_field",
          "withSnapshotIdField", "snapshot_id_field",
          "withSequenceNumberField", "sequence_number_field",
          "withNormalize", "normalize",
          "withRawRows", "raw_rows",
          "withConsumerId", "consumer_id",
          "withPollInterval", "poll_interval_seconds",
          "from(warehouse, database, table)", "table");

  @Override
  public String identifier() {
    return IDENTIFIER;
  }

  @Override
  public String description() {
    return "Follows the changelog of a changelake table (Apache Paimon's primary-key table"
        + " format): every change with its row kind (+I, -U, +U, -D) in a field, as the table's"
        + " changelog-producer builds it; unbounded unless end_snapshot is given.";
  }

  @Override
  public Schema configurationSchema() {
    return CONFIGURATION;
  }

  @Override
  public List<String> inputCollectionNames() {
    return List.of();
  }

  @Override
  public List<String> outputCollectionNames() {
    return List.of(OUTPUT);
  }

  @Override
  public SchemaTransform from(Row configuration) {
    ConfigurationRow config =
        ConfigurationRow.of("changelake read_changelog", CONFIGURATION, configuration);
    ReadChangelog read =
        ChangelakeIO.readChangelog()
            .from(config.warehouse(), config.database(), config.table())
            .withS3Settings(config.s3Settings());
    read = started(config, read);
    Long end = config.integer("end_snapshot", 1);
    if (end != null) {
      read = read.untilSnapshot(end);
    }
    String consumer = config.string("consumer_id");
    if (consumer != null) {
      read = read.withConsumerId(consumer);
    }
    Long poll = config.integer("poll_interval_seconds", 1);
    if (poll != null) {
      read = read.withPollInterval(Duration.ofSeconds(poll));
    }
    List<String> columns = config.stringList("columns");
    if (columns != null) {
      read = read.withColumns(columns.toArray(String[]::new));
    }
    String rowKind = config.string("row_kind_field");
    if (rowKind != null) {
      read = read.withRowKindField(rowKind);
    }
    String snapshotId = config.string("snapshot_id_field");
    if (snapshotId != null) {
      read = read.withSnapshotIdField(snapshotId);
    }
    String sequence = config.string("sequence_number_field");
    if (sequence != null) {
      read = read.withSequenceNumberField(sequence);
    }
    if (Boolean.TRUE.equals(config.bool("normalize"))) {
      read = read.withNormalize();
    }
    if (Boolean.TRUE.equals(config.bool("raw_rows"))) {
      read = read.withRawRows();
    }
    if (Boolean.TRUE.equals(config.bool("wait_for_table"))) {
      read = read.withWaitForTable();
    }
    return new ReadChangelogTransform(config, read);
  }

  private static ReadChangelog started(ConfigurationRow config, ReadChangelog read) {
    String start = config.string("start");
    if (start == null) {
      start = "latest-full";
    }
    if (!STARTS.contains(start)) {
      throw config.invalid("start", "is '" + start + "': use one of " + STARTS);
    }
    Long snapshot = config.integer("start_snapshot", 1);
    Long timestamp = config.integer("start_timestamp_millis", 0);
    if (!start.equals("from-snapshot")) {
      config.refuse("start_snapshot", "unless start is from-snapshot");
    }
    if (!start.equals("from-timestamp")) {
      config.refuse("start_timestamp_millis", "unless start is from-timestamp");
    }
    switch (start) {
      case "latest":
        return read.latest();
      case "from-snapshot":
        if (snapshot == null) {
          throw config.invalid("start_snapshot", "is required with start from-snapshot");
        }
        return read.fromSnapshot(snapshot);
      case "from-timestamp":
        if (timestamp == null) {
          throw config.invalid("start_timestamp_millis", "is required with start from-timestamp");
        }
        return read.fromTimestamp(timestamp);
      default:
        return read.latestFull();
    }
  }

  /** The expanded changelog read, as output {@value #OUTPUT}. */
  private static final class ReadChangelogTransform extends SchemaTransform {

    private final transient ConfigurationRow config;
    private final ReadChangelog read;

    ReadChangelogTransform(ConfigurationRow config, ReadChangelog read) {
      this.config = config;
      this.read = read;
    }

    @Override
    public PCollectionRowTuple expand(PCollectionRowTuple input) {
      try {
        return PCollectionRowTuple.of(OUTPUT, input.getPipeline().apply("ReadChangelog", read));
      } catch (IllegalArgumentException e) {
        throw config.retold(e, FIELDS_BY_SETTING);
      }
    }
  }
}
