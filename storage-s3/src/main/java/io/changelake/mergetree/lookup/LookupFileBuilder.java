package io.changelake.mergetree.lookup;

import com.github.luben.zstd.Zstd;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
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
 * <p>Heap use is one block, whatever the file's size: the block index and the key hashes for the
 * bloom filter wait in side files until {@link #finish}, which appends the index and sizes the
 * filter by the final count (the filter, 1.2 bytes a key, is then the only part of the file on the
 * heap, and only while it is built). Not thread-safe, but independent of lookups running on another
 * thread.
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

  /** What to do with a finished file: the owner registers it. */
  @FunctionalInterface
  interface Registry {
    void register(DataFileMeta file, Path local, long size) throws IOException;
  }

  private final Path path;
  private final boolean compress;
  private final Path hashesPath;
  private final Path indexPath;
  private final Registry registry;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final RowComparator keyOrder;
  private final DataOutputStream out;
  private final DataOutputStream hashes;
  private final DataOutputStream index;
  private final ByteArrayOutputStream blockBytes = new ByteArrayOutputStream(2 * BLOCK_BYTES);
  private final DataOutputStream block = new DataOutputStream(blockBytes);

  private int[] recordOffsets = new int[1024];
  private int recordsInBlock;
  private int blocks;
  private long position;
  private long rowCount;
  private Object[] lastKey;
  private byte[] lastKeyBytes;
  private boolean done;

  LookupFileBuilder(
      Path path, RowType keyType, RowType valueType, boolean compress, Registry registry)
      throws IOException {
    this.path = path;
    this.compress = compress;
    this.hashesPath = path.resolveSibling(path.getFileName() + ".hashes");
    this.indexPath = path.resolveSibling(path.getFileName() + ".index");
    this.registry = registry;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.valueCodec = new BinaryRowCodec(valueType);
    this.keyOrder = new RowComparator(keyType);
    this.out = open(path);
    this.hashes = open(hashesPath);
    this.index = open(indexPath);
  }

  private static DataOutputStream open(Path file) throws IOException {
    return new DataOutputStream(
        new BufferedOutputStream(Files.newOutputStream(file), STREAM_BUFFER_BYTES));
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
    byte[] key = keyCodec.encodeRow(kv.key());
    byte[] value = valueCodec.encodeRow(kv.value());
    if (recordsInBlock == recordOffsets.length) {
      recordOffsets = Arrays.copyOf(recordOffsets, 2 * recordsInBlock);
    }
    recordOffsets[recordsInBlock++] = blockBytes.size();
    block.writeInt(key.length);
    block.write(key);
    block.writeInt(value.length);
    block.write(value);
    block.writeLong(kv.sequenceNumber());
    block.writeByte(kv.kind().toByteValue());
    hashes.writeInt(keyCodec.hash(kv.key()));
    lastKey = kv.key();
    lastKeyBytes = key;
    rowCount++;
    if (blockBytes.size() >= BLOCK_BYTES) {
      flushBlock();
    }
  }

  private void checkOpen() {
    if (done) {
      throw new IllegalStateException("the lookup file " + path + " is already finished or closed");
    }
  }

  private void flushBlock() throws IOException {
    for (int i = 0; i < recordsInBlock; i++) {
      block.writeInt(recordOffsets[i]);
    }
    block.writeInt(recordsInBlock);
    int stored;
    if (compress) {
      byte[] frame = Zstd.compress(blockBytes.toByteArray(), SPILL_ZSTD_LEVEL);
      out.writeInt(blockBytes.size());
      out.write(frame);
      stored = 4 + frame.length;
    } else {
      blockBytes.writeTo(out);
      stored = blockBytes.size();
    }
    position += stored;
    index.writeInt(stored);
    index.writeInt(lastKeyBytes.length);
    index.write(lastKeyBytes);
    blocks++;
    blockBytes.reset();
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
    out.writeInt(blocks);
    index.close();
    Files.copy(indexPath, out);
    long bloomOffset = indexOffset + 4 + Files.size(indexPath);
    BloomFilter bloom = BloomFilter.forKeys(rowCount, BLOOM_FALSE_POSITIVE_RATE);
    hashes.close();
    try (DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(Files.newInputStream(hashesPath), STREAM_BUFFER_BYTES))) {
      for (long i = 0; i < rowCount; i++) {
        bloom.add(in.readInt());
      }
    }
    bloom.writeTo(out);
    out.writeLong(indexOffset);
    out.writeLong(bloomOffset);
    out.writeLong(rowCount);
    out.writeInt(LookupFile.MAGIC);
    out.close();
    Files.delete(hashesPath);
    Files.delete(indexPath);
    done = true;
    registry.register(file, path, Files.size(path));
  }

  /** Abandons the file unless {@link #finish} completed it. */
  @Override
  public void close() throws IOException {
    if (done) {
      return;
    }
    done = true;
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
}
