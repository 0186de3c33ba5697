package io.changelake.mergetree.lookup;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.format.BinaryRowView;
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
import java.util.List;

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
 *
 * <p>A copy may also be {@linkplain #held held} in memory only: its blocks, filter and index are
 * then the cache's entries, pinned there, and no file exists. When the memory budget needs their
 * room, the cache {@linkplain #spill spills} the copy, writing the file above, after which its
 * entries go like any other. A copy that leaves the levels before that never touches the disk.
 *
 * <p>Thread-safe: a lookup and a spill (which the cache may run on another bucket's thread) take
 * the copy's lock, so a lookup sees the copy either held or written, never half-way.
 */
final class LookupFile implements Closeable, MemoryCache.Spillable {

  static final int MAGIC = 0x4c4b5031;
  private static final int FOOTER_BYTES = 8 + 8 + 8 + 4;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * What the copies of one bucket's lookups share.
   *
   * @param owner the bucket's id in {@code cache}
   * @param zstd decompresses the blocks; null when they are stored raw
   * @param compress whether a spill compresses the blocks
   */
  record Shared(
      long owner,
      ZstdDecompressCtx zstd,
      boolean compress,
      BinaryRowOrder keyOrder,
      LookupCache cache) {}

  private final Shared shared;
  private final long owner;
  private final long id;
  private final Path path;

  /** The shared codecs and context, in fields of their own for the lookups. */
  private final ZstdDecompressCtx zstd;

  private final BinaryRowOrder keyOrder;
  private final MemoryCache memory;
  private final MemoryCache.Key indexKey;

  /** The raw blocks of a held copy, in order; null once written or closed. Guarded by this. */
  private List<byte[]> heldBlocks;

  /** The filter and index of a held copy, with raw block offsets; null once written or closed. */
  private FileIndex heldIndex;

  private final long rowCount;

  /** Whether the copy is held in memory only: {@link #held}, read without the lock. */
  private volatile boolean holding;

  /** The written file, open for reads; null while held. */
  private FileChannel channel;

  private volatile long size;
  private long blocksRead;
  private long lastUsedNanos = System.nanoTime();

  private LookupFile(Shared shared, long id, Path path, long rowCount) {
    this.shared = shared;
    this.owner = shared.owner();
    this.id = id;
    this.path = path;
    this.zstd = shared.zstd();
    this.keyOrder = shared.keyOrder();
    this.memory = shared.cache().memory();
    this.rowCount = rowCount;
    this.indexKey = new MemoryCache.Key(id, MemoryCache.INDEX);
  }

  /**
   * The copy written at {@code path} ({@code size} bytes), already on the disk's books.
   *
   * @param id the copy's id in the cache, under which its blocks are cached
   */
  static LookupFile written(Shared shared, long id, Path path, long size) throws IOException {
    LookupFile file = new LookupFile(shared, id, path, 0);
    file.channel = FileChannel.open(path, StandardOpenOption.READ);
    file.size = size;
    return file;
  }

  /**
   * A copy held in memory until the cache spills it to {@code path}: its blocks are in the memory
   * cache already, held by the builder that wrote them, and its filter and index join them here.
   *
   * @param blocks the raw blocks, in order
   * @param index the filter and index, the index section laid out as the file stores it
   */
  static LookupFile held(
      Shared shared, long id, Path path, List<byte[]> blocks, FileIndex index, long rowCount) {
    LookupFile file = new LookupFile(shared, id, path, rowCount);
    file.heldBlocks = blocks;
    file.heldIndex = index;
    file.holding = true;
    file.memory.put(shared.owner(), file.indexKey, index, index.retainedBytes(), file);
    return file;
  }

  /** The bytes the copy takes on disk: 0 while it is held. */
  long size() {
    return size;
  }

  @Override
  public boolean held() {
    return holding;
  }

  /** Disk reads of blocks so far. */
  synchronized long blocksRead() {
    return blocksRead;
  }

  /**
   * Writes a held copy's file, puts it on the disk's books, and releases its pin on the memory
   * cache: its filter, index and blocks may then be dropped, and are read from the file again.
   */
  @Override
  public synchronized void spill() throws IOException {
    if (heldBlocks == null) {
      return;
    }
    CopyOutput output = CopyOutput.withBlocks(path, shared.compress(), heldBlocks);
    long written;
    try {
      written =
          output.finish(
              heldIndex.lastKeys(), heldIndex.lastKeyStarts(), heldIndex.bloom(), rowCount);
      channel = FileChannel.open(path, StandardOpenOption.READ);
    } catch (IOException | RuntimeException e) {
      output.close();
      Files.deleteIfExists(path);
      throw e;
    }
    FileIndex onDisk =
        new FileIndex(
            output.blockOffsets(),
            heldIndex.lastKeys(),
            heldIndex.lastKeyStarts(),
            heldIndex.bloom());
    heldBlocks = null;
    heldIndex = null;
    holding = false;
    size = written;
    memory.put(owner, indexKey, onDisk, onDisk.retainedBytes(), null);
    shared.cache().addDisk(owner, written);
  }

  /**
   * Finds a key's stored version: points {@code found} at it, in the block that holds it.
   *
   * @param binaryKey the key's BinaryRow, from offset 0
   * @param hash the key's hash, as {@link BinaryRowCodec#hash} gives it
   * @return whether the copy holds the key
   */
  synchronized boolean find(byte[] binaryKey, int hash, BinaryRowView found) throws IOException {
    lastUsedNanos = System.nanoTime();
    // A held copy's entries are pinned in the cache; its own references answer only if they
    // were not, and never lose the blocks. Loaded and cached here, not by a loader the cache
    // calls: a lookup allocates no closure.
    FileIndex index = (FileIndex) memory.cached(owner, indexKey);
    if (index == null) {
      index = heldBlocks == null ? readIndex() : heldIndex;
      memory.put(owner, indexKey, index, index.retainedBytes(), null);
    }
    if (!index.bloom().mightContain(hash)) {
      return false;
    }
    int b = index.blockFor(binaryKey, keyOrder);
    if (b < 0) {
      return false;
    }
    MemoryCache.Key blockKey = new MemoryCache.Key(id, b);
    byte[] block = (byte[]) memory.cached(owner, blockKey);
    if (block == null) {
      block = heldBlocks == null ? readBlock(index, b) : heldBlocks.get(b);
      memory.put(owner, blockKey, block, block.length, null);
    }
    return findInBlock(block, binaryKey, found);
  }

  /**
   * Finds a key in a block: points {@code found} at its value there, undecoded (a block is never
   * written once built, so the view stays valid if the cache drops it).
   */
  private boolean findInBlock(byte[] block, byte[] binaryKey, BinaryRowView found) {
    int count = (int) INTS.get(block, block.length - 4);
    int offsets = block.length - 4 - 4 * count;
    int lo = 0;
    int hi = count - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int record = (int) INTS.get(block, offsets + 4 * mid);
      int c = keyOrder.compare(block, record + 4, binaryKey, 0);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        int valueLength = record + 4 + (int) INTS.get(block, record);
        int value = valueLength + 4;
        int tail = value + (int) INTS.get(block, valueLength);
        found.of(
            block, value, (long) LONGS.get(block, tail), RowKind.fromByteValue(block[tail + 8]));
        return true;
      }
    }
    return false;
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
  synchronized long lastUsedNanos() {
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

  /**
   * Drops the copy from memory, and closes and deletes its file if it was written. Its {@link
   * #size} is then final: no spill follows.
   */
  @Override
  public synchronized void close() throws IOException {
    memory.invalidate(owner, id);
    heldBlocks = null;
    heldIndex = null;
    holding = false;
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } finally {
      Files.deleteIfExists(path);
    }
  }
}
