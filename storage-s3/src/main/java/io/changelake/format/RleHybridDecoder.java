package io.changelake.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Decodes Parquet's RLE / bit-packing hybrid encoding (definition levels, dictionary ids) into an
 * {@code int[]} a run at a time, where Parquet's own decoder hands out one value per call.
 *
 * <p>A run starts with a ULEB128 header: an even header {@code 2n} is n repetitions of one value
 * stored in {@code ceil(bitWidth / 8)} little-endian bytes; an odd header {@code 2g + 1} is g
 * groups of eight values bit-packed little-endian, {@code bitWidth} bytes a group.
 *
 * <p>Groups are unpacked here, not by Parquet's {@code Packer}: the first use of that enum loads
 * its six families of generated packers, some 280 classes, which a worker's first read paid for
 * (class loading and verification on the thread that reads), and the call to a packer of each width
 * was one more type check for the JIT to speculate on and recompile.
 */
final class RleHybridDecoder {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private RleHybridDecoder() {}

  /**
   * Decodes {@code count} values from {@code in} starting at {@code offset}.
   *
   * @param out receives the values; it must hold {@code count + 7}, since bit-packed groups of
   *     eight are unpacked whole
   * @return the offset after the last byte read
   * @throws IllegalArgumentException if the runs end before {@code count} values or past {@code
   *     end}
   */
  static int decode(byte[] in, int offset, int end, int bitWidth, int[] out, int count) {
    if (bitWidth == 0) {
      Arrays.fill(out, 0, count, 0);
      return offset;
    }
    int valueBytes = (bitWidth + 7) / 8;
    int pos = offset;
    int filled = 0;
    while (filled < count) {
      if (pos >= end) {
        throw new IllegalArgumentException(
            "RLE/bit-packed run ends after " + filled + " of " + count + " values");
      }
      int header = 0;
      int shift = 0;
      int b;
      do {
        b = in[pos++] & 0xff;
        header |= (b & 0x7f) << shift;
        shift += 7;
      } while ((b & 0x80) != 0);
      if ((header & 1) == 0) {
        int run = header >>> 1;
        int value = 0;
        for (int i = 0; i < valueBytes; i++) {
          value |= (in[pos++] & 0xff) << (8 * i);
        }
        int n = Math.min(run, count - filled);
        Arrays.fill(out, filled, filled + n, value);
        filled += n;
      } else {
        int groups = header >>> 1;
        if (pos + groups * bitWidth > end) {
          // The last run of a page may be cut short of its declared groups.
          groups = (end - pos) / bitWidth;
        }
        for (int g = 0; g < groups && filled < count; g++) {
          unpack8(in, pos, bitWidth, out, filled);
          pos += bitWidth;
          filled += 8;
        }
      }
    }
    return pos;
  }

  /**
   * Unpacks one bit-packed group: eight values of {@code bitWidth} bits (1 to 32), packed from the
   * lowest bit of {@code in[pos]} upwards, into {@code out[at]} to {@code out[at + 7]}.
   */
  private static void unpack8(byte[] in, int pos, int bitWidth, int[] out, int at) {
    long mask = (1L << bitWidth) - 1;
    if (pos + bitWidth + 7 > in.length) {
      unpack8Bytewise(in, pos, bitWidth, out, at, mask);
      return;
    }
    // The group's bits a little-endian long at a time: a value is taken from the low bits of
    // the buffer, or from what is left of it and the low bits of the next long.
    long buffer = (long) LONGS.get(in, pos);
    int buffered = 64;
    int next = pos + 8;
    for (int i = 0; i < 8; i++) {
      if (buffered >= bitWidth) {
        out[at + i] = (int) (buffer & mask);
        buffer >>>= bitWidth;
        buffered -= bitWidth;
      } else {
        long word = (long) LONGS.get(in, next);
        next += 8;
        out[at + i] = (int) ((buffer | (word << buffered)) & mask);
        buffer = word >>> (bitWidth - buffered);
        buffered += 64 - bitWidth;
      }
    }
  }

  /** {@link #unpack8} where fewer than seven bytes follow the group in the array. */
  private static void unpack8Bytewise(
      byte[] in, int pos, int bitWidth, int[] out, int at, long mask) {
    for (int i = 0, bit = 0; i < 8; i++, bit += bitWidth) {
      int first = pos + (bit >>> 3);
      long word = 0;
      for (int b = first; b < Math.min(in.length, first + 8); b++) {
        word |= (in[b] & 0xffL) << (8 * (b - first));
      }
      out[at + i] = (int) ((word >>> (bit & 7)) & mask);
    }
  }
}
