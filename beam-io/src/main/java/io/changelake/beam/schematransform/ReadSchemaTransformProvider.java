package io.changelake.beam.schematransform;

import com.google.auto.service.AutoService;
import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.ReadRows;
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
 * {@link ChangelakeIO#read()} as a SchemaTransform, {@value #IDENTIFIER}: a bounded read of a
 * table's rows as of one snapshot, as output {@code output}.
 */
@AutoService(SchemaTransformProvider.class)
public final class ReadSchemaTransformProvider implements SchemaTransformProvider {

  public static final String IDENTIFIER = "beam:schematransform:org.changelake:read:v1";
  public static final String OUTPUT = "output";

  private static final Schema CONFIGURATION =
      ConfigurationRow.schemaWith(
          List.of(
              Field.nullable("snapshot_id", FieldType.INT64)
                  .withDescription(
                      "Read this snapshot instead of the latest; a missing one is an error naming"
                          + " the ids that exist."),
              Field.nullable("as_of_timestamp_millis", FieldType.INT64)
                  .withDescription(
                      "Read the newest snapshot committed at or before this time (epoch"
                          + " milliseconds); not with snapshot_id."),
              Field.nullable("columns", FieldType.array(FieldType.STRING))
                  .withDescription("The columns emitted, in this order. Default: all.")));

  // Builder settings and phrases of the builder's messages, and the fields they concern.
  private static final Map<String, String> FIELDS_BY_SETTING =
      Map.of(
          "withColumns", "columns",
          "is not in the table", "columns",
          "atSnapshot", "snapshot_id",
          "asOfTimestamp", "as_of_timestamp_millis",
          "from(warehouse, database, table)", "table");

  @Override
  public String identifier() {
    return IDENTIFIER;
  }

  @Override
  public String description() {
    return "Reads the rows of a changelake table (Apache Paimon's primary-key table format) as of"
        + " one snapshot, merged by key as the table's merge engine says; bounded.";
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
    ConfigurationRow config = ConfigurationRow.of("changelake read", CONFIGURATION, configuration);
    ReadRows read =
        ChangelakeIO.read()
            .from(config.warehouse(), config.database(), config.table())
            .withS3Settings(config.s3Settings());
    Long snapshotId = config.integer("snapshot_id", 1);
    Long asOf = config.integer("as_of_timestamp_millis", 0);
    if (snapshotId != null) {
      config.refuse("as_of_timestamp_millis", "together with snapshot_id");
      read = read.atSnapshot(snapshotId);
    } else if (asOf != null) {
      read = read.asOfTimestamp(asOf);
    }
    List<String> columns = config.stringList("columns");
    if (columns != null) {
      read = read.withColumns(columns.toArray(String[]::new));
    }
    return new ReadTransform(config, read);
  }

  /** The expanded read, as output {@value #OUTPUT}. */
  private static final class ReadTransform extends SchemaTransform {

    private final transient ConfigurationRow config;
    private final ReadRows read;

    ReadTransform(ConfigurationRow config, ReadRows read) {
      this.config = config;
      this.read = read;
    }

    @Override
    public PCollectionRowTuple expand(PCollectionRowTuple input) {
      try {
        return PCollectionRowTuple.of(OUTPUT, input.getPipeline().apply("Read", read));
      } catch (IllegalArgumentException e) {
        throw config.retold(e, FIELDS_BY_SETTING);
      }
    }
  }
}
