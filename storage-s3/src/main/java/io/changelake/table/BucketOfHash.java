package io.changelake.table;

import java.util.Arrays;

/**
 * The bucket of each key hash of a partition: an open-addressing map from int to a bucket number (0
 * to 32,767, as Paimon stores it in a short), in two primitive arrays, so that a dynamic-bucket
 * writer holds about 9 to 18 bytes per key instead of a boxed map's 60 or so. Not thread-safe.
 */
final class BucketOfHash {

  private static final int EMPTY = -1;

  private int[] hashes;
  private short[] buckets;
  private int size;
  private short bucketOfZero = EMPTY;

  BucketOfHash() {
    hashes = new int[16];
    buckets = new short[16];
    Arrays.fill(buckets, (short) EMPTY);
  }

  /** The number of hashes held. */
  int size() {
    return size + (bucketOfZero == EMPTY ? 0 : 1);
  }

  /** The bucket of a hash, or -1 when it has none. */
  int get(int hash) {
    if (hash == 0) {
      return bucketOfZero;
    }
    int mask = hashes.length - 1;
    for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      if (buckets[slot] == EMPTY) {
        return EMPTY;
      }
      if (hashes[slot] == hash) {
        return buckets[slot];
      }
    }
  }

  /** Gives a hash its bucket, replacing the one it had. */
  void put(int hash, int bucket) {
    if (bucket < 0 || bucket > Short.MAX_VALUE) {
      throw new IllegalArgumentException("bucket " + bucket + " is not from 0 to 32767");
    }
    if (hash == 0) {
      bucketOfZero = (short) bucket;
      return;
    }
    if ((size + 1) * 4 > hashes.length * 3) {
      grow();
    }
    insert(hash, (short) bucket);
  }

  private void insert(int hash, short bucket) {
    int mask = hashes.length - 1;
    for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      if (buckets[slot] == EMPTY) {
        hashes[slot] = hash;
        buckets[slot] = bucket;
        size++;
        return;
      }
      if (hashes[slot] == hash) {
        buckets[slot] = bucket;
        return;
      }
    }
  }

  private void grow() {
    int[] oldHashes = hashes;
    short[] oldBuckets = buckets;
    hashes = new int[oldHashes.length * 2];
    buckets = new short[oldHashes.length * 2];
    Arrays.fill(buckets, (short) EMPTY);
    size = 0;
    for (int i = 0; i < oldHashes.length; i++) {
      if (oldBuckets[i] != EMPTY) {
        insert(oldHashes[i], oldBuckets[i]);
      }
    }
  }

  /** Calls {@code action} with every (hash, bucket), in no particular order. */
  void forEach(HashAndBucket action) {
    if (bucketOfZero != EMPTY) {
      action.accept(0, bucketOfZero);
    }
    for (int i = 0; i < hashes.length; i++) {
      if (buckets[i] != EMPTY) {
        action.accept(hashes[i], buckets[i]);
      }
    }
  }

  /** Receives one entry of the map. */
  @FunctionalInterface
  interface HashAndBucket {
    void accept(int hash, int bucket);
  }

  private static int spread(int hash) {
    int h = hash * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
