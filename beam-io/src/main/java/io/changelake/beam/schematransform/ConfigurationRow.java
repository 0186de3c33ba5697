package io.changelake.beam.schematransform;

import io.changelake.store.S3Settings;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.Field;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * A SchemaTransform's configuration row, read field by field: every error names the field and says
 * what to give instead. It also holds the fields every changelake transform shares: where the table
 * is and how to reach S3.
 *
 * <p>The reader is lenient about the row's own schema, as rows built by other SDKs differ: a field
 * of the configuration schema that the row lacks counts as absent (null), integers of any width are
 * accepted where they fit; a field the configuration schema does not know is refused, so a misspelt
 * option never goes unnoticed.
 */
final class ConfigurationRow {

  /** The table location and S3 fields, first in every changelake configuration schema. */
  static final List<Field> TABLE_FIELDS =
      List.of(
          Field.of("warehouse", FieldType.STRING)
              .withDescription(
                  "Warehouse holding the table: s3://bucket/prefix, file:///path or a local folder."),
          Field.nullable("database", FieldType.STRING)
              .withDescription(
                  "Database of the table; the table lives in <warehouse>/<database>.db/<table>/."
                      + " Default: default."),
          Field.of("table", FieldType.STRING).withDescription("Name of the table."),
          Field.nullable("s3_endpoint", FieldType.STRING)
              .withDescription(
                  "S3 endpoint URL for S3-compatible services (MinIO, LocalStack); AWS when absent."
                      + " Credentials always come from the workers' default AWS credential chain:"
                      + " a configuration travels in clear text inside the pipeline."),
          Field.nullable("s3_region", FieldType.STRING)
              .withDescription("S3 signing region; aws.region / AWS_REGION when absent."),
          Field.nullable("s3_path_style_access", FieldType.BOOLEAN)
              .withDescription(
                  "Address buckets by path (endpoint/bucket/key), as most S3-compatible services"
                      + " need. Default: false."));

  private final String transform;
  private final Schema configurationSchema;
  private final Row row;

  private ConfigurationRow(String transform, Schema configurationSchema, Row row) {
    this.transform = transform;
    this.configurationSchema = configurationSchema;
    this.row = row;
  }

  /**
   * Reads {@code row} as a configuration of {@code transform} (the name in messages) with {@code
   * configurationSchema}.
   *
   * @throws IllegalArgumentException for a field the schema does not have
   */
  static ConfigurationRow of(String transform, Schema configurationSchema, Row row) {
    if (row == null) {
      throw new IllegalArgumentException(
          transform
              + ": no configuration row; give at least the fields "
              + requiredFields(configurationSchema));
    }
    for (String name : row.getSchema().getFieldNames()) {
      if (!configurationSchema.hasField(name)) {
        throw new IllegalArgumentException(
            transform
                + ": unknown configuration field '"
                + name
                + "'; the fields are "
                + configurationSchema.getFieldNames());
      }
    }
    ConfigurationRow config = new ConfigurationRow(transform, configurationSchema, row);
    for (Field field : configurationSchema.getFields()) {
      if (!field.getType().getNullable() && config.value(field.getName()) == null) {
        throw config.invalid(field.getName(), "is required: " + field.getDescription());
      }
    }
    return config;
  }

  /** Builds a configuration schema from the shared table fields and {@code own} fields. */
  static Schema schemaWith(List<Field> own) {
    List<Field> all = new ArrayList<>(TABLE_FIELDS);
    all.addAll(own);
    return Schema.of(all.toArray(Field[]::new));
  }

  String warehouse() {
    return string("warehouse");
  }

  String database() {
    String database = string("database");
    return database == null ? "default" : database;
  }

  String table() {
    return string("table");
  }

  /** The S3 settings the {@code s3_*} fields give, on top of the defaults. */
  S3Settings s3Settings() {
    S3Settings.Builder builder = S3Settings.builder();
    String endpoint = string("s3_endpoint");
    if (endpoint != null) {
      URI uri;
      try {
        uri = URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw invalid("s3_endpoint", "is not a URL: " + e.getMessage());
      }
      if (uri.getScheme() == null || uri.getHost() == null) {
        throw invalid("s3_endpoint", "'" + endpoint + "' is not a URL like https://host:port");
      }
      builder.endpoint(uri);
    }
    String region = string("s3_region");
    if (region != null) {
      builder.region(region);
    }
    Boolean pathStyle = bool("s3_path_style_access");
    if (pathStyle != null) {
      builder.pathStyleAccess(pathStyle);
    }
    return builder.build();
  }

  /** A STRING field, or null when absent; a blank string is refused. */
  String string(String field) {
    Object value = value(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof String s)) {
      throw invalid(field, "must be a string, got " + describe(value));
    }
    if (s.isBlank()) {
      throw invalid(field, "is blank: give a value or leave the field out");
    }
    return s;
  }

  /** A BOOLEAN field, or null when absent. */
  Boolean bool(String field) {
    Object value = value(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Boolean b)) {
      throw invalid(field, "must be true or false, got " + describe(value));
    }
    return b;
  }

  /** An integral field at least {@code min}, or null when absent. */
  Long integer(String field, long min) {
    Object value = value(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte)) {
      throw invalid(field, "must be an integer, got " + describe(value));
    }
    long n = ((Number) value).longValue();
    if (n < min) {
      throw invalid(field, "must be at least " + min + ", got " + n);
    }
    return n;
  }

  /** An integral field in {@code [min, Integer.MAX_VALUE]}, or null when absent. */
  Integer intValue(String field, int min) {
    Long n = integer(field, min);
    if (n != null && n > Integer.MAX_VALUE) {
      throw invalid(field, "must be at most " + Integer.MAX_VALUE + ", got " + n);
    }
    return n == null ? null : n.intValue();
  }

  /** A list of non-blank strings, or null when absent; an empty list is refused. */
  List<String> stringList(String field) {
    Object value = value(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Collection<?> items)) {
      throw invalid(field, "must be a list of strings, got " + describe(value));
    }
    List<String> strings = new ArrayList<>();
    for (Object item : items) {
      if (!(item instanceof String s) || s.isBlank()) {
        throw invalid(field, "must be a list of non-blank strings, got " + items);
      }
      strings.add(s);
    }
    if (strings.isEmpty()) {
      throw invalid(field, "is an empty list: name at least one or leave the field out");
    }
    return List.copyOf(strings);
  }

  /** A map of string to string, or null when absent. */
  Map<String, String> stringMap(String field) {
    Object value = value(field);
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> entries)) {
      throw invalid(field, "must be a map of strings to strings, got " + describe(value));
    }
    Map<String, String> strings = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : entries.entrySet()) {
      if (!(e.getKey() instanceof String k) || !(e.getValue() instanceof String v)) {
        throw invalid(field, "must map strings to strings, got " + e.getKey() + "=" + e.getValue());
      }
      strings.put(k, v);
    }
    return strings;
  }

  /** Refuses {@code field} when given: it does not apply because {@code why}. */
  void refuse(String field, String why) {
    if (value(field) != null) {
      throw invalid(field, "does not apply " + why + ": leave it out");
    }
  }

  /**
   * An error the builder raised when the transform was applied, retold with the configuration field
   * it concerns: {@code fieldsBySetting} maps builder settings ({@code withPrimaryKeys}) or phrases
   * of the builder's messages to fields ({@code primary_keys}); the one the message names first
   * decides the field.
   */
  IllegalArgumentException retold(IllegalArgumentException e, Map<String, String> fieldsBySetting) {
    String message = String.valueOf(e.getMessage());
    int first = Integer.MAX_VALUE;
    String field = null;
    for (Map.Entry<String, String> setting : fieldsBySetting.entrySet()) {
      int at = message.indexOf(setting.getKey());
      if (at >= 0 && at < first) {
        first = at;
        field = setting.getValue();
      }
    }
    String prefix =
        field == null ? transform + ": " : transform + ": configuration field '" + field + "': ";
    return new IllegalArgumentException(prefix + message, e);
  }

  /** An error that names {@code field} of this configuration. */
  IllegalArgumentException invalid(String field, String problem) {
    return new IllegalArgumentException(
        transform + ": configuration field '" + field + "' " + problem);
  }

  private Object value(String field) {
    if (!configurationSchema.hasField(field)) {
      throw new IllegalStateException(
          field + " is not in the configuration schema of " + transform);
    }
    return row.getSchema().hasField(field) ? row.getValue(field) : null;
  }

  private static String describe(Object value) {
    return value.getClass().getSimpleName() + " " + value;
  }

  private static List<String> requiredFields(Schema schema) {
    return schema.getFields().stream()
        .filter(f -> !f.getType().getNullable())
        .map(Field::getName)
        .toList();
  }
}
