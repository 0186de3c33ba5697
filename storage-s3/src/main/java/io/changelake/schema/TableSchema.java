package io.changelake.schema;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One version of a table's schema: the file {@code schema/schema-<id>} in Paimon 1.x's JSON form.
 *
 * @param id the schema id, 0 for the first
 * @param rowType the columns
 * @param highestFieldId the largest field id the table ever gave a column, dropped ones included:
 *     an added column gets the next, so an id is never reused
 * @param partitionKeys the partition columns, in order
 * @param primaryKeys the primary-key columns, in order; they include the partition columns
 * @param options the table options
 * @param comment the table comment, or null
 * @param timeMillis when the schema was created, epoch milliseconds
 */
public record TableSchema(
    long id,
    RowType rowType,
    int highestFieldId,
    List<String> partitionKeys,
    List<String> primaryKeys,
    TableOptions options,
    String comment,
    long timeMillis) {

  /** The schema version Paimon 1.x writes. */
  static final int VERSION = 3;

  public TableSchema {
    partitionKeys = List.copyOf(partitionKeys);
    primaryKeys = List.copyOf(primaryKeys);
  }

  /** A schema whose highest field id is that of its columns: one no column was dropped from. */
  public TableSchema(
      long id,
      RowType rowType,
      List<String> partitionKeys,
      List<String> primaryKeys,
      TableOptions options,
      String comment,
      long timeMillis) {
    this(id, rowType, highestId(rowType), partitionKeys, primaryKeys, options, comment, timeMillis);
  }

  private static int highestId(RowType rowType) {
    return rowType.fields().stream().mapToInt(DataField::id).max().orElse(-1);
  }

  /**
   * A first schema for a new table, validated: column names unique, keys name columns, primary-key
   * columns NOT NULL (made so, as Paimon does), a primary key of more than partition columns
   * (without every partition column it is a cross-partition upsert table), options known and
   * consistent.
   *
   * @throws IllegalArgumentException naming what is wrong and the fix
   */
  public static TableSchema create(
      RowType rowType,
      List<String> partitionKeys,
      List<String> primaryKeys,
      Map<String, String> options,
      String comment) {
    Set<String> names = new HashSet<>();
    for (DataField f : rowType.fields()) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("column '" + f.name() + "' appears twice");
      }
      if (f.name().startsWith("_KEY_")
          || f.name().equals("_SEQUENCE_NUMBER")
          || f.name().equals("_VALUE_KIND")) {
        throw new IllegalArgumentException(
            "column '" + f.name() + "' uses a name the file format reserves: rename it");
      }
    }
    if (primaryKeys.isEmpty()) {
      throw new IllegalArgumentException(
          "a changelake table needs a primary key: name one or more columns as primary keys");
    }
    for (String k : primaryKeys) {
      if (rowType.indexOf(k) < 0) {
        throw new IllegalArgumentException(
            "primary key '" + k + "' is not a column: columns are " + rowType.names());
      }
    }
    for (String p : partitionKeys) {
      if (rowType.indexOf(p) < 0) {
        throw new IllegalArgumentException(
            "partition key '" + p + "' is not a column: columns are " + rowType.names());
      }
    }
    if (partitionKeys.containsAll(primaryKeys)) {
      throw new IllegalArgumentException(
          "the primary key "
              + primaryKeys
              + " holds only partition columns: add a column that"
              + " identifies a row inside a partition");
    }
    List<DataField> fields = new ArrayList<>();
    for (DataField f : rowType.fields()) {
      DataType type = primaryKeys.contains(f.name()) ? f.type().notNull() : f.type();
      fields.add(f.withType(type));
    }
    RowType keyed = new RowType(fields);
    Map<String, String> withBucket = new LinkedHashMap<>(options);
    withBucket.putIfAbsent("bucket", "1");
    TableOptions validated = TableOptions.validate(withBucket, keyed, primaryKeys);
    return new TableSchema(
        0, keyed, partitionKeys, primaryKeys, validated, comment, System.currentTimeMillis());
  }

  /**
   * The primary key without the partition columns: the key of the merge tree, stored as the {@code
   * _KEY_*} columns, since inside one partition the partition columns are constant.
   */
  public List<String> trimmedPrimaryKeys() {
    return primaryKeys.stream().filter(k -> !partitionKeys.contains(k)).toList();
  }

  /**
   * Whether the primary key lacks a partition column: a cross-partition upsert table, whose keys
   * move between partitions (Paimon's {@code crossPartitionUpdate}).
   */
  public boolean crossPartitionUpsert() {
    return !primaryKeys.containsAll(partitionKeys);
  }

  /** Positions in the row of the {@link #trimmedPrimaryKeys} columns. */
  public int[] keyIndexes() {
    return indexesOf(trimmedPrimaryKeys());
  }

  /** Positions of the partition columns in the row. */
  public int[] partitionIndexes() {
    return indexesOf(partitionKeys);
  }

  /**
   * Positions of the bucket-key columns: option {@code bucket-key}, else the trimmed primary key.
   */
  public int[] bucketKeyIndexes() {
    List<String> bucketKey = options.bucketKey();
    return indexesOf(bucketKey.isEmpty() ? trimmedPrimaryKeys() : bucketKey);
  }

  /**
   * The {@link #trimmedPrimaryKeys} columns as a row type; data files prefix them with {@code
   * _KEY_}.
   */
  public RowType keyType() {
    return rowType.project(keyIndexes());
  }

  /** The partition columns as a row type. */
  public RowType partitionType() {
    return rowType.project(partitionIndexes());
  }

  private int[] indexesOf(List<String> names) {
    int[] indexes = new int[names.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = rowType.indexOf(names.get(i));
    }
    return indexes;
  }

  /**
   * A schema file as Jackson binds it: Paimon's fields in Paimon's order. Fields Paimon may add
   * that changelake does not use (a column's {@code defaultValue}) are ignored on reading.
   */
  @JsonPropertyOrder({
    "version",
    "id",
    "fields",
    "highestFieldId",
    "partitionKeys",
    "primaryKeys",
    "options",
    "comment",
    "timeMillis"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  record SchemaFile(
      int version,
      @JsonProperty(required = true) long id,
      @JsonProperty(required = true) List<FieldFile> fields,
      int highestFieldId,
      List<String> partitionKeys,
      List<String> primaryKeys,
      Map<String, String> options,
      @JsonInclude(JsonInclude.Include.NON_NULL) String comment,
      long timeMillis) {}

  /**
   * A column of a schema file. Its type is Paimon's type string, or for nested types (which
   * changelake does not support) a JSON object, read here only to be refused by name.
   */
  @JsonPropertyOrder({"id", "name", "type", "description"})
  @JsonIgnoreProperties(ignoreUnknown = true)
  record FieldFile(
      @JsonProperty(required = true) int id,
      @JsonProperty(required = true) String name,
      @JsonProperty(required = true) Object type,
      @JsonInclude(JsonInclude.Include.NON_NULL) String description) {}

  /** The JSON Paimon writes, field for field. */
  public byte[] toJson() {
    List<FieldFile> fields = new ArrayList<>();
    for (DataField f : rowType.fields()) {
      fields.add(new FieldFile(f.id(), f.name(), f.type().toString(), f.description()));
    }
    return Json.write(
        new SchemaFile(
            VERSION,
            id,
            fields,
            highestFieldId,
            partitionKeys,
            primaryKeys,
            options.asMap(),
            comment,
            timeMillis));
  }

  /**
   * Parses a schema file.
   *
   * @param file the file's path, named in errors
   * @throws IOException naming the file and the field if it is not a schema changelake can use
   */
  public static TableSchema fromJson(byte[] bytes, String file) throws IOException {
    SchemaFile json = Json.read(bytes, SchemaFile.class, "a table schema", file);
    List<DataField> fields = new ArrayList<>();
    for (FieldFile f : json.fields()) {
      if (!(f.type() instanceof String type)) {
        throw new IOException(
            file
                + " column '"
                + f.name()
                + "' has a nested type, which changelake"
                + " does not support");
      }
      try {
        fields.add(new DataField(f.id(), f.name(), DataType.parse(type), f.description()));
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": " + e.getMessage(), e);
      }
    }
    RowType rowType = new RowType(fields);
    return new TableSchema(
        json.id(),
        rowType,
        Math.max(json.highestFieldId(), highestId(rowType)),
        orEmpty(json.partitionKeys()),
        orEmpty(json.primaryKeys()),
        TableOptions.of(json.options() == null ? Map.of() : json.options()),
        json.comment(),
        json.timeMillis());
  }

  private static List<String> orEmpty(List<String> keys) {
    return keys == null ? List.of() : keys;
  }
}
