package io.changelake.mergetree.lookup;

import io.changelake.format.BinaryRowOrder;

/**
 * What a lookup file keeps in memory while it is in use: its bloom filter and its sparse block
 * index, the last key of every block as BinaryRow bytes (about the size of one key per block).
 *
 * @param blockOffsets where each block starts in the file, and one past the last block's end; null
 *     for a copy held in memory, whose blocks are never read from disk
 * @param lastKeys the index section as the file stores it, which holds the blocks' last keys
 * @param lastKeyStarts where each block's last key starts in {@code lastKeys}
 * @param bloom the filter of every key in the file
 */
record FileIndex(long[] blockOffsets, byte[] lastKeys, int[] lastKeyStarts, BloomFilter bloom) {

  /** Object headers of the record and its arrays, for memory accounting. */
  private static final int OVERHEAD_BYTES = 80;

  long blockOffset(int block) {
    return blockOffsets[block];
  }

  int blockLength(int block) {
    return (int) (blockOffsets[block + 1] - blockOffsets[block]);
  }

  /** The first block whose last key is not below {@code key}: the only one that may hold it. */
  int blockFor(byte[] key, BinaryRowOrder keyOrder) {
    int lo = 0;
    int hi = lastKeyStarts.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (keyOrder.compare(lastKeys, lastKeyStarts[mid], key, 0) >= 0) {
        found = mid;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    return found;
  }

  long retainedBytes() {
    return OVERHEAD_BYTES
        + (blockOffsets == null ? 0 : 8L * blockOffsets.length)
        + lastKeys.length
        + 4L * lastKeyStarts.length
        + bloom.retainedBytes();
  }
}
