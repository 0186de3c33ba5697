package io.changelake.table;

import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;

/**
 * What changelake takes of a cross-partition upsert table (a primary key without every partition
 * column): dynamic bucket mode and no {@code sequence.field}; {@link CrossPartitionUpsert} writes
 * it.
 */
public final class CrossPartitionTables {

  private CrossPartitionTables() {}

  /**
   * Refuses a cross-partition upsert table with a {@code sequence.field}, as Paimon 1.3.1 does, or
   * with a fixed bucket count: Paimon takes that one but keeps no key index, so a key written to
   * two partitions is two rows; changelake refuses rather than give an upsert table duplicate keys.
   */
  public static void check(TableSchema schema, String location, String use) {
    if (!schema.crossPartitionUpsert()) {
      return;
    }
    String what =
        "table "
            + location
            + " cannot be "
            + use
            + ": its primary key "
            + schema.primaryKeys()
            + " does not hold the partition columns "
            + schema.partitionKeys()
            + " (a cross-partition upsert table, whose keys move between partitions), ";
    if (!schema.options().dynamicBucket()) {
      throw new UnsupportedTableException(
          what
              + "which needs 'bucket' = -1 (dynamic bucket mode: Paimon's key index), not 'bucket'"
              + " = "
              + schema.options().bucket()
              + " (where Paimon keeps a key once per partition, not once in the table): set"
              + " 'bucket' = -1, or put every partition column in the primary key",
          null);
    }
    if (!schema.options().sequenceFields().isEmpty()) {
      throw new UnsupportedTableException(
          what
              + "which cannot have a 'sequence.field', as in Paimon (\"You can not use"
              + " sequence.field in cross partition update case\"): remove 'sequence.field'",
          null);
    }
  }
}
