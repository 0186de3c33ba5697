package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RleHybridEncoder} against Parquet's own {@code RunLengthBitPackingHybridEncoder}, byte for
 * byte, at every bit width from 0 to 32, and back through {@link RleHybridDecoder}: pages of
 * scattered values (bit-packed runs longer than their 63-group limit), of runs of repetitions of
 * every length around the eight that start one, of one value only, and of every length that leaves
 * a part group at the end; one encoder for them all, as a column reuses it page after page.
 */
class RleHybridEncoderTest {

  @ParameterizedTest(name = "bit width {0}")
  @ValueSource(
      ints = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31, 32
      })
  // BytesInput.toByteArray is deprecated for buffers it may keep; these are consumed at once.
  @SuppressWarnings("deprecation")
  void writesTheBytesOfParquetsEncoder(int bitWidth) throws IOException {
    SplittableRandom random = new SplittableRandom(bitWidth);
    RleHybridEncoder ours = new RleHybridEncoder();
    for (int page = 0; page < PAGES; page++) {
      int[] values = page(random, bitWidth, page);
      byte[] expected = withWidth(bitWidth, parquet(bitWidth, values));
      byte[] actual = ours.encodeWithWidth(values, values.length, bitWidth).toByteArray();
      String what = "width " + bitWidth + ", page " + page + " of " + values.length + " values";
      assertArrayEquals(expected, actual, what);
      int[] decoded = new int[values.length + 7];
      RleHybridDecoder.decode(actual, 1, actual.length, bitWidth, decoded, values.length);
      assertArrayEquals(values, Arrays.copyOf(decoded, values.length), what);
    }
  }

  private static final int PAGES = 60;

  /** Page {@code page}'s values at {@code bitWidth}: its kind and length drawn from the page. */
  private static int[] page(SplittableRandom random, int bitWidth, int page) {
    long limit = 1L << bitWidth;
    int length = page < 20 ? page : 1 + random.nextInt(3_000);
    int[] values = new int[length];
    int kind = page % 4;
    int value = (int) random.nextLong(limit);
    for (int i = 0; i < length; i++) {
      switch (kind) {
        case 0 -> value = (int) random.nextLong(limit);
        case 1 -> {
          // Runs of 1 to 20 equal values: every length around the eight that make a run.
          if (random.nextInt(1 + random.nextInt(20)) == 0) {
            value = (int) random.nextLong(limit);
          }
        }
        case 2 -> value = (int) (limit - 1);
        default -> value = random.nextInt(10) < 8 ? value : (int) random.nextLong(limit);
      }
      values[i] = value;
    }
    return values;
  }

  // BytesInput.toByteArray is deprecated for buffers it may keep; these are consumed at once.
  @SuppressWarnings("deprecation")
  private static byte[] parquet(int bitWidth, int[] values) throws IOException {
    RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 20, new HeapByteBufferAllocator());
    for (int v : values) {
      encoder.writeInt(v);
    }
    byte[] bytes = encoder.toBytes().toByteArray();
    encoder.close();
    return bytes;
  }

  /** A dictionary page's layout: the width byte, then the runs. */
  private static byte[] withWidth(int bitWidth, byte[] runs) {
    byte[] page = new byte[1 + runs.length];
    page[0] = (byte) bitWidth;
    System.arraycopy(runs, 0, page, 1, runs.length);
    return page;
  }
}
