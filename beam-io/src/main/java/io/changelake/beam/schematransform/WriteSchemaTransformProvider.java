package io.changelake.beam.schematransform;

import com.google.auto.service.AutoService;
import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.ChangelakeWrite;
import io.changelake.beam.WriteResult;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.Field;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.transforms.SchemaTransform;
import org.apache.beam.sdk.schemas.transforms.SchemaTransformProvider;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionRowTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;

/**
 * {@link ChangelakeIO#write()} as a SchemaTransform, {@value #IDENTIFIER}: writes the rows of input
 * {@code input} into a table and outputs {@code snapshots} (one row per snapshot committed) and
 * {@code dead_letters} (one row per input row that could not be written, with the reason).
 */
@AutoService(SchemaTransformProvider.class)
public final class WriteSchemaTransformProvider implements SchemaTransformProvider {

  public static final String IDENTIFIER = "beam:schematransform:org.changelake:write:v1";
  public static final String INPUT = "input";
  public static final String SNAPSHOTS = "snapshots";
  public static final String DEAD_LETTERS = "dead_letters";

  /** A dead letter: the row as JSON text and why it was refused. */
  public static final Schema DEAD_LETTER_SCHEMA =
      Schema.builder().addStringField("record").addStringField("error_message").build();

  // A `sequence_field` belongs here once ChangelakeWrite has withSequenceField (the ordering
  // work of issue 11); until then the table option `sequence.field` in table_options orders
  // versions by columns of a created table.
  private static final Schema CONFIGURATION =
      ConfigurationRow.schemaWith(
          List.of(
              Field.nullable("primary_keys", FieldType.array(FieldType.STRING))
                  .withDescription(
                      "Create the table if missing, with these primary-key columns and the"
                          + " input's fields (but row_kind_field) as columns. Without it the table"
                          + " must exist and is written as it is."),
              Field.nullable("partition_keys", FieldType.array(FieldType.STRING))
                  .withDescription(
                      "Partition columns of a created table; they must be in primary_keys."),
              Field.nullable("buckets", FieldType.INT32)
                  .withDescription(
                      "Buckets per partition of a created table: the write parallelism. Default: 1."),
              Field.nullable("table_options", FieldType.map(FieldType.STRING, FieldType.STRING))
                  .withDescription(
                      "Options of a created table in Paimon's names, for example changelog-producer"
                          + " (none, input, lookup, full-compaction), merge-engine, sequence.field."
                          + " An option changelake does not implement is refused."),
              Field.nullable("row_kind_field", FieldType.STRING)
                  .withDescription(
                      "A STRING input field holding each row's kind: +I, -U, +U or -D (other"
                          + " values are dead letters). Without it every row is an upsert (+I)."),
              Field.nullable("commit_interval_seconds", FieldType.INT64)
                  .withDescription(
                      "Streaming: seconds between commits, so the changelog's latency. A bounded"
                          + " input commits once at the end. Default: 10."),
              Field.nullable("max_batch_rows", FieldType.INT32)
                  .withDescription(
                      "Streaming: most rows of one bucket written as one batch. Default: 100000."),
              Field.nullable("commit_user", FieldType.STRING)
                  .withDescription(
                      "The commitUser of the snapshots: keep it across updates of one job, never"
                          + " share it between running jobs. Default: random per construction.")));

  // Builder settings named by ChangelakeWrite's messages, and the fields that set them.
  private static final Map<String, String> FIELDS_BY_SETTING =
      Map.of(
          "to(warehouse, database, table)", "table",
          "withPrimaryKeys", "primary_keys",
          "withPartitionKeys", "partition_keys",
          "withBuckets", "buckets",
          "withTableOptions", "table_options",
          "withRowKindField", "row_kind_field",
          "withCommitInterval", "commit_interval_seconds",
          "withMaxBatchRows", "max_batch_rows");

  @Override
  public String identifier() {
    return IDENTIFIER;
  }

  @Override
  public String description() {
    return "Writes rows into a changelake table (Apache Paimon's primary-key table format on S3 or"
        + " local disk): each row is an upsert by primary key, or the change row_kind_field"
        + " names. Outputs 'snapshots' (table, snapshot_id, commit_kind, commit_time,"
        + " commit_identifier, commit_user) and 'dead_letters' (record, error_message).";
  }

  @Override
  public Schema configurationSchema() {
    return CONFIGURATION;
  }

  @Override
  public List<String> inputCollectionNames() {
    return List.of(INPUT);
  }

  @Override
  public List<String> outputCollectionNames() {
    return List.of(SNAPSHOTS, DEAD_LETTERS);
  }

  @Override
  public SchemaTransform from(Row configuration) {
    ConfigurationRow config = ConfigurationRow.of("changelake write", CONFIGURATION, configuration);
    ChangelakeWrite write =
        ChangelakeIO.write()
            .to(config.warehouse(), config.database(), config.table())
            .withS3Settings(config.s3Settings());
    List<String> primaryKeys = config.stringList("primary_keys");
    if (primaryKeys != null) {
      write = write.withPrimaryKeys(primaryKeys);
    }
    List<String> partitionKeys = config.stringList("partition_keys");
    if (partitionKeys != null) {
      write = write.withPartitionKeys(partitionKeys);
    }
    Integer buckets = config.intValue("buckets", 1);
    if (buckets != null) {
      write = write.withBuckets(buckets);
    }
    Map<String, String> tableOptions = config.stringMap("table_options");
    if (tableOptions != null) {
      write = write.withTableOptions(tableOptions);
    }
    String rowKindField = config.string("row_kind_field");
    if (rowKindField != null) {
      write = write.withRowKindField(rowKindField);
    }
    Long interval = config.integer("commit_interval_seconds", 1);
    if (interval != null) {
      write = write.withCommitInterval(Duration.standardSeconds(interval));
    }
    Integer maxBatchRows = config.intValue("max_batch_rows", 1);
    if (maxBatchRows != null) {
      write = write.withMaxBatchRows(maxBatchRows);
    }
    String commitUser = config.string("commit_user");
    if (commitUser != null) {
      write = write.withCommitUser(commitUser);
    }
    return new WriteTransform(config, write);
  }

  /** The expanded write: the builder's transform between named row collections. */
  private static final class WriteTransform extends SchemaTransform {

    private final transient ConfigurationRow config;
    private final ChangelakeWrite write;

    WriteTransform(ConfigurationRow config, ChangelakeWrite write) {
      this.config = config;
      this.write = write;
    }

    @Override
    public PCollectionRowTuple expand(PCollectionRowTuple input) {
      if (!input.has(INPUT)) {
        throw new IllegalArgumentException(
            "changelake write: the input collection must be named '"
                + INPUT
                + "', got "
                + input.getAll().keySet());
      }
      WriteResult result;
      try {
        result = input.get(INPUT).apply("Write", write);
      } catch (IllegalArgumentException e) {
        throw config.retold(e, FIELDS_BY_SETTING);
      }
      PCollection<Row> deadLetters =
          result
              .getDeadLetters()
              .apply(
                  "DeadLetterRows",
                  MapElements.into(TypeDescriptors.rows())
                      .via(WriteSchemaTransformProvider::deadLetterRow))
              .setRowSchema(DEAD_LETTER_SCHEMA);
      return PCollectionRowTuple.of(SNAPSHOTS, result.getSnapshots())
          .and(DEAD_LETTERS, deadLetters);
    }
  }

  private static Row deadLetterRow(BadRecord bad) {
    String reason = bad.getFailure().getDescription();
    if (reason == null) {
      reason = String.valueOf(bad.getFailure().getException());
    }
    return Row.withSchema(DEAD_LETTER_SCHEMA)
        .addValues(String.valueOf(bad.getRecord().getHumanReadableJsonRecord()), reason)
        .build();
  }
}
