package io.changelake.format;

import io.changelake.types.RowType;

/**
 * The bucket of a row in a table with a fixed number of buckets, computed as Paimon's default
 * bucket function does ({@code bucket-function.type = default}), so Paimon writers and changelake
 * put a key in the same bucket.
 *
 * <p>bucket = {@code abs(hash % buckets)}, where hash is {@link BinaryRowCodec#hash} of the
 * bucket-key values: the columns of the {@code bucket-key} option, or else the primary key without
 * the partition columns.
 *
 * <p>Not thread-safe (it reuses its codec's buffer); keep one per thread.
 */
public final class BucketFunction {

  private final BinaryRowCodec bucketKeyCodec;
  private final int buckets;

  /**
   * A bucket function over bucket keys of the given type.
   *
   * @param bucketKeyType the bucket-key columns, in the order Paimon lists them
   * @param buckets the table's bucket count (its option "bucket"), at least 1
   * @throws IllegalArgumentException if buckets is below 1: dynamic (-1) and postponed (-2) bucket
   *     modes assign buckets otherwise
   */
  public BucketFunction(RowType bucketKeyType, int buckets) {
    if (buckets < 1) {
      throw new IllegalArgumentException(
          "a fixed bucket count must be at least 1, got "
              + buckets
              + "; set the table option 'bucket' to the number of buckets");
    }
    this.bucketKeyCodec = new BinaryRowCodec(bucketKeyType);
    this.buckets = buckets;
  }

  /** The number of buckets, as given. */
  public int buckets() {
    return buckets;
  }

  /**
   * The bucket, 0 to {@link #buckets()} - 1, of a row with the given bucket-key values.
   *
   * @param bucketKey the values of the bucket-key columns, in the bucket-key type's order
   */
  public int bucket(Object[] bucketKey) {
    return Math.abs(bucketKeyCodec.hash(bucketKey) % buckets);
  }
}
