package io.changelake.beam;

import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.CrossPartitionTables;
import io.changelake.table.Table;
import io.changelake.table.TableNotFoundException;
import io.changelake.table.TablePath;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table a stage works on, as plain serializable values that travel with the pipeline: where it
 * is, how to reach S3, and, for a write that may create it, how. Every worker opens its own object
 * store and table from it ({@link #open()}), since neither can travel; the pipeline launcher only
 * opens it to read the schema of a table it reads.
 *
 * @param warehouse {@code s3://bucket/prefix}, {@code file:///path} or a local path
 * @param database the database, checked as {@link TablePath} checks it
 * @param table the table name, checked as {@link TablePath} checks it
 * @param s3 how to reach S3 for an {@code s3://} warehouse
 * @param creation how to create the table when it is missing, or null to require that it exists
 */
record TableReference(
    String warehouse, String database, String table, S3Settings s3, Creation creation)
    implements Serializable {

  private static final Logger LOG = LoggerFactory.getLogger(TableReference.class);

  /**
   * @throws IllegalArgumentException naming the bad database or table name, so that a bad name
   *     fails when the pipeline is built, not on a worker
   */
  TableReference {
    // TablePath is not serializable: keep its names, validated here.
    new TablePath(database, table);
  }

  /** An existing table reached with the default S3 settings. */
  static TableReference of(String warehouse, String database, String table) {
    return new TableReference(warehouse, database, table, S3Settings.defaults(), null);
  }

  TableReference withS3Settings(S3Settings settings) {
    return new TableReference(warehouse, database, table, settings, creation);
  }

  TableReference withCreation(Creation spec) {
    return new TableReference(warehouse, database, table, s3, spec);
  }

  /** {@code warehouse/database.db/table/}: the key of the committer, and how messages name it. */
  String location() {
    return warehouse + (warehouse.endsWith("/") ? "" : "/") + path().root();
  }

  private TablePath path() {
    return new TablePath(database, table);
  }

  /**
   * How to create the table: the input schema gives the columns (all but the row-kind field).
   * Beam's {@link Schema} is serializable where our {@link TableSchema} is not.
   */
  record Creation(
      Schema input,
      String rowKindField,
      List<String> primaryKeys,
      List<String> partitionKeys,
      Map<String, String> options)
      implements Serializable {

    private static final List<String> ORDER_FREE_AGGREGATES =
        List.of("sum", "product", "count", "min", "max", "bool_and", "bool_or");

    /**
     * The first schema of the table.
     *
     * @throws IllegalArgumentException naming what is wrong: a field without a column type, a key
     *     that is no column, an option with a bad value, an aggregate function that does not fit
     *     its column
     */
    TableSchema schema() {
      return Table.checkMergeEngine(
          TableSchema.create(
              RowMapping.tableType(input, rowKindField),
              partitionKeys,
              primaryKeys,
              options,
              null));
    }

    /**
     * Whether the table merges each key's rows to the same result in any order: a table with a
     * {@code sequence.field}, or an aggregation table of plain inserts whose every value column has
     * an aggregate that does not care about order (sum, product, count, min, max, bool_and,
     * bool_or); never a cross-partition upsert table.
     */
    boolean orderFree() {
      if (!primaryKeys.containsAll(partitionKeys)) {
        // A cross-partition key's first row decides its partition, whatever the merge.
        return false;
      }
      TableOptions table = TableOptions.of(options);
      if (!table.sequenceFields().isEmpty()) {
        return true;
      }
      if (rowKindField != null || table.mergeEngine() != MergeEngine.AGGREGATION) {
        return false;
      }
      for (String column : input.getFieldNames()) {
        if (!primaryKeys.contains(column)
            && !ORDER_FREE_AGGREGATES.contains(table.aggregateFunction(column))) {
          return false;
        }
      }
      return true;
    }
  }

  /** An open table and the store under it; closing it closes the store. */
  record Opened(ObjectStore store, Table table) implements AutoCloseable {
    @Override
    public void close() throws IOException {
      store.close();
    }
  }

  /**
   * Opens the table, creating it first when a creation is set and no table is there.
   *
   * @throws TableNotFoundException naming the location if there is no table and no creation
   */
  Opened open() throws IOException {
    ObjectStore store = ObjectStores.open(warehouse, s3);
    try {
      Table opened =
          creation == null
              ? Table.open(store, path())
              : Table.openOrCreate(store, path(), creation.schema());
      return new Opened(store, opened);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /**
   * Whether the warehouse is a local folder that does not exist: then no table is there, and
   * opening one would create the folder.
   */
  boolean absentLocally() {
    return !warehouse.startsWith("s3://")
        && !Files.isDirectory(
            warehouse.startsWith("file:") ? Path.of(URI.create(warehouse)) : Path.of(warehouse));
  }

  /**
   * The schema of the existing table, if it can be read now (the launcher, building a pipeline);
   * empty when there is no table yet or the warehouse cannot be reached from here.
   */
  Optional<TableSchema> existingSchema() {
    if (absentLocally()) {
      return Optional.empty();
    }
    try (Opened opened = withCreation(null).open()) {
      return Optional.of(opened.table().schema());
    } catch (TableNotFoundException absent) {
      return Optional.empty();
    } catch (IOException | UncheckedIOException unreachable) {
      LOG.warn(
          "cannot read table {} while building the pipeline: {}", this, unreachable.getMessage());
      return Optional.empty();
    }
  }

  /** How a write gives a table's rows their buckets, which decides its stages. */
  enum BucketMode {
    /** A fixed bucket count: a row's bucket is its key's hash modulo the count. */
    FIXED("a fixed bucket count"),
    /** {@code bucket} = -1: {@link AssignHashBucketFn} assigns buckets from the hash index. */
    DYNAMIC("dynamic bucket mode"),
    /**
     * {@code bucket} = -1 and a primary key without every partition column: {@link
     * AssignCrossPartitionFn} places keys by a key index of the whole table.
     */
    CROSS_PARTITION("a cross-partition upsert table");

    private final String description;

    BucketMode(String description) {
      this.description = description;
    }

    @Override
    public String toString() {
      return description;
    }
  }

  /**
   * How a write gives a table of this schema its buckets.
   *
   * @throws UnsupportedTableException if it is a cross-partition upsert table changelake does not
   *     write (a fixed bucket count, a {@code sequence.field}), naming the fix
   */
  BucketMode bucketMode(TableSchema schema) {
    if (schema.crossPartitionUpsert()) {
      CrossPartitionTables.check(schema, location(), "written");
      return BucketMode.CROSS_PARTITION;
    }
    return schema.options().dynamicBucket() ? BucketMode.DYNAMIC : BucketMode.FIXED;
  }

  /** {@link #open()}, polling every {@code poll} until some writer has created the table. */
  Opened awaitOpen(Duration poll) throws IOException {
    while (true) {
      try {
        return open();
      } catch (TableNotFoundException absent) {
        LOG.info("waiting {} for the table to be created: {}", poll, absent.getMessage());
        try {
          Thread.sleep(poll.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for table " + this, e);
        }
      }
    }
  }

  /** Names the table, never the S3 settings (they may hold a secret). */
  @Override
  public String toString() {
    return database + "." + table + " in " + warehouse;
  }
}
