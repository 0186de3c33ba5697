package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BucketFunction;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.types.DataField;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.Arrays;

/**
 * Finds the partition and bucket of a row, after checking that the row fits the table: the same
 * routing {@link TableWriter} applies, for callers that group rows by bucket before writing them
 * (one writer per bucket, as the Beam write does). In a dynamic-bucket table the bucket comes from
 * the table's hash index ({@link DynamicBuckets}), which only a {@link TableWriter} holds.
 *
 * <p>Not thread-safe (the codecs reuse buffers); keep one per thread.
 */
public final class BucketAssigner {

  /**
   * Where a row goes.
   *
   * @param partition the partition values, serialized as manifests store them
   * @param partitionPath the partition's folder ({@code k=v/.../}, empty if unpartitioned)
   * @param bucket the bucket, 0 to the bucket count - 1
   */
  public record RowBucket(SerializedRow partition, String partitionPath, int bucket) {
    /** The bucket's folder below the table, unique per (partition, bucket): a readable id. */
    public String id() {
      return partitionPath + "bucket-" + bucket;
    }

    /** The bucket number of an {@link #id()}. */
    public static int bucketOfId(String id) {
      return Integer.parseInt(id.substring(id.lastIndexOf("bucket-") + "bucket-".length()));
    }
  }

  private final TableSchema schema;
  private final RowType rowType;
  private final String location;
  private final int[] partitionIndexes;
  private final int[] bucketKeyIndexes;
  private final BinaryRowCodec partitionCodec;
  private final BucketFunction bucketFunction;
  private final BinaryRowCodec keyCodec;
  private final DynamicBuckets dynamicBuckets;

  /**
   * The partition of the last row, serialized and as a folder: consecutive rows mostly share a
   * partition (every row of an unpartitioned table does), and both forms cost allocations a row.
   */
  private Object[] lastPartition;

  private SerializedRow lastPartitionRow;
  private String lastPartitionPath;

  /**
   * An assigner of a table with a fixed bucket count.
   *
   * @param schema the table's schema
   * @param location where the table lives, named in messages
   * @throws UnsupportedTableException if the table is a dynamic-bucket table ({@code bucket} = -1),
   *     whose buckets only a {@link TableWriter} assigns (it owns the table's hash index)
   */
  public BucketAssigner(TableSchema schema, String location) {
    this(schema, location, null);
    if (schema.options().dynamicBucket()) {
      throw new UnsupportedTableException(
          "table "
              + location
              + " has 'bucket' = -1 (dynamic bucket mode): its buckets come from the table's hash"
              + " index: assign them with Table.newHashBucketAssigner, or let a TableWriter assign"
              + " them",
          null);
    }
  }

  /** An assigner over the given hash index when the table is a dynamic-bucket table. */
  BucketAssigner(TableSchema schema, String location, DynamicBuckets dynamicBuckets) {
    this.schema = schema;
    this.rowType = schema.rowType();
    this.location = location;
    this.partitionIndexes = schema.partitionIndexes();
    this.bucketKeyIndexes = schema.bucketKeyIndexes();
    this.partitionCodec = new BinaryRowCodec(schema.partitionType());
    this.dynamicBuckets = dynamicBuckets;
    boolean dynamic = schema.options().dynamicBucket();
    this.bucketFunction =
        dynamic
            ? null
            : new BucketFunction(rowType.project(bucketKeyIndexes), schema.options().bucket());
    this.keyCodec = dynamic ? new BinaryRowCodec(rowType.project(bucketKeyIndexes)) : null;
  }

  /** The table's bucket count: -1 for a dynamic-bucket table, as Paimon records it. */
  public int buckets() {
    return bucketFunction == null ? -1 : bucketFunction.buckets();
  }

  /**
   * The partition and bucket of a row.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table: a wrong
   *     column count, a null in a NOT NULL column (every primary-key column is one), a value of the
   *     wrong Java class
   */
  public RowBucket assign(Object[] row) throws IOException {
    check(row);
    rememberPartitionOf(row);
    Object[] bucketKey = project(row, bucketKeyIndexes);
    return new RowBucket(
        lastPartitionRow,
        lastPartitionPath,
        bucketFunction != null
            ? bucketFunction.bucket(bucketKey)
            : dynamicBuckets.assign(lastPartitionRow, keyCodec.hash(bucketKey)));
  }

  /** {@link #remember}s the row's partition; an unpartitioned table's once. */
  private void rememberPartitionOf(Object[] row) {
    if (partitionIndexes.length > 0 || lastPartitionRow == null) {
      remember(project(row, partitionIndexes));
    }
  }

  /**
   * Makes {@code partition} the last one, serialized and as a folder, unless it is the last: the
   * same bytes (a NaN's payload counts) and equal values (a decimal's scale counts, as its folder
   * name keeps it).
   */
  private void remember(Object[] partition) {
    byte[] bytes = partitionCodec.encode(partition);
    if (lastPartitionRow != null
        && Arrays.equals(bytes, lastPartitionRow.bytes())
        && Arrays.equals(partition, lastPartition)) {
      return;
    }
    lastPartitionRow = new SerializedRow(bytes);
    lastPartitionPath =
        TablePath.partitionPath(
            schema.partitionType(), partition, schema.options().partitionDefaultName());
    lastPartition = partition;
  }

  /**
   * Where a row of a dynamic-bucket table goes when its assigner chose {@code bucket}: the key
   * joins that bucket's hash index.
   *
   * @throws IllegalArgumentException as {@link #assign} does
   * @throws IllegalStateException if the key already has another bucket
   */
  RowBucket assignTo(Object[] row, int bucket) throws IOException {
    RowBucket target = inBucket(row, bucket);
    dynamicBuckets.record(target.partition(), keyHash(row), bucket);
    return target;
  }

  /** The row's partition with {@code bucket}, after checking that the row fits the table. */
  RowBucket inBucket(Object[] row, int bucket) {
    SerializedRow partition = partitionOf(row);
    return new RowBucket(partition, lastPartitionPath, bucket);
  }

  /** The partition of a row, serialized, after checking that the row fits the table. */
  SerializedRow partitionOf(Object[] row) {
    check(row);
    rememberPartitionOf(row);
    return lastPartitionRow;
  }

  /** Paimon's hash of a row's bucket key (a dynamic-bucket table's only). */
  int keyHash(Object[] row) {
    return keyCodec.hash(project(row, bucketKeyIndexes));
  }

  private void check(Object[] row) {
    if (row == null || row.length != rowType.size()) {
      throw new IllegalArgumentException(
          "a row of "
              + location
              + " has "
              + rowType.size()
              + " columns "
              + rowType.names()
              + ", got "
              + (row == null ? "null" : row.length + " values"));
    }
    for (int i = 0; i < row.length; i++) {
      DataField field = rowType.field(i);
      Object value = row[i];
      if (value == null) {
        if (!field.type().nullable()) {
          throw new IllegalArgumentException(
              "column '"
                  + field.name()
                  + "' is NOT NULL"
                  + (schema.primaryKeys().contains(field.name()) ? " (primary key)" : "")
                  + " but the row has null there");
        }
      } else if (!field.type().root().javaClass().isInstance(value)) {
        throw new IllegalArgumentException(
            "column '"
                + field.name()
                + "' of type "
                + field.type()
                + " takes a "
                + field.type().root().javaClass().getSimpleName()
                + ", got a "
                + value.getClass().getSimpleName()
                + " ("
                + value
                + ")");
      }
    }
  }

  static Object[] project(Object[] row, int[] indexes) {
    Object[] out = new Object[indexes.length];
    for (int i = 0; i < indexes.length; i++) {
      out[i] = row[indexes[i]];
    }
    return out;
  }
}
