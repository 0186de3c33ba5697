package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.FileSchemas;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaEvolution;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * A changelake table: a Paimon-format primary-key table in a folder of an object store. The entry
 * point of the storage engine.
 *
 * <pre>{@code
 * ObjectStore store = ObjectStores.open("file:///tmp/warehouse", S3Settings.defaults());
 * TableSchema schema = TableSchema.create(rowType, List.of(), List.of("order_id"),
 *     Map.of("bucket", "4", "changelog-producer", "lookup"), null);
 * Table table = Table.create(store, new TablePath("shop", "orders"), schema);
 * try (TableWriter writer = table.newWriter()) {
 *   writer.write(RowKind.INSERT, new Object[] {1001L, 10L, 100L});
 *   table.newCommit("my-job").commit(1, writer.prepareCommit(1));
 * }
 * }</pre>
 *
 * <p>A table object is cheap and holds no open resources; writers and commits it creates do.
 */
public final class Table {

  private final ObjectStore store;
  private final TablePath path;
  private final TableSchema schema;
  private final FileSchemas fileSchemas;

  Table(ObjectStore store, TablePath path, TableSchema schema) {
    this.store = store;
    this.path = path;
    this.schema = schema;
    SchemaLog log = new SchemaLog(store, path);
    this.fileSchemas = new FileSchemas(schema, log::read);
  }

  /**
   * Creates a table with its first schema.
   *
   * @throws TableExistsException if a table is already at that path
   * @throws IllegalArgumentException if the merge engine refuses the schema's options (an aggregate
   *     function that does not fit its column type, for example), naming the fix
   */
  public static Table create(ObjectStore store, TablePath path, TableSchema schema)
      throws IOException {
    checkMergeEngine(schema);
    CrossPartitionTables.check(schema, store.root() + path.root(), "created");
    SchemaLog schemas = new SchemaLog(store, path);
    if (schemas.latestId().isPresent() || !schemas.tryCreate(schema)) {
      throw new TableExistsException(
          "table "
              + path.database()
              + "."
              + path.table()
              + " already exists at "
              + store.root()
              + path.root()
              + ": open it instead, or choose another name");
    }
    return new Table(store, path, schema);
  }

  /**
   * Checks what {@link #create} checks before it writes anything: that the merge engine accepts the
   * schema's options (aggregate functions against column types, delete rules). A caller that builds
   * a schema long before the table exists (a pipeline at construction time) calls it to fail early.
   *
   * @return the schema, unchanged
   * @throws IllegalArgumentException naming the option and the fix
   */
  public static TableSchema checkMergeEngine(TableSchema schema) {
    // The engine lives above the schema (mergetree imports schema), so the schema cannot check
    // it itself: the table, which stands above both, does.
    MergeFunctions.create(schema);
    return schema;
  }

  /**
   * Opens an existing table at its newest schema.
   *
   * @throws TableNotFoundException naming the location if there is no table
   */
  public static Table open(ObjectStore store, TablePath path) throws IOException {
    SchemaLog schemas = new SchemaLog(store, path);
    OptionalLong latest = schemas.latestId();
    if (latest.isEmpty()) {
      throw new TableNotFoundException(
          "no table "
              + path.database()
              + "."
              + path.table()
              + " at "
              + store.root()
              + path.root()
              + " (no schema file): create it first, or check the warehouse, database and table");
    }
    return new Table(store, path, schemas.read(latest.getAsLong()));
  }

  /** Opens the table, or creates it with {@code schema} if it does not exist. */
  public static Table openOrCreate(ObjectStore store, TablePath path, TableSchema schema)
      throws IOException {
    try {
      return open(store, path);
    } catch (TableNotFoundException e) {
      try {
        return create(store, path, schema);
      } catch (TableExistsException createdMeanwhile) {
        return open(store, path);
      }
    }
  }

  public ObjectStore store() {
    return store;
  }

  public TablePath path() {
    return path;
  }

  public TableSchema schema() {
    return schema;
  }

  public TableOptions options() {
    return schema.options();
  }

  /**
   * The table's schema versions: ids 0 to {@code schema().id()}, and later ones if another alter
   * landed since this table was opened.
   */
  public SchemaLog schemas() {
    return new SchemaLog(store, path);
  }

  /**
   * The schemas the table's data files were written with, read as this table's schema; every reader
   * and writer of the table opens files through it.
   */
  FileSchemas fileSchemas() {
    return fileSchemas;
  }

  /**
   * Changes the table's schema: writes schema {@code schema().id() + 1} as Paimon writes it, if no
   * other alter wrote it first. Rows written before read on under the new schema (see {@link
   * SchemaEvolution} for what may change); writers and readers opened afterwards use it.
   *
   * @return the table at the new schema
   * @throws IllegalArgumentException naming the change that is refused and why
   * @throws SchemaConflictException if another alter wrote the next schema first (or this table
   *     object is not at the latest schema): open the table again and retry on its new schema
   */
  public Table alter(List<SchemaChange> changes) throws IOException {
    TableSchema next = SchemaEvolution.apply(schema, changes, snapshots().latest().isPresent());
    checkMergeEngine(next);
    if (!schemas().tryCreate(next)) {
      throw new SchemaConflictException(
          "schema "
              + next.id()
              + " of "
              + location()
              + " was written by another alter first: open the table again and retry the change on"
              + " the new schema");
    }
    return new Table(store, path, next);
  }

  /** The table's snapshots. */
  public SnapshotLog snapshots() {
    return new SnapshotLog(store, path);
  }

  /** A reader of which files each snapshot holds. */
  public TableScan newScan() {
    return new TableScan(store, path);
  }

  /** A writer of new rows; see {@link TableWriter}. */
  public TableWriter newWriter() {
    return new TableWriter(this, List.of());
  }

  /**
   * A writer that continues an earlier writer of the same buckets: it sees the latest snapshot plus
   * those of {@code uncommitted} (that writer's messages, in the order it prepared them) the
   * snapshot does not hold yet. See {@link UncommittedMessages}.
   */
  public TableWriter newWriter(List<CommitMessage> uncommitted) {
    return new TableWriter(this, uncommitted);
  }

  /**
   * Assigner {@code assigner} (0 to {@code dynamic-bucket.initial-buckets} - 1) of a dynamic-bucket
   * table's keys; see {@link HashBucketAssigner}.
   *
   * @throws io.changelake.schema.UnsupportedTableException if the table has a fixed bucket count
   */
  public HashBucketAssigner newHashBucketAssigner(int assigner) {
    return new HashBucketAssigner(this, assigner);
  }

  /**
   * Assigner {@code assigner} (0 to {@code dynamic-bucket.initial-buckets} - 1) of a
   * cross-partition upsert table's keys, for a writer that assigns in one place and writes in
   * others; see {@link CrossPartitionUpsert}. It reads nothing before its first row.
   *
   * @param folder a folder of local disk, the assigner's alone, for its key index
   * @throws UnsupportedTableException if the table is no cross-partition upsert table, or one
   *     changelake does not write
   */
  public CrossPartitionUpsert newCrossPartitionUpsert(int assigner, Path folder) {
    requireSupported("written");
    if (!schema.crossPartitionUpsert()) {
      throw new UnsupportedTableException(
          "table "
              + location()
              + " is no cross-partition upsert table: its primary key "
              + schema.primaryKeys()
              + " holds every partition column of "
              + schema.partitionKeys(),
          null);
    }
    return new CrossPartitionUpsert(
        this,
        List.of(),
        new BucketAssigner(schema, location(), null),
        folder,
        options().dynamicBucketInitialBuckets(),
        assigner);
  }

  /** A committer that records {@code commitUser} in its snapshots. */
  public SnapshotCommit newCommit(String commitUser) {
    return new SnapshotCommit(store, path, schema, commitUser);
  }

  /** A batch reader of the table's rows. */
  public TableRead newRead() {
    return new TableRead(this);
  }

  /** A planner and reader of the table's changelog; see {@link ChangelogScan}. */
  public ChangelogScan newChangelogScan() {
    return new ChangelogScan(this);
  }

  /** The progress records of the table's changelog readers. */
  public Consumers consumers() {
    return new Consumers(store, path);
  }

  /** The table's tags: named snapshots kept past expiry; see {@link Tags}. */
  public Tags tags() {
    return new Tags(store, path);
  }

  /** A run of dedicated compaction, for write-only tables; see {@link DedicatedCompaction}. */
  public DedicatedCompaction newCompaction() {
    return new DedicatedCompaction(this);
  }

  /** Rolls the table back to a snapshot or a tag; see {@link Rollback}. */
  public Rollback rollback() {
    return new Rollback(this);
  }

  /**
   * The expiry of old snapshots under the table's retention options; see {@link SnapshotExpiry}.
   */
  public SnapshotExpiry newSnapshotExpiry() {
    return new SnapshotExpiry(this);
  }

  /**
   * Refuses the table, before it is used as {@code use} says, if its options ask for behaviour
   * changelake does not implement; see {@link TableOptions#checkSupported}.
   */
  void requireSupported(String use) {
    schema.options().checkSupported(location(), use);
    CrossPartitionTables.check(schema, location(), use);
  }

  /** The folder of a partition's buckets ({@code k=v/.../}, empty if unpartitioned). */
  String partitionPath(SerializedRow partition) {
    Object[] values = new BinaryRowCodec(schema.partitionType()).decode(partition.bytes());
    return TablePath.partitionPath(
        schema.partitionType(), values, schema.options().partitionDefaultName());
  }

  /** Where the table lives, for messages. */
  public String location() {
    return store.root() + path.root();
  }

  @Override
  public String toString() {
    return "Table[" + location() + "]";
  }
}
