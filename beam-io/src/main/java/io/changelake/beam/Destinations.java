package io.changelake.beam;

import io.changelake.store.S3Settings;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;

/**
 * The tables a write's stages work on: the one table of {@link ChangelakeWrite#to}, or the tables
 * of a many-table write ({@link ChangelakeWrite#toDestinations}), each found from its rows and
 * created on first sight from its {@link TableDefinition}.
 *
 * <p>Every element key between the stages names its table: a single table's keys are its bucket ids
 * ({@code k=v/.../bucket-<n>}, as they always were, so that a running single-table job's state
 * stays valid), a many-table write's are {@code <database>/<table>/<bucket id>} (neither name holds
 * a {@code /}). A {@link WrittenBatch} carries that key as its bucket, so the committer, keyed by
 * table location, knows its table from the batches.
 */
final class Destinations implements Serializable {
  private static final long serialVersionUID = 1L;

  private final @Nullable TableReference single;

  /** The single table's destination, made once: every row and batch of that write names it. */
  private final @Nullable Destination singleDestination;

  private final String warehouse;
  private final S3Settings s3;
  private final @Nullable SerializableFunction<Row, Destination> router;
  private final @Nullable SerializableFunction<Destination, TableDefinition> definitions;
  private final Schema input;
  private final @Nullable String rowKindField;
  private final @Nullable List<String> sequenceFields;

  private Destinations(
      @Nullable TableReference single,
      String warehouse,
      S3Settings s3,
      @Nullable SerializableFunction<Row, Destination> router,
      @Nullable SerializableFunction<Destination, TableDefinition> definitions,
      Schema input,
      @Nullable String rowKindField,
      @Nullable List<String> sequenceFields) {
    this.single = single;
    this.singleDestination =
        single == null ? null : new Destination(single.database(), single.table());
    this.warehouse = warehouse;
    this.s3 = s3;
    this.router = router;
    this.definitions = definitions;
    this.input = input;
    this.rowKindField = rowKindField;
    this.sequenceFields = sequenceFields;
  }

  /** The one table of a single-table write, whose rows have the input schema as they are. */
  static Destinations single(TableReference table, Schema input) {
    return new Destinations(table, table.warehouse(), table.s3(), null, null, input, null, null);
  }

  /** The tables of a many-table write in {@code warehouse}. */
  static Destinations many(
      String warehouse,
      S3Settings s3,
      SerializableFunction<Row, Destination> router,
      SerializableFunction<Destination, TableDefinition> definitions,
      Schema input,
      @Nullable String rowKindField,
      @Nullable List<String> sequenceFields) {
    return new Destinations(
        null, warehouse, s3, router, definitions, input, rowKindField, sequenceFields);
  }

  boolean isMany() {
    return single == null;
  }

  /** The table of a single-table write. */
  TableReference single() {
    if (single == null) {
      throw new IllegalStateException("a many-table write has no single table");
    }
    return single;
  }

  /** The warehouse every table is in. */
  String warehouse() {
    return warehouse;
  }

  /**
   * The location of the row's table, under which a row the write refused is settled: in a
   * many-table write the warehouse itself if the row names no usable destination.
   */
  String locationOf(Row row) {
    if (single != null) {
      return single.location();
    }
    try {
      Destination destination = route(row);
      return new TableReference(warehouse, destination.database(), destination.table(), s3, null)
          .location();
    } catch (RuntimeException noDestination) {
      return warehouse;
    }
  }

  /** The input schema, the union of every destination's columns in a many-table write. */
  Schema input() {
    return input;
  }

  /**
   * The row's destination.
   *
   * @throws IllegalArgumentException (or another runtime exception of the user's router) if the row
   *     names no usable destination
   */
  Destination route(Row row) {
    if (singleDestination != null) {
      return singleDestination;
    }
    Destination destination = router.apply(row);
    if (destination == null) {
      throw new IllegalArgumentException("the row has no destination");
    }
    return destination;
  }

  /** The element key of {@code bucket} (a bucket id or an assigner key) of the destination. */
  String key(Destination destination, String bucket) {
    return single != null
        ? bucket
        : destination.database() + "/" + destination.table() + "/" + bucket;
  }

  /** The destination an element key names. */
  Destination destinationOf(String key) {
    if (singleDestination != null) {
      return singleDestination;
    }
    int first = key.indexOf('/');
    int second = key.indexOf('/', first + 1);
    return new Destination(key.substring(0, first), key.substring(first + 1, second));
  }

  /** The bucket part (a bucket id or an assigner key) of an element key. */
  String bucketOf(String key) {
    if (single != null) {
      return key;
    }
    return key.substring(key.indexOf('/', key.indexOf('/') + 1) + 1);
  }

  /** A table's commit user: the write's own, followed in a many-table write by the table. */
  String commitUser(String user, Destination destination) {
    return single != null ? user : user + "-" + destination;
  }

  /**
   * The destination's table, how to create it, and the input fields it takes.
   *
   * @throws IllegalArgumentException naming what is wrong with the destination's definition: it
   *     failed or gave none, a column that is no input field, a key that is no column, a sequence
   *     field that is no column, a partition outside the key, a bucket count below 1, an option the
   *     write sets itself
   */
  Target target(Destination destination) {
    if (single != null) {
      return new Target(destination, single, input, null);
    }
    TableDefinition definition;
    try {
      definition = definitions.apply(destination);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("its table definition failed: " + e, e);
    }
    if (definition == null) {
      throw new IllegalArgumentException("the table definitions give it none");
    }
    List<String> fields = new ArrayList<>();
    for (String column : definition.columns()) {
      if (!input.hasField(column) || column.equals(rowKindField)) {
        throw new IllegalArgumentException(
            "column '"
                + column
                + "' of its definition is no input field (fields "
                + input.getFieldNames()
                + ", the row-kind field excluded)");
      }
      fields.add(column);
    }
    for (String field : sequenceFields == null ? List.<String>of() : sequenceFields) {
      if (!definition.columns().contains(field)) {
        throw new IllegalArgumentException(
            "its definition lacks the sequence field '" + field + "' among its columns");
      }
    }
    if (!definition.primaryKeys().containsAll(definition.partitionKeys())) {
      throw new IllegalArgumentException(
          "partition keys "
              + definition.partitionKeys()
              + " outside primary key "
              + definition.primaryKeys()
              + " make a cross-partition upsert table, which the many-table write does not write");
    }
    if (definition.buckets() < 1) {
      throw new IllegalArgumentException(
          "buckets "
              + definition.buckets()
              + ": the many-table write writes fixed-bucket tables, give at least 1");
    }
    for (String own : List.of("bucket", "sequence.field")) {
      if (definition.options().containsKey(own)) {
        throw new IllegalArgumentException(
            "table option '"
                + own
                + "' is set by the write (the definition's buckets, the write's"
                + " sequence fields): drop it");
      }
    }
    // The fields a table's rows carry besides its columns: their kind, position, dynamic columns.
    for (Schema.Field f : input.getFields()) {
      if (f.getName().equals(rowKindField)
          || SourcePosition.isField(f.getType())
          || DynamicColumns.isField(f.getType())) {
        fields.add(f.getName());
      }
    }
    Schema.Builder projected = Schema.builder();
    int[] indexes = new int[fields.size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = input.indexOf(fields.get(i));
      projected.addField(input.getField(indexes[i]));
    }
    Schema schema = projected.build();
    Map<String, String> options = new LinkedHashMap<>(definition.options());
    options.put("bucket", Integer.toString(definition.buckets()));
    if (sequenceFields != null) {
      options.put("sequence.field", String.join(",", sequenceFields));
    }
    TableReference.Creation creation =
        new TableReference.Creation(
            schema, rowKindField, definition.primaryKeys(), definition.partitionKeys(), options);
    creation.schema(); // a key that is no column, a bad option: refused here, naming it
    TableReference reference =
        new TableReference(warehouse, destination.database(), destination.table(), s3, creation);
    return new Target(destination, reference, schema, indexes);
  }

  /**
   * One destination's table as the stages see it.
   *
   * @param input the schema of the rows its mapping reads: the write's input for a single table,
   *     else the definition's columns and the fields every row carries
   * @param fields the input field of each field of {@code input}, or null: the rows as they are
   */
  record Target(
      Destination destination, TableReference reference, Schema input, @Nullable int[] fields) {

    /** The row with only this table's fields. */
    Row project(Row row) {
      if (fields == null) {
        return row;
      }
      List<Object> values = new ArrayList<>(fields.length);
      for (int index : fields) {
        values.add(row.getValue(index));
      }
      return Row.withSchema(input).attachValues(values);
    }
  }
}
