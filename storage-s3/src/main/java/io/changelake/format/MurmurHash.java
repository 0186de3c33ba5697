package io.changelake.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 32-bit Murmur hash Paimon computes over a BinaryRow's bytes ({@code BinaryRow#hashCode}),
 * which decides the bucket of a key.
 *
 * <p>It is MurmurHash3 x86_32 with seed 42 over little-endian 4-byte words, except for a tail of 1
 * to 3 bytes: Paimon mixes each tail byte on its own (sign-extended) where MurmurHash3 would mix
 * them as one word. A BinaryRow is a whole number of 8-byte words, so rows never have a tail; it is
 * kept Paimon's way so the function stays Paimon's for any length.
 */
final class MurmurHash {

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int SEED = 42;
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private MurmurHash() {}

  /** The hash of {@code length} bytes of {@code bytes} from {@code offset}. */
  static int hash(byte[] bytes, int offset, int length) {
    int aligned = length - length % 4;
    int h = SEED;
    for (int i = 0; i < aligned; i += 4) {
      h = mixH(h, mixK((int) INTS.get(bytes, offset + i)));
    }
    for (int i = aligned; i < length; i++) {
      h = mixH(h, mixK(bytes[offset + i]));
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  private static int mixK(int k) {
    return Integer.rotateLeft(k * C1, 15) * C2;
  }

  private static int mixH(int h, int k) {
    return Integer.rotateLeft(h ^ k, 13) * 5 + 0xe6546b64;
  }
}
