package io.changelake.mergetree.lookup;

import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A bloom filter over the 32-bit key hashes of one lookup file, so that a key the file does not
 * hold usually costs no disk read.
 *
 * <p>The k bit positions come from double hashing ({@code h1 + i * h2}), with {@code h2} a remix of
 * the same hash: one hash per key is all the lookup path computes. Two keys with equal 32-bit
 * hashes always collide, which bounds the false-positive rate from below by about {@code keys /
 * 2^32} (0.2 % for 10 million keys), well under the 1 % the filter is sized for.
 */
final class BloomFilter {

  /** Object header and fields of the filter and its array, for memory accounting. */
  private static final int OVERHEAD_BYTES = 48;

  private final long[] words;
  private final long bits;
  private final int hashes;

  private BloomFilter(long[] words, int hashes) {
    this.words = words;
    this.bits = (long) words.length * Long.SIZE;
    this.hashes = hashes;
  }

  /** An empty filter sized for {@code keys} keys at the false-positive rate {@code fpp}. */
  static BloomFilter forKeys(long keys, double fpp) {
    long n = Math.max(1, keys);
    double ln2 = Math.log(2);
    long bits = (long) Math.ceil(-n * Math.log(fpp) / (ln2 * ln2));
    int wordCount = (int) Math.max(1, (bits + Long.SIZE - 1) / Long.SIZE);
    int hashes = (int) Math.max(1, Math.round((double) wordCount * Long.SIZE / n * ln2));
    return new BloomFilter(new long[wordCount], hashes);
  }

  void add(int hash) {
    long h1 = hash & 0xFFFF_FFFFL;
    long h2 = secondHash(hash);
    for (int i = 0; i < hashes; i++) {
      long bit = (h1 + i * h2) % bits;
      words[(int) (bit >>> 6)] |= 1L << bit;
    }
  }

  boolean mightContain(int hash) {
    long h1 = hash & 0xFFFF_FFFFL;
    long h2 = secondHash(hash);
    for (int i = 0; i < hashes; i++) {
      long bit = (h1 + i * h2) % bits;
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** Murmur3's finalizer: spreads the hash so that h2 is independent of h1's low bits. */
  private static long secondHash(int hash) {
    int h = hash ^ 0x5bd1e995;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return (h & 0xFFFF_FFFFL) | 1;
  }

  long retainedBytes() {
    return OVERHEAD_BYTES + 8L * words.length;
  }

  void writeTo(DataOutput out) throws IOException {
    out.writeInt(hashes);
    out.writeInt(words.length);
    for (long w : words) {
      out.writeLong(w);
    }
  }

  /** Reads what {@link #writeTo} wrote, advancing the buffer. */
  static BloomFilter readFrom(ByteBuffer in) {
    int hashes = in.getInt();
    long[] words = new long[in.getInt()];
    in.asLongBuffer().get(words);
    in.position(in.position() + 8 * words.length);
    return new BloomFilter(words, hashes);
  }
}
