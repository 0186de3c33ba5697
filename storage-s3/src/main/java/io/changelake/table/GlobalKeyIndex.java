package io.changelake.table;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The key index of a cross-partition upsert table: each primary key's (partition, bucket), as
 * Paimon 1.3.1 keeps it in RocksDB for its {@code GlobalIndexAssigner}. Keys are added, moved and
 * never removed (Paimon's index keeps a deleted key too).
 *
 * <p>It lives on local disk, so that the heap does not grow with the key count: an open-addressing
 * hash table (linear probing, at most 3/4 full, doubled when fuller) of fixed 24-byte slots in a
 * memory-mapped file, each slot {@code int hash, int partition + 1 (0: empty), int bucket, int
 * keyLength, long keyOffset}, and the key bytes appended to a second file. A lookup probes slots by
 * the key's hash and compares the key bytes only where the hash matches, so it is exact whatever
 * the hashes collide. The operating system's page cache holds what is hot, and gives it back under
 * pressure; the heap holds a 64 KiB write buffer. On disk: 24 bytes a slot (1.3 to 2.7 slots a key)
 * plus the key bytes.
 *
 * <p>Not thread-safe. {@link #close} deletes the files; mappings of a file outgrown by a doubling
 * are released when the collector frees them.
 */
final class GlobalKeyIndex implements Closeable {

  /** What {@link #get} returns for a key not in the index. */
  static final long ABSENT = -1;

  private static final int SLOT_BYTES = 24;
  private static final int SLOTS_PER_CHUNK = (1 << 30) / SLOT_BYTES;
  private static final long INITIAL_SLOTS = 1 << 16;
  private static final int KEY_BUFFER_BYTES = 64 * 1024;

  private final Path folder;
  private final FileChannel keys;
  private final ByteBuffer keyBuffer = ByteBuffer.allocate(KEY_BUFFER_BYTES);
  private long keysOnDisk;
  private ByteBuffer keyRead = ByteBuffer.allocate(64);
  private Slots slots;
  private long size;
  private int generation;

  /** Creates an empty index in {@code folder}, which must exist and is the index's alone. */
  GlobalKeyIndex(Path folder) throws IOException {
    this.folder = folder;
    this.keys =
        FileChannel.open(
            folder.resolve("keys"),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE);
    this.slots = new Slots(folder.resolve("slots-0"), INITIAL_SLOTS);
  }

  /** The keys in the index. */
  long size() {
    return size;
  }

  /**
   * The (partition, bucket) of a key packed as {@link #partition} and {@link #bucket}, or {@link
   * #ABSENT}.
   */
  long get(byte[] key, int hash) throws IOException {
    long slot = find(key, hash);
    return slots.partitionPlusOne(slot) == 0
        ? ABSENT
        : pack(slots.partitionPlusOne(slot) - 1, slots.bucket(slot));
  }

  /**
   * Sets a key's (partition, bucket).
   *
   * @return whether the key was new
   */
  boolean put(byte[] key, int hash, int partition, int bucket) throws IOException {
    long slot = find(key, hash);
    boolean added = slots.partitionPlusOne(slot) == 0;
    if (added) {
      slots.set(slot, hash, partition + 1, bucket, key.length, appendKey(key));
      size++;
      if (size * 4 > slots.capacity * 3) {
        grow();
      }
    } else {
      slots.set(slot, hash, partition + 1, bucket, slots.keyLength(slot), slots.keyOffset(slot));
    }
    return added;
  }

  /** A packed entry's partition id. */
  static int partition(long entry) {
    return (int) (entry >>> 32);
  }

  /** A packed entry's bucket. */
  static int bucket(long entry) {
    return (int) entry;
  }

  private static long pack(int partition, int bucket) {
    return ((long) partition << 32) | (bucket & 0xFFFFFFFFL);
  }

  /** The slot of the key, or the empty slot where it would go. */
  private long find(byte[] key, int hash) throws IOException {
    long mask = slots.capacity - 1;
    for (long slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
      if (slots.partitionPlusOne(slot) == 0
          || (slots.hash(slot) == hash
              && slots.keyLength(slot) == key.length
              && keyEquals(slots.keyOffset(slot), key))) {
        return slot;
      }
    }
  }

  /** Mixes the bits of a murmur hash that linear probing would otherwise cluster on. */
  private static long spread(int hash) {
    long h = hash * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 29);
  }

  private boolean keyEquals(long offset, byte[] key) throws IOException {
    if (offset >= keysOnDisk) {
      int at = (int) (offset - keysOnDisk);
      return Arrays.equals(keyBuffer.array(), at, at + key.length, key, 0, key.length);
    }
    if (keyRead.capacity() < key.length) {
      keyRead = ByteBuffer.allocate(key.length);
    }
    keyRead.clear().limit(key.length);
    while (keyRead.hasRemaining()) {
      if (keys.read(keyRead, offset + keyRead.position()) < 0) {
        throw new IOException(
            "the key file of the index in " + folder + " is shorter than its slots");
      }
    }
    return Arrays.equals(keyRead.array(), 0, key.length, key, 0, key.length);
  }

  private long appendKey(byte[] key) throws IOException {
    if (keyBuffer.remaining() < key.length) {
      flushKeys();
    }
    long offset = keysOnDisk + keyBuffer.position();
    if (key.length > keyBuffer.capacity()) {
      ByteBuffer whole = ByteBuffer.wrap(key);
      while (whole.hasRemaining()) {
        keys.write(whole, keysOnDisk + whole.position());
      }
      keysOnDisk += key.length;
    } else {
      keyBuffer.put(key);
    }
    return offset;
  }

  private void flushKeys() throws IOException {
    keyBuffer.flip();
    while (keyBuffer.hasRemaining()) {
      keysOnDisk += keys.write(keyBuffer, keysOnDisk);
    }
    keyBuffer.clear();
  }

  /** Doubles the table: every key moves to its slot in a new file, by its stored hash. */
  private void grow() throws IOException {
    Slots old = slots;
    Slots grown = new Slots(folder.resolve("slots-" + ++generation), old.capacity * 2);
    long mask = grown.capacity - 1;
    for (long s = 0; s < old.capacity; s++) {
      int partitionPlusOne = old.partitionPlusOne(s);
      if (partitionPlusOne != 0) {
        int hash = old.hash(s);
        long slot = spread(hash) & mask;
        while (grown.partitionPlusOne(slot) != 0) {
          slot = (slot + 1) & mask;
        }
        grown.set(slot, hash, partitionPlusOne, old.bucket(s), old.keyLength(s), old.keyOffset(s));
      }
    }
    slots = grown;
    old.delete();
  }

  @Override
  public void close() throws IOException {
    try {
      keys.close();
      slots.delete();
    } finally {
      Files.deleteIfExists(folder.resolve("keys"));
    }
  }

  /** One generation of the slot table: a file mapped in chunks of at most 1 GiB. */
  private static final class Slots {
    final Path path;
    final long capacity;
    final MappedByteBuffer[] chunks;

    Slots(Path path, long capacity) throws IOException {
      this.path = path;
      this.capacity = capacity;
      int count = (int) ((capacity + SLOTS_PER_CHUNK - 1) / SLOTS_PER_CHUNK);
      this.chunks = new MappedByteBuffer[count];
      try (FileChannel channel =
          FileChannel.open(
              path,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE)) {
        for (int c = 0; c < count; c++) {
          long first = (long) c * SLOTS_PER_CHUNK;
          long slotsHere = Math.min(SLOTS_PER_CHUNK, capacity - first);
          chunks[c] =
              channel.map(
                  FileChannel.MapMode.READ_WRITE, first * SLOT_BYTES, slotsHere * SLOT_BYTES);
        }
      }
    }

    private ByteBuffer chunk(long slot) {
      return chunks[(int) (slot / SLOTS_PER_CHUNK)];
    }

    private static int at(long slot) {
      return (int) (slot % SLOTS_PER_CHUNK) * SLOT_BYTES;
    }

    int hash(long slot) {
      return chunk(slot).getInt(at(slot));
    }

    int partitionPlusOne(long slot) {
      return chunk(slot).getInt(at(slot) + 4);
    }

    int bucket(long slot) {
      return chunk(slot).getInt(at(slot) + 8);
    }

    int keyLength(long slot) {
      return chunk(slot).getInt(at(slot) + 12);
    }

    long keyOffset(long slot) {
      return chunk(slot).getLong(at(slot) + 16);
    }

    void set(long slot, int hash, int partitionPlusOne, int bucket, int keyLength, long keyOffset) {
      ByteBuffer chunk = chunk(slot);
      int at = at(slot);
      chunk.putInt(at, hash);
      chunk.putInt(at + 4, partitionPlusOne);
      chunk.putInt(at + 8, bucket);
      chunk.putInt(at + 12, keyLength);
      chunk.putLong(at + 16, keyOffset);
    }

    void delete() throws IOException {
      Files.deleteIfExists(path);
    }
  }
}
