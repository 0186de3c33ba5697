package io.changelake.beam;

import io.changelake.format.SerializedRow;

/**
 * Where {@link AssignCrossPartitionFn} put a key of a cross-partition upsert table, as its state
 * keeps it: the partition by the number the assigner's state gave it.
 *
 * @param key the primary key, as a BinaryRow
 * @param keyHash the key's hash
 * @param partition the number the assigner's state gave the key's partition
 * @param bucket the bucket in that partition
 */
record KeyPlacement(SerializedRow key, int keyHash, int partition, int bucket) {}
