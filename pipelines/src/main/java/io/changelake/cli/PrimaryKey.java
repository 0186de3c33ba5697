package io.changelake.cli;

import io.changelake.schema.TableSchema;

/**
 * Takes a row's primary key, partition columns included, so that keys of different partitions never
 * meet.
 */
final class PrimaryKey {

  private final int[] indexes;

  PrimaryKey(TableSchema schema) {
    this.indexes = schema.primaryKeys().stream().mapToInt(schema.rowType()::indexOf).toArray();
  }

  /** The key of a full row. */
  RowValues of(Object[] row) {
    Object[] key = new Object[indexes.length];
    for (int i = 0; i < key.length; i++) {
      key[i] = row[indexes[i]];
    }
    return new RowValues(key);
  }
}
