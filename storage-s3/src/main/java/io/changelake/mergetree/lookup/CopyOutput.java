package io.changelake.mergetree.lookup;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the file of one lookup copy in the layout {@link LookupFile} reads: its blocks, compressed
 * or raw, in order, then the block index, the bloom filter and the footer. Both a {@link
 * LookupFileBuilder} writing as it goes and a copy held in memory being spilled write through it.
 * Not thread-safe: its writer's lock guards it.
 */
final class CopyOutput implements Closeable {

  /** Paimon's {@code spill-compression.zstd-level} default: fast, and most of zstd's gain. */
  private static final int SPILL_ZSTD_LEVEL = 1;

  private static final int STREAM_BUFFER_BYTES = 64 * 1024;

  /**
   * An index entry's bytes besides its key: the block's stored length and the key's length, the two
   * ints before each key of the index section.
   */
  static final int INDEX_ENTRY_OVERHEAD = 4 + 4;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  private final Path path;
  private final DataOutputStream out;

  /** Compresses the blocks; null when they are stored raw. */
  private final ZstdCompressCtx zstd;

  private byte[] frame = new byte[0];
  private int[] storedLengths = new int[64];
  private int blocks;
  private long position;
  private boolean closed;

  CopyOutput(Path path, boolean compress) throws IOException {
    this.path = path;
    this.out =
        new DataOutputStream(
            new BufferedOutputStream(Files.newOutputStream(path), STREAM_BUFFER_BYTES));
    this.zstd = compress ? new ZstdCompressCtx().setLevel(SPILL_ZSTD_LEVEL) : null;
  }

  /**
   * A file at {@code path} holding {@code blocks} already, in order: how a copy held in memory
   * starts writing. If a block cannot be written, the file is closed and deleted.
   */
  static CopyOutput withBlocks(Path path, boolean compress, List<byte[]> blocks)
      throws IOException {
    CopyOutput output = new CopyOutput(path, compress);
    try {
      for (byte[] block : blocks) {
        output.writeBlock(block);
      }
    } catch (IOException | RuntimeException e) {
      output.close();
      Files.deleteIfExists(path);
      throw e;
    }
    return output;
  }

  /** Appends the next block, its raw bytes. */
  void writeBlock(byte[] raw) throws IOException {
    int length = raw.length;
    int stored;
    if (zstd != null) {
      int bound = (int) Zstd.compressBound(length) + 4;
      if (frame.length < bound) {
        frame = new byte[bound];
      }
      INTS.set(frame, 0, length);
      stored = 4 + zstd.compressByteArray(frame, 4, frame.length - 4, raw, 0, length);
      out.write(frame, 0, stored);
    } else {
      stored = length;
      out.write(raw, 0, stored);
    }
    if (blocks == storedLengths.length) {
      storedLengths = Arrays.copyOf(storedLengths, 2 * blocks);
    }
    storedLengths[blocks++] = stored;
    position += stored;
  }

  /**
   * Completes the file after its last block and closes it.
   *
   * @param index the index section after its block count, whole: per block an int (its stored
   *     length, filled in here), an int key length and the block's last key; {@code keyStarts}
   *     gives where each key starts
   * @return the file's size
   */
  long finish(byte[] index, int[] keyStarts, BloomFilter bloom, long rowCount) throws IOException {
    long indexOffset = position;
    for (int b = 0; b < blocks; b++) {
      INTS.set(index, keyStarts[b] - INDEX_ENTRY_OVERHEAD, storedLengths[b]);
    }
    out.writeInt(blocks);
    out.write(index);
    long bloomOffset = indexOffset + 4 + index.length;
    bloom.writeTo(out);
    out.writeLong(indexOffset);
    out.writeLong(bloomOffset);
    out.writeLong(rowCount);
    out.writeInt(LookupFile.MAGIC);
    close();
    return Files.size(path);
  }

  /**
   * Where each block starts in the file, and one past the last block's end: the offsets {@link
   * FileIndex} reads from the stored lengths.
   */
  long[] blockOffsets() {
    long[] offsets = new long[blocks + 1];
    for (int b = 0; b < blocks; b++) {
      offsets[b + 1] = offsets[b] + storedLengths[b];
    }
    return offsets;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } finally {
      if (zstd != null) {
        zstd.close();
      }
    }
  }
}
