package io.changelake.mergetree.lookup;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Builds the local lookup file of one data file from its key-values, fed in key order: how a bucket
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
 * <p>Heap use is one block and 64 KiB of key hashes, whatever the file's size: the block index and
 * the key hashes for the bloom filter wait in side files until {@link #finish}, which appends the
 * index and sizes the filter by the final count (the filter, 1.2 bytes a key, is then the only part
 * of the file on the heap, and only while it is built). Each finished block is also handed to the
 * {@link Owner}'s memory cache, which weighs it against the memory budget like a block read. Not
 * thread-safe, but independent of lookups running on another thread.
 *
 * <p>This runs once per row of every file a lookup table's compaction writes, beside the Parquet
 * encoding: a row's key and value are serialized once, straight into the block (and the key's hash
 * taken from those bytes), and every block of a file is compressed by one zstd context.
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

  /** Paimon's {@code spill-compression.zstd-level} default: fast, and most of zstd's gain. */
  private static final int SPILL_ZSTD_LEVEL = 1;

  /** A record's bytes besides its key and value: two lengths, the sequence number, the kind. */
  private static final int RECORD_OVERHEAD = 4 + 4 + 8 + 1;

  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /**
   * The lookups a file is built for: they cache its blocks as they are written (a commit's lookups
   * go to the files its compaction just wrote, so this spares reading and decompressing them back),
   * register the file once it is finished, and forget its blocks if it is abandoned.
   */
  interface Owner {
    /** Takes block {@code block}'s raw bytes; called from the builder's thread. */
    void cacheBlock(int block, byte[] raw);

    void register(DataFileMeta file, Path local, long size) throws IOException;

    void abandon();
  }

  private final Path path;
  private final Path hashesPath;
  private final Path indexPath;
  private final Owner owner;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final RowComparator keyOrder;
  private final OutputStream out;
  private final OutputStream hashes;
  private final DataOutputStream index;

  /** Compresses the blocks; null when they are stored raw. */
  private final ZstdCompressCtx zstd;

  /** The open block: its records, then (once full) their offsets and count. */
  private byte[] block = new byte[2 * BLOCK_BYTES];

  private int blockLength;
  private byte[] frame = new byte[0];
  private int[] recordOffsets = new int[1024];
  private int recordsInBlock;

  /** Where the last record's key starts in the block, and its length: the block's index entry. */
  private int lastKeyStart;

  private int lastKeyLength;

  /** Key hashes waiting to be written to their side file, four bytes each. */
  private final byte[] pendingHashes = new byte[STREAM_BUFFER_BYTES];

  private int pendingHashBytes;
  private int blocks;
  private long position;
  private long rowCount;
  private Object[] lastKey;
  private boolean done;

  LookupFileBuilder(Path path, RowType keyType, RowType valueType, boolean compress, Owner owner)
      throws IOException {
    this.path = path;
    this.hashesPath = path.resolveSibling(path.getFileName() + ".hashes");
    this.indexPath = path.resolveSibling(path.getFileName() + ".index");
    this.owner = owner;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.valueCodec = new BinaryRowCodec(valueType);
    this.keyOrder = new RowComparator(keyType);
    this.out = open(path);
    this.hashes = open(hashesPath);
    this.index = new DataOutputStream(open(indexPath));
    this.zstd = compress ? new ZstdCompressCtx().setLevel(SPILL_ZSTD_LEVEL) : null;
  }

  private static OutputStream open(Path file) throws IOException {
    return new BufferedOutputStream(Files.newOutputStream(file), STREAM_BUFFER_BYTES);
  }

  /**
   * Appends the next key-value of the data file.
   *
   * @throws IllegalArgumentException if its key is not greater than the previous one: a data file
   *     holds each key once, in key order
   */
  public void add(KeyValue kv) throws IOException {
    checkOpen();
    if (lastKey != null && keyOrder.compare(lastKey, kv.key()) >= 0) {
      throw new IllegalArgumentException(
          "key "
              + Arrays.toString(kv.key())
              + " follows "
              + Arrays.toString(lastKey)
              + " in "
              + path
              + ": a lookup file takes each key once, in ascending order");
    }
    // Both rows are serialized (and checked) before the block changes; each codec keeps its own.
    int keyLength = keyCodec.writeRow(kv.key());
    int valueLength = valueCodec.writeRow(kv.value());
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
    LONGS.set(block, blockLength, kv.sequenceNumber());
    block[blockLength + 8] = kv.kind().toByteValue();
    blockLength += 9;
    lastKey = kv.key();
    rowCount++;
    if (blockLength >= BLOCK_BYTES) {
      flushBlock();
    }
  }

  private void checkOpen() {
    if (done) {
      throw new IllegalStateException("the lookup file " + path + " is already finished or closed");
    }
  }

  /** Makes room in the block for {@code bytes} more. */
  private void reserve(int bytes) {
    if (blockLength + bytes > block.length) {
      block = Arrays.copyOf(block, Math.max(blockLength + bytes, 2 * block.length));
    }
  }

  private void writeHash(int hash) throws IOException {
    if (pendingHashBytes == pendingHashes.length) {
      hashes.write(pendingHashes, 0, pendingHashBytes);
      pendingHashBytes = 0;
    }
    INTS.set(pendingHashes, pendingHashBytes, hash);
    pendingHashBytes += 4;
  }

  private void flushBlock() throws IOException {
    reserve(4 * recordsInBlock + 4);
    for (int i = 0; i < recordsInBlock; i++) {
      INTS.set(block, blockLength, recordOffsets[i]);
      blockLength += 4;
    }
    INTS.set(block, blockLength, recordsInBlock);
    blockLength += 4;
    owner.cacheBlock(blocks, Arrays.copyOf(block, blockLength));
    int stored;
    if (zstd != null) {
      int bound = (int) Zstd.compressBound(blockLength) + 4;
      if (frame.length < bound) {
        frame = new byte[bound];
      }
      INTS.set(frame, 0, blockLength);
      int compressed = zstd.compressByteArray(frame, 4, frame.length - 4, block, 0, blockLength);
      stored = 4 + compressed;
      out.write(frame, 0, stored);
    } else {
      stored = blockLength;
      out.write(block, 0, stored);
    }
    position += stored;
    index.writeInt(stored);
    index.writeInt(lastKeyLength);
    index.write(block, lastKeyStart, lastKeyLength);
    blocks++;
    blockLength = 0;
    recordsInBlock = 0;
  }

  /**
   * Completes the lookup file and hands it to its {@link LookupLevels} as the local copy of {@code
   * file}, replacing any copy it had.
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
    }
    long indexOffset = position;
    DataOutputStream tail = new DataOutputStream(out);
    tail.writeInt(blocks);
    index.close();
    Files.copy(indexPath, tail);
    long bloomOffset = indexOffset + 4 + Files.size(indexPath);
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
    bloom.writeTo(tail);
    tail.writeLong(indexOffset);
    tail.writeLong(bloomOffset);
    tail.writeLong(rowCount);
    tail.writeInt(LookupFile.MAGIC);
    tail.close();
    Files.delete(hashesPath);
    Files.delete(indexPath);
    done = true;
    releaseZstd();
    owner.register(file, path, Files.size(path));
  }

  /** Abandons the file unless {@link #finish} completed it. */
  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
    releaseZstd();
    owner.abandon();
    try {
      out.close();
      hashes.close();
      index.close();
    } finally {
      Files.deleteIfExists(path);
      Files.deleteIfExists(hashesPath);
      Files.deleteIfExists(indexPath);
    }
  }

  private void releaseZstd() {
    if (zstd != null) {
      zstd.close();
    }
  }
}
