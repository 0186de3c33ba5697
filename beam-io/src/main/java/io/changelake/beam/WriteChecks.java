package io.changelake.beam;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

/**
 * The checks {@link ChangelakeWrite#expand} runs on its settings against the input before it builds
 * anything: each message names the setting to fix.
 */
final class WriteChecks {

  private WriteChecks() {}

  /**
   * Checks every setting against the input; each message names the setting to fix.
   *
   * @return the tables the write's stages work on
   */
  static Destinations validate(ChangelakeWrite write, PCollection<Row> input) {
    boolean many = write.getRouter() != null;
    if (write.getWarehouse() == null || write.getWarehouse().isBlank()) {
      throw invalid(
          many
              ? "toDestinations(warehouse, router, definitions): give the warehouse"
              : "to(warehouse, database, table) is required: name the table to write (or"
                  + " toDestinations(warehouse, router, definitions) for many tables)");
    }
    if (!input.hasSchema()) {
      throw invalid("the input PCollection<Row> has no schema: call setRowSchema on it");
    }
    Schema schema = input.getSchema();
    String rowKind = write.getRowKindField();
    if (rowKind != null
        && (!schema.hasField(rowKind)
            || schema.getField(rowKind).getType().getTypeName() != Schema.TypeName.STRING)) {
      throw invalid(
          "withRowKindField('"
              + rowKind
              + "'): the input has no STRING field of that name"
              + " (fields "
              + schema.getFieldNames()
              + ")");
    }
    Duration interval = write.getCommitInterval();
    if (interval == null || !interval.isLongerThan(Duration.ZERO)) {
      throw invalid("withCommitInterval(" + interval + "): give a positive duration");
    }
    if (write.getMaxBatchRows() < 1) {
      throw invalid("withMaxBatchRows(" + write.getMaxBatchRows() + "): give at least 1");
    }
    try {
      RowMapping.tableType(schema, rowKind);
      OrderingContract.checkSequenceFields(schema, write.getSequenceFields(), rowKind);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return many ? ManyTableChecks.validate(write, schema) : single(write, schema);
  }

  private static Destinations single(ChangelakeWrite write, Schema schema) {
    TableReference table;
    try {
      table =
          new TableReference(
              write.getWarehouse(),
              write.getDatabase(),
              write.getTable(),
              write.getS3Settings(),
              null);
    } catch (IllegalArgumentException e) {
      throw invalid("to(warehouse, database, table): " + e.getMessage());
    }
    TableReference.Creation creation = creation(write, schema);
    try {
      SchemaFit.applyTo(table, schema, write.getRowKindField(), write.getSchemaEvolution());
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return Destinations.single(table.withCreation(creation), schema);
  }

  /**
   * How the write gives the table's rows their buckets: the existing table's mode, else the one of
   * the table it creates, else (no table here, none to create: the workers check) a fixed count; a
   * many-table write's tables always have a fixed count (the workers refuse others). Checks the
   * write's {@link OrderingContract} for that mode.
   *
   * @throws IllegalArgumentException naming the setting to fix if the write cannot order each key's
   *     changes
   */
  static TableReference.BucketMode bucketMode(
      ChangelakeWrite write, Destinations destinations, PCollection<Row> input) {
    if (destinations.isMany()) {
      try {
        // Its tables are created later, each by its definition: none is known to be order-free.
        OrderingContract.checkOrdered(
            input, write.getSequenceFields(), write.getArrivalOrder(), null);
      } catch (IllegalArgumentException e) {
        throw invalid(e.getMessage());
      }
      return TableReference.BucketMode.FIXED;
    }
    TableReference target = destinations.single();
    TableReference.BucketMode mode =
        target
            .existingSchema()
            .or(() -> Optional.ofNullable(target.creation()).map(c -> c.schema()))
            .map(target::bucketMode)
            .orElse(TableReference.BucketMode.FIXED);
    try {
      if (mode == TableReference.BucketMode.CROSS_PARTITION) {
        OrderingContract.checkCrossPartition(
            input, write.getSequenceFields(), write.getArrivalOrder(), target.location());
      } else {
        OrderingContract.checkOrdered(
            input, write.getSequenceFields(), write.getArrivalOrder(), target.creation());
      }
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return mode;
  }

  private static TableReference.Creation creation(ChangelakeWrite write, Schema schema) {
    if (write.getPrimaryKeys() == null) {
      if (write.getPartitionKeys() != null
          || write.getBuckets() != null
          || write.getTableOptions() != null) {
        throw invalid(
            "withPartitionKeys, withBuckets and withTableOptions describe a table to create:"
                + " also set withPrimaryKeys, or drop them to write an existing table");
      }
      return null;
    }
    Map<String, String> options =
        new LinkedHashMap<>(write.getTableOptions() == null ? Map.of() : write.getTableOptions());
    if (write.getSequenceFields() != null) {
      String fields = String.join(",", write.getSequenceFields());
      agree(options, "sequence.field", fields, "withSequenceField(" + fields + ")");
    }
    if (write.getBuckets() != null) {
      agree(
          options,
          "bucket",
          Integer.toString(write.getBuckets()),
          "withBuckets(" + write.getBuckets() + ")");
    }
    TableReference.Creation creation =
        new TableReference.Creation(
            schema,
            write.getRowKindField(),
            write.getPrimaryKeys(),
            write.getPartitionKeys() == null ? List.of() : write.getPartitionKeys(),
            options);
    try {
      creation.schema(); // refuses bad table options here, not on a worker
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
    return creation;
  }

  /** Sets a table option from a setting, refusing a table option that says otherwise. */
  private static void agree(Map<String, String> options, String key, String value, String setting) {
    String given = options.put(key, value);
    if (given != null && !given.equals(value)) {
      throw invalid(
          setting + " and table option '" + key + "'=" + given + " disagree: set one of them");
    }
  }

  static IllegalArgumentException invalid(String message) {
    return new IllegalArgumentException("ChangelakeIO.write(): " + message);
  }
}
