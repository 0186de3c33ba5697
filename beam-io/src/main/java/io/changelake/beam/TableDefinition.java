package io.changelake.beam;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * How a many-table write ({@link ChangelakeWrite#toDestinations}) creates a destination's table the
 * first time a row goes to it: which input fields are its columns, its keys, its bucket count and
 * its table options. A table that already exists is written as it is, if the columns fit it.
 *
 * @param columns the input fields that are the table's columns, in column order; the write's
 *     row-kind field is never one, and its sequence fields must be among them
 * @param primaryKeys the primary-key columns
 * @param partitionKeys the partition columns, each a primary-key column (a cross-partition upsert
 *     table is refused by the many-table write)
 * @param buckets the fixed bucket count, at least 1 (the many-table write refuses dynamic buckets)
 * @param options further table options, in Paimon's names; the table options of the bucket count
 *     and the sequence fields are set from {@code buckets} and the write's sequence fields
 */
public record TableDefinition(
    List<String> columns,
    List<String> primaryKeys,
    List<String> partitionKeys,
    int buckets,
    Map<String, String> options)
    implements Serializable {

  public TableDefinition {
    columns = List.copyOf(columns);
    primaryKeys = List.copyOf(primaryKeys);
    partitionKeys = List.copyOf(partitionKeys);
    options = Map.copyOf(options);
  }

  /** An unpartitioned table of one bucket with these columns and primary key. */
  public static TableDefinition of(List<String> columns, List<String> primaryKeys) {
    return new TableDefinition(columns, primaryKeys, List.of(), 1, Map.of());
  }

  public TableDefinition withPartitionKeys(List<String> keys) {
    return new TableDefinition(columns, primaryKeys, keys, buckets, options);
  }

  public TableDefinition withBuckets(int count) {
    return new TableDefinition(columns, primaryKeys, partitionKeys, count, options);
  }

  public TableDefinition withOptions(Map<String, String> tableOptions) {
    return new TableDefinition(columns, primaryKeys, partitionKeys, buckets, tableOptions);
  }
}
