package io.changelake.mergetree.lookup;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.format.DataFileMeta;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the local lookup copy of one data file from its key-values, fed in key order: how a bucket
 * writer hands over a file it is writing, so that the file is never read back for lookups.
 *
 * <pre>{@code
 * try (LookupFileBuilder lookupFile = lookupLevels.newFile()) {
 *   for (KeyValue kv : merged) {
 *     dataFile.write(kv);
 *     lookupFile.add(kv);
 *   }
 *   DataFileMeta meta = bucketFiles.finish(dataFile, level, FileSource.COMPACT);
 *   lookupFile.finish(meta);
 * }
 * }</pre>
 *
 * <p>A copy is held in memory first: each finished block goes to the {@link Owner}'s memory cache,
 * pinned there, and nothing is written. Only when the memory budget needs the room does the cache
 * spill the copy: the blocks so far are written (zstd-compressed unless {@code
 * lookup.cache-spill-compression} is {@code none}), and every later block as it is finished. A copy
 * held to the end becomes a held {@link LookupFile}, spilled in turn when the budget needs it, or
 * never if it leaves the levels first: a lookup table's compaction rewrites many files a commit or
 * two after writing them, and a bucket that fits the budget then writes no lookup file at all.
 *
 * <p>Heap beyond the cache's blocks is one open block, 64 KiB of key hashes (the rest wait in a
 * side file for the bloom filter, which {@link #finish} sizes by the final count) and the block
 * index, one key and 12 bytes per block (about 0.7 % of the blocks for keys of 16 bytes). Not
 * thread-safe, but independent of lookups running on another thread, and the cache may spill the
 * copy from another thread: that takes the builder's lock, as finishing a block does.
 *
 * <p>This runs once per row of every file a lookup table's compaction writes, beside the Parquet
 * encoding: a row's key and value are serialized once, straight into the block (and the key's hash
 * taken from those bytes).
 */
public final class LookupFileBuilder implements Closeable {

  /**
   * Bytes of records per block. A lookup that misses the block cache reads and caches a whole block
   * for one record, so small blocks pay when the bucket exceeds the memory budget: at 10 million
   * keys and 256 MiB, 100k random lookups took 0.6 s with 4 KiB blocks and 2 to 3.5 s with 32 KiB.
   * Smaller still would grow the index (one key per block) and the per-entry cost.
   */
  static final int BLOCK_BYTES = 4 * 1024;

  private static final double BLOOM_FALSE_POSITIVE_RATE = 0.01;
  private static final int STREAM_BUFFER_BYTES = 64 * 1024;

  /** A record's bytes besides its key and value: two lengths, the sequence number, the kind. */
  private static final int RECORD_OVERHEAD = 4 + 4 + 8 + 1;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * The lookups a copy is built for: they cache its blocks as they are finished (a commit's lookups
   * go to the files its compaction just wrote, so this spares reading them back), register the copy
   * once it is finished, and forget its blocks if it is abandoned.
   */
  interface Owner {
    /**
     * Takes block {@code block}'s raw bytes, under the builder's lock.
     *
     * @param heldBy the copy holding the block in memory only, to spill before the block may be
     *     dropped; null if the block is written already
     */
    void cacheBlock(int block, byte[] raw, MemoryCache.Spillable heldBy);

    /** Spills what the memory budget needs spilled; called holding no lock. */
    void relieveMemory() throws IOException;

    /** Takes the finished copy, written at {@code written}. */
    void register(DataFileMeta file, Path written, long size) throws IOException;

    /**
     * Takes the finished copy, held in memory: its blocks (already cached) and its filter and
     * index.
     *
     * @return the copy that holds the blocks from now on, to spill in the builder's stead
     */
    MemoryCache.Spillable registerHeld(
        DataFileMeta file, List<byte[]> blocks, FileIndex index, long rowCount) throws IOException;

    void abandon();
  }

  private final Path path;
  private final Path hashesPath;
  private final Owner owner;
  private final boolean compress;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final OutputStream hashes;

  /** What the memory cache asks to spill this copy through. */
  private final MemoryCache.Spillable spillHandle = new SpillHandle();

  /** The open block: its records, then (once full) their offsets and count. */
  private byte[] block = new byte[2 * BLOCK_BYTES];

  private int blockLength;
  private int[] recordOffsets = new int[1024];
  private int recordsInBlock;

  /** Where the last record's key starts in the block, and its length: the block's index entry. */
  private int lastKeyStart;

  private int lastKeyLength;

  /** Key hashes waiting to be written to their side file, four bytes each. */
  private byte[] pendingHashes = new byte[STREAM_BUFFER_BYTES];

  private int pendingHashBytes;

  /**
   * The index section as {@link FileIndex} and the file hold it: per block, its stored length
   * (filled in when written), its last key's length and that key.
   */
  private byte[] index = new byte[1024];

  private int indexLength;

  /** Where each block's last key starts in {@link #index}. */
  private int[] keyStarts = new int[64];

  private int blocks;
  private long rowCount;

  /**
   * When the key is not one BIGINT column, the last key added and the key being added, serialized
   * ({@link #keyBytesOrder}); swapped as each row is added.
   */
  private byte[] lastKeyBytes = new byte[64];

  private byte[] addedKeyBytes = new byte[64];

  /** The last key added, when it is one BIGINT column ({@link #bigintKey}). */
  private long lastBigintKey;

  /** Where each key column stands among the table's columns. */
  private final int[] keyInValue;

  /** Whether the key is one BIGINT column, compared unboxed. */
  private final boolean bigintKey;

  /** Orders serialized keys, when the key is not one BIGINT column: none is built or boxed. */
  private final BinaryRowOrder keyBytesOrder;

  /** The finished blocks while the copy is held in memory; null once it writes. Guarded by this. */
  private List<byte[]> held = new ArrayList<>();

  /** The file, once the copy writes; guarded by this. */
  private CopyOutput output;

  /** Whether the blocks so far are held in memory only, read without the lock. */
  private volatile boolean holding = true;

  /** The copy that took over the held blocks at {@link #finish}; null before. */
  private volatile MemoryCache.Spillable handedTo;

  /** Whether finished or abandoned; guarded by this. */
  private boolean done;

  /**
   * @param keyInValue where each key column stands among {@code valueType}'s ({@link
   *     RowType#positionsOf}, checked by the lookup that makes the builder)
   */
  LookupFileBuilder(
      Path path,
      RowType keyType,
      RowType valueType,
      int[] keyInValue,
      boolean compress,
      Owner owner)
      throws IOException {
    this.path = path;
    this.hashesPath = path.resolveSibling(path.getFileName() + ".hashes");
    this.owner = owner;
    this.compress = compress;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.valueCodec = new BinaryRowCodec(valueType);
    this.keyInValue = keyInValue;
    this.bigintKey = keyType.size() == 1 && keyType.type(0).root() == TypeRoot.BIGINT;
    this.keyBytesOrder = bigintKey ? null : new BinaryRowOrder(keyType);
    this.hashes = new BufferedOutputStream(Files.newOutputStream(hashesPath), STREAM_BUFFER_BYTES);
  }

  /**
   * Appends the next row of the data file: a key-value the writer writes, or a view of a column
   * batch of a file read back, whose BIGINT, INT, DOUBLE, FLOAT and BOOLEAN columns are serialized
   * unboxed. Its columns are the table's; its key is taken from them.
   *
   * @throws IllegalArgumentException if its key is not greater than the previous one: a data file
   *     holds each key once, in key order
   */
  public void add(ChangeRow row) throws IOException {
    checkOpen();
    // Both rows are serialized (and checked) before the block changes; each codec keeps its own.
    int keyLength = keyCodec.writeRow(row, keyInValue);
    checkKeyOrder(row, keyLength);
    int valueLength = valueCodec.writeRow(row, null);
    writeHash(keyCodec.lastRowHash());
    if (recordsInBlock == recordOffsets.length) {
      recordOffsets = Arrays.copyOf(recordOffsets, 2 * recordsInBlock);
    }
    recordOffsets[recordsInBlock++] = blockLength;
    reserve(keyLength + valueLength + RECORD_OVERHEAD);
    INTS.set(block, blockLength, keyLength);
    lastKeyStart = blockLength + 4;
    lastKeyLength = keyLength;
    keyCodec.copyLastRow(block, lastKeyStart);
    blockLength = lastKeyStart + keyLength;
    INTS.set(block, blockLength, valueLength);
    valueCodec.copyLastRow(block, blockLength + 4);
    blockLength += 4 + valueLength;
    LONGS.set(block, blockLength, row.sequenceNumber());
    block[blockLength + 8] = row.kind().toByteValue();
    blockLength += 9;
    rowCount++;
    if (blockLength >= BLOCK_BYTES) {
      flushBlock();
      owner.relieveMemory();
    }
  }

  private void checkOpen() {
    if (block == null) {
      throw new IllegalStateException("the lookup file " + path + " is already finished or closed");
    }
  }

  /** Makes room in the block for {@code bytes} more. */
  private void reserve(int bytes) {
    if (blockLength + bytes > block.length) {
      block = Arrays.copyOf(block, Math.max(blockLength + bytes, 2 * block.length));
    }
  }

  /**
   * Checks that a row's key comes after the last one's, and remembers it.
   *
   * @throws IllegalArgumentException if it does not
   */
  /** Checks that the key of {@code row}, {@link #keyCodec}'s last row, follows the last one. */
  private void checkKeyOrder(ChangeRow row, int keyLength) {
    if (bigintKey) {
      long key = row.getLong(keyInValue[0]);
      if (rowCount > 0 && key <= lastBigintKey) {
        throw outOfOrder(String.valueOf(key), String.valueOf(lastBigintKey));
      }
      lastBigintKey = key;
      return;
    }
    if (addedKeyBytes.length < keyLength) {
      addedKeyBytes = new byte[Math.max(keyLength, 2 * addedKeyBytes.length)];
    }
    keyCodec.copyLastRow(addedKeyBytes, 0);
    if (rowCount > 0 && keyBytesOrder.compare(lastKeyBytes, 0, addedKeyBytes, 0) >= 0) {
      throw outOfOrder(
          Arrays.toString(keyCodec.decodeRow(addedKeyBytes, 0)),
          Arrays.toString(keyCodec.decodeRow(lastKeyBytes, 0)));
    }
    byte[] added = addedKeyBytes;
    addedKeyBytes = lastKeyBytes;
    lastKeyBytes = added;
  }

  private IllegalArgumentException outOfOrder(String key, String last) {
    return new IllegalArgumentException(
        "key "
            + key
            + " follows "
            + last
            + " in "
            + path
            + ": a lookup file takes each key once, in ascending order");
  }

  private void writeHash(int hash) throws IOException {
    if (pendingHashBytes == pendingHashes.length) {
      hashes.write(pendingHashes, 0, pendingHashBytes);
      pendingHashBytes = 0;
    }
    INTS.set(pendingHashes, pendingHashBytes, hash);
    pendingHashBytes += 4;
  }

  /** Completes the open block, indexes it, and caches it: held, or written if the copy writes. */
  private void flushBlock() throws IOException {
    reserve(4 * recordsInBlock + 4);
    for (int i = 0; i < recordsInBlock; i++) {
      INTS.set(block, blockLength, recordOffsets[i]);
      blockLength += 4;
    }
    INTS.set(block, blockLength, recordsInBlock);
    blockLength += 4;
    indexBlock();
    byte[] raw = Arrays.copyOf(block, blockLength);
    synchronized (this) {
      if (held != null) {
        held.add(raw);
        owner.cacheBlock(blocks, raw, spillHandle);
      } else {
        owner.cacheBlock(blocks, raw, null);
        output.writeBlock(raw);
      }
    }
    blocks++;
    blockLength = 0;
    recordsInBlock = 0;
  }

  /** Appends the open block's entry to the index: a stored length to fill in, its last key. */
  private void indexBlock() {
    int needed = indexLength + CopyOutput.INDEX_ENTRY_OVERHEAD + lastKeyLength;
    if (needed > index.length) {
      index = Arrays.copyOf(index, Math.max(needed, 2 * index.length));
    }
    if (blocks == keyStarts.length) {
      keyStarts = Arrays.copyOf(keyStarts, 2 * blocks);
    }
    INTS.set(index, indexLength + 4, lastKeyLength);
    keyStarts[blocks] = indexLength + CopyOutput.INDEX_ENTRY_OVERHEAD;
    System.arraycopy(block, lastKeyStart, index, keyStarts[blocks], lastKeyLength);
    indexLength = needed;
  }

  /** Writes the held blocks and makes the copy write from now on; see {@link SpillHandle}. */
  private void spill() throws IOException {
    MemoryCache.Spillable successor;
    synchronized (this) {
      successor = handedTo;
      if (successor == null) {
        if (held == null || done) {
          return;
        }
        output = CopyOutput.withBlocks(path, compress, held);
        held = null;
        holding = false;
        return;
      }
    }
    successor.spill();
  }

  /**
   * Completes the lookup copy and hands it to its {@link LookupLevels} as the local copy of {@code
   * file}, replacing any copy it had: held in memory, or written if the cache spilled it.
   *
   * @throws IllegalStateException if the number of key-values added is not the file's row count
   */
  public void finish(DataFileMeta file) throws IOException {
    checkOpen();
    if (rowCount != file.rowCount()) {
      throw new IllegalStateException(
          "the lookup file of "
              + file.fileName()
              + " got "
              + rowCount
              + " key-values but the data file holds "
              + file.rowCount());
    }
    if (recordsInBlock > 0) {
      flushBlock();
      owner.relieveMemory();
    }
    BloomFilter bloom = BloomFilter.forKeys(rowCount, BLOOM_FALSE_POSITIVE_RATE);
    hashes.write(pendingHashes, 0, pendingHashBytes);
    hashes.close();
    try (DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(Files.newInputStream(hashesPath), STREAM_BUFFER_BYTES))) {
      for (long i = 0; i < rowCount; i++) {
        bloom.add(in.readInt());
      }
    }
    Files.delete(hashesPath);
    byte[] section = Arrays.copyOf(index, indexLength);
    int[] starts = Arrays.copyOf(keyStarts, blocks);
    synchronized (this) {
      if (held != null) {
        FileIndex heldIndex = new FileIndex(null, section, starts, bloom);
        handedTo = owner.registerHeld(file, held, heldIndex, rowCount);
        held = null;
      } else {
        long size = output.finish(section, starts, bloom, rowCount);
        owner.register(file, path, size);
      }
      done = true;
    }
    releaseBuffers();
  }

  /** The builder outlives its copy in the cache's entries: only its small fields stay. */
  private void releaseBuffers() {
    block = null;
    recordOffsets = null;
    pendingHashes = null;
    index = null;
    keyStarts = null;
    lastKeyBytes = null;
    addedKeyBytes = null;
  }

  /** Abandons the copy unless {@link #finish} completed it. */
  @Override
  public void close() throws IOException {
    CopyOutput abandoned;
    synchronized (this) {
      if (done) {
        return;
      }
      done = true;
      held = null;
      holding = false;
      abandoned = output;
    }
    releaseBuffers();
    owner.abandon();
    try {
      hashes.close();
      if (abandoned != null) {
        abandoned.close();
      }
    } finally {
      Files.deleteIfExists(path);
      Files.deleteIfExists(hashesPath);
    }
  }

  /**
   * The cache's view of the copy: held while the builder holds its blocks, then as held as the copy
   * that took them over at {@link #finish}.
   */
  private final class SpillHandle implements MemoryCache.Spillable {
    @Override
    public boolean held() {
      MemoryCache.Spillable successor = handedTo;
      return successor != null ? successor.held() : holding;
    }

    @Override
    public void spill() throws IOException {
      LookupFileBuilder.this.spill();
    }
  }
}
