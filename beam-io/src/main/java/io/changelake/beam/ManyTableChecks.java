package io.changelake.beam;

import org.apache.beam.sdk.schemas.Schema;

/**
 * The checks {@link ChangelakeWrite#expand} runs on a many-table write ({@link
 * ChangelakeWrite#toDestinations}) before it builds anything: it refuses the single-table settings
 * that have no meaning for it, naming the fix, and checks a {@link Destination#ofField} router's
 * field. Each table's own definition is checked on the workers, on the table's first row, since the
 * tables are known only from the rows.
 */
final class ManyTableChecks {

  private ManyTableChecks() {}

  static Destinations validate(ChangelakeWrite write, Schema input) {
    if (write.getDatabase() != null || write.getTable() != null) {
      throw WriteChecks.invalid(
          "to(warehouse, database, table) and toDestinations(warehouse, router, definitions)"
              + " exclude each other: keep to(...) for one table, toDestinations(...) for many");
    }
    refuse(write.getPrimaryKeys() != null, "withPrimaryKeys", "its primary keys");
    refuse(write.getPartitionKeys() != null, "withPartitionKeys", "its partition keys");
    refuse(write.getBuckets() != null, "withBuckets", "its bucket count");
    refuse(write.getTableOptions() != null, "withTableOptions", "its table options");
    if (write.getSchemaEvolution()) {
      throw WriteChecks.invalid(
          "withSchemaEvolution() is not offered with toDestinations(...): each table is created"
              + " from its definition, and a table that exists must fit the input; drop it, or"
              + " write an evolving table with its own to(...) write");
    }
    if (write.getDefinitions() == null) {
      throw WriteChecks.invalid("toDestinations(...): give the table definitions, not null");
    }
    if (write.getRouter() instanceof Destination.Field field && !field.fits(input)) {
      throw WriteChecks.invalid(
          "toDestinations(..., Destination.ofField('"
              + field.name()
              + "'), ...): the input has no STRING field of that name (fields "
              + input.getFieldNames()
              + ")");
    }
    return Destinations.many(
        write.getWarehouse(),
        write.getS3Settings(),
        write.getRouter(),
        write.getDefinitions(),
        input,
        write.getRowKindField(),
        write.getSequenceFields());
  }

  /** Refuses a single-table setting that belongs in each table's {@link TableDefinition}. */
  private static void refuse(boolean given, String setting, String what) {
    if (given) {
      throw WriteChecks.invalid(
          setting
              + " describes the one table of to(...): with toDestinations(...) each table's"
              + " TableDefinition gives "
              + what
              + "; drop "
              + setting);
    }
  }
}
