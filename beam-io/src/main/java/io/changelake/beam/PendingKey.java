package io.changelake.beam;

/**
 * A key an assigner gave a bucket that no committed hash index may hold yet, as {@link
 * AssignHashBucketFn} keeps it: its partition by the number the assigner's state gave it.
 *
 * @param partition the number the assigner's state gave the key's partition
 * @param keyHash Paimon's hash of the bucket key
 * @param bucket the bucket
 */
record PendingKey(int partition, int keyHash, int bucket) {}
