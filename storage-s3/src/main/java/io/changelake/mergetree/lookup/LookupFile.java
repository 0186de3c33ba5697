package io.changelake.mergetree.lookup;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The local copy of one data file, laid out for point lookups, as {@link LookupFileBuilder} writes
 * it (all numbers big-endian):
 *
 * <pre>
 * block*      records, then one int offset per record (from the block's start), then the count;
 *             compressed (lookup.cache-spill-compression zstd), an int of its raw length, then
 *             the zstd frame of it
 *   record    int keyLength, key BinaryRow, int valueLength, value BinaryRow,
 *             long sequenceNumber, byte kind
 * index       int blocks, then per block: int length, int keyLength, the block's last key
 * bloom       int hashes, int words, long words
 * footer      long indexOffset, long bloomOffset, long rowCount, int magic
 * </pre>
 *
 * <p>A lookup costs a bloom probe, a binary search over the blocks' last keys and, if the filter
 * lets it through, a binary search in one block. Index and blocks come from the {@link MemoryCache}
 * and are read from disk only when it lacks them.
 */
final class LookupFile implements Closeable {

  static final int MAGIC = 0x4c4b5031;
  private static final int FOOTER_BYTES = 8 + 8 + 8 + 4;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final long owner;
  private final long id;

  /** Decompresses the blocks, shared by the files of one bucket's lookups; null when raw. */
  private final ZstdDecompressCtx zstd;

  private final Path path;
  private final long size;
  private final FileChannel channel;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final BinaryRowOrder keyOrder;
  private final MemoryCache memory;
  private final MemoryCache.Key indexKey;
  private long blocksRead;
  private long lastUsedNanos = System.nanoTime();

  LookupFile(
      long owner,
      long id,
      ZstdDecompressCtx zstd,
      Path path,
      long size,
      BinaryRowCodec keyCodec,
      BinaryRowCodec valueCodec,
      BinaryRowOrder keyOrder,
      MemoryCache memory)
      throws IOException {
    this.owner = owner;
    this.id = id;
    this.zstd = zstd;
    this.path = path;
    this.size = size;
    this.keyCodec = keyCodec;
    this.valueCodec = valueCodec;
    this.keyOrder = keyOrder;
    this.memory = memory;
    this.indexKey = new MemoryCache.Key(id, MemoryCache.INDEX);
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
  }

  long size() {
    return size;
  }

  /** Disk reads of blocks so far. */
  long blocksRead() {
    return blocksRead;
  }

  /**
   * The stored key-value of a key, or null.
   *
   * @param key the key's BinaryRow
   * @param hash the key's hash, as {@link BinaryRowCodec#hash} gives it
   */
  KeyValue get(byte[] key, int hash) throws IOException {
    lastUsedNanos = System.nanoTime();
    FileIndex index = memory.get(owner, indexKey, this::readIndex, FileIndex::retainedBytes);
    if (!index.bloom().mightContain(hash)) {
      return null;
    }
    int b = index.blockFor(key, keyOrder);
    if (b < 0) {
      return null;
    }
    byte[] block =
        memory.get(
            owner, new MemoryCache.Key(id, b), () -> readBlock(index, b), bytes -> bytes.length);
    return find(block, key);
  }

  private KeyValue find(byte[] block, byte[] key) {
    int count = (int) INTS.get(block, block.length - 4);
    int offsets = block.length - 4 - 4 * count;
    int lo = 0;
    int hi = count - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int record = (int) INTS.get(block, offsets + 4 * mid);
      int c = keyOrder.compare(block, record + 4, key, 0);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        int valueLength = record + 4 + (int) INTS.get(block, record);
        int value = valueLength + 4;
        int tail = value + (int) INTS.get(block, valueLength);
        return new KeyValue(
            keyCodec.decodeRow(block, record + 4),
            (long) LONGS.get(block, tail),
            RowKind.fromByteValue(block[tail + 8]),
            valueCodec.decodeRow(block, value));
      }
    }
    return null;
  }

  private byte[] readBlock(FileIndex index, int b) throws IOException {
    blocksRead++;
    byte[] stored = read(index.blockOffset(b), index.blockLength(b));
    if (zstd == null) {
      return stored;
    }
    byte[] raw = new byte[(int) INTS.get(stored, 0)];
    int n;
    try {
      n = zstd.decompressByteArray(raw, 0, raw.length, stored, 4, stored.length - 4);
    } catch (ZstdException e) {
      throw new IOException(path + ": block " + b + " does not decompress: " + e.getMessage(), e);
    }
    if (n != raw.length) {
      throw new IOException(
          path + ": block " + b + " decompresses to " + n + " bytes, not " + raw.length);
    }
    return raw;
  }

  /** When a lookup last used the file, by {@link System#nanoTime}. */
  long lastUsedNanos() {
    return lastUsedNanos;
  }

  private FileIndex readIndex() throws IOException {
    ByteBuffer footer = ByteBuffer.wrap(read(size - FOOTER_BYTES, FOOTER_BYTES));
    long indexOffset = footer.getLong();
    long bloomOffset = footer.getLong();
    footer.getLong();
    if (footer.getInt() != MAGIC) {
      throw new IOException(path + " is not a lookup file: its footer lacks the magic number");
    }
    ByteBuffer in = ByteBuffer.wrap(read(indexOffset, (int) (size - FOOTER_BYTES - indexOffset)));
    int blocks = in.getInt();
    long[] blockOffsets = new long[blocks + 1];
    int[] lastKeyStarts = new int[blocks];
    int keysStart = in.position();
    for (int b = 0; b < blocks; b++) {
      blockOffsets[b + 1] = blockOffsets[b] + in.getInt();
      int keyLength = in.getInt();
      lastKeyStarts[b] = in.position() - keysStart;
      in.position(in.position() + keyLength);
    }
    byte[] lastKeys = new byte[(int) (bloomOffset - indexOffset) - 4];
    in.get(keysStart, lastKeys);
    return new FileIndex(blockOffsets, lastKeys, lastKeyStarts, BloomFilter.readFrom(in));
  }

  private byte[] read(long offset, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        throw new EOFException(path + " ends before byte " + (offset + length));
      }
    }
    return buffer.array();
  }

  /** Closes and deletes the local file. */
  @Override
  public void close() throws IOException {
    memory.invalidate(owner, id);
    try {
      channel.close();
    } finally {
      Files.deleteIfExists(path);
    }
  }
}
