package io.changelake.beam;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.schema.TableSchema;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The table a write goes to, as workers receive it: where it is, how to reach S3, and how to create
 * it if it is missing. Opening it is the workers' job; the pipeline launcher never touches storage.
 */
final class TableTarget implements Serializable {
  private static final long serialVersionUID = 1L;

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

    /**
     * The first schema of the table.
     *
     * @throws IllegalArgumentException naming what is wrong: a field without a column type, a
     *     key that is no column, an option with a bad value, an aggregate function that does not
     *     fit its column
     */
    TableSchema schema() {
      return Table.checkMergeEngine(
          TableSchema.create(
              RowMapping.tableType(input, rowKindField), partitionKeys, primaryKeys, options, null));
    }
  }

  private final String warehouse;
  private final String database;
  private final String table;
  private final S3Settings s3;
  private final Creation creation;

  // TablePath is not serializable: keep its names, validated by the caller building one.
  TableTarget(String warehouse, TablePath path, S3Settings s3, Creation creation) {
    this.warehouse = warehouse;
    this.database = path.database();
    this.table = path.table();
    this.s3 = s3;
    this.creation = creation;
  }

  /** {@code warehouse/database.db/table/}: the key of the committer, and how messages name it. */
  String location() {
    return warehouse + (warehouse.endsWith("/") ? "" : "/") + path().root();
  }

  private TablePath path() {
    return new TablePath(database, table);
  }

  /** An open table and the store under it, closed together. */
  static final class Opened implements AutoCloseable {
    final ObjectStore store;
    final Table table;

    private Opened(ObjectStore store, Table table) {
      this.store = store;
      this.table = table;
    }

    @Override
    public void close() throws IOException {
      store.close();
    }
  }

  /**
   * Opens the table, creating it first when a creation is set and no table is there.
   *
   * @throws io.changelake.table.TableNotFoundException if there is no table and no creation
   */
  Opened open() throws IOException {
    ObjectStore store = ObjectStores.open(warehouse, s3);
    try {
      Table table =
          creation == null
              ? Table.open(store, path())
              : Table.openOrCreate(store, path(), creation.schema());
      return new Opened(store, table);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }
}
