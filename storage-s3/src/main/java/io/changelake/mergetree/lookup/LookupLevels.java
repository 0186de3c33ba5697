package io.changelake.mergetree.lookup;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.format.BinaryRowView;
import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.Levels;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the current version of a key in the levels above 0 of one bucket, without holding the
 * bucket on the heap: what the lookup changelog producer needs for each key a compaction takes from
 * level 0 (the BEFORE image), and what a first-row or partial-update writer needs to know whether a
 * key exists.
 *
 * <h2>How it works</h2>
 *
 * <p>Each data file the levels name gets a local copy in {@code folder}, laid out for point
 * lookups: key-values sorted by key in blocks of 4 KiB, a sparse index holding the last key of each
 * block, and a bloom filter of the file's keys (1 % false positives). The copy is built either from
 * the records a writer {@linkplain #newFile hands over} while it writes the data file, or, on the
 * first lookup that needs it, by reading the data file once from the object store. {@link #lookup}
 * searches the levels from {@code startLevel} up; in each it asks {@link Levels#fileFor} which
 * file's key range holds the key, and the first file that holds it answers.
 *
 * <h2>Budgets</h2>
 *
 * <p>The budgets belong to a {@link LookupCache}: a table writer passes the worker's {@linkplain
 * LookupCache#shared shared} one, so every bucket in the JVM spends from the same memory and disk,
 * with fair eviction between buckets; a copy unused for {@code lookup.cache-file-retention} is
 * deleted. A copy is built in memory: its blocks enter the memory cache as they are made, and stay
 * there, held, with no file written, until the memory budget needs their room. The cache then
 * spills the copy to its local file, and its blocks go like any other; a copy that leaves the
 * levels before (a lookup table's compaction rewrites most files within a few commits) never
 * touches the disk. Blocks on disk are zstd-compressed unless {@code
 * lookup.cache-spill-compression} is {@code none}; the memory cache holds them raw. The next
 * commit's lookups go above all to the files the last compaction wrote, and find their blocks in
 * memory.
 *
 * <table>
 *   <caption>What the cache spends</caption>
 *   <tr><th>budget</th><th>option</th><th>holds</th><th>cost per key</th><th>when full</th></tr>
 *   <tr><td>memory</td><td>{@code lookup.cache-max-memory-size} (256 mb)</td>
 *       <td>the bloom filter and block index of each file in use, and the blocks built or read
 *       most recently, in one LRU</td>
 *       <td>1.2 bytes of filter; the index costs one key and 16 bytes per block, about 0.8
 *       bytes per key for rows of 100 bytes</td>
 *       <td>the least recently used block, filter or index is dropped (its copy spilled first if
 *       it is held); it is read again from the local file when needed (a filter and index: one
 *       read of the file's tail)</td></tr>
 *   <tr><td>disk</td><td>{@code lookup.cache-max-disk-size} (10 gb)</td>
 *       <td>the local copies spilled</td>
 *       <td>the key and value as BinaryRow, 17 bytes of sequence number, kind and lengths, 4 of
 *       block offset, before compression</td>
 *       <td>the least recently used whole copy is deleted; the next lookup that needs it reads
 *       the data file from the object store again</td></tr>
 * </table>
 *
 * <p>Size the memory budget to hold at least the filters and indexes of the files a commit touches
 * (about 2 bytes per key of the bucket), or lookups reread them from disk; every byte beyond that
 * caches blocks. The disk budget trades local disk for object store reads: a copy evicted is a
 * whole data file downloaded again, so a disk budget below the copies one commit's lookups touch
 * makes each commit download them again, possibly several times. A copy larger than the disk budget
 * is still built and kept until another is needed.
 *
 * <h2>Costs of a lookup</h2>
 *
 * <p>A key a file does not hold costs, in the 99 % the filter rejects, a few hashes and no disk
 * read. A key it holds costs a binary search in the block index and in one block, and one read of 4
 * KiB if the block is not cached. The first lookup into a file that has no local copy reads the
 * whole data file.
 *
 * <p>Not thread-safe: one bucket writer owns an instance. {@link #newFile} and a {@link
 * LookupFileBuilder}'s {@link LookupFileBuilder#add} may run on another thread, but {@link
 * LookupFileBuilder#finish} must not overlap a lookup. Local files are deleted by {@link #remove}
 * and {@link #close}; put {@code folder} under a temporary directory so that a crashed process
 * leaves nothing behind for long.
 */
public final class LookupLevels implements Closeable {

  private final Levels levels;
  private final RowType keyType;
  private final RowType valueType;
  private final BinaryRowCodec keyCodec;

  /** Where each key column stands among the table's columns. */
  private final int[] keyInValue;

  /** The version the last lookup found, in its block. */
  private final BinaryRowView found;

  /** The key looked up, as a BinaryRow from offset 0: reused, grown as keys need. */
  private byte[] probe = new byte[64];

  private final DataFileOpener<KeyValueFileReader> opener;
  private final Path folder;
  private final LookupCache cache;
  private final long owner;
  private final long retentionNanos;

  /**
   * What this bucket's copies share, among which the context that decompresses their blocks when
   * they are compressed: one for every block read, rather than one made and freed per 4 KiB block.
   */
  private final LookupFile.Shared shared;

  /** Local copies by data file name, least recently used first. */
  private final LinkedHashMap<String, LookupFile> localFiles = new LinkedHashMap<>(16, 0.75f, true);

  private long filesBuilt;
  private long lastRetentionSweepNanos = System.nanoTime();
  private long blocksReadByClosedFiles;

  /**
   * A bucket's lookups with a cache of their own, uncompressed copies kept for as long as their
   * files are in the levels.
   *
   * @param levels the bucket's levels; read at each lookup, so updates to them take effect at once
   * @param keyType the trimmed primary key
   * @param valueType every table column
   * @param opener reads a data file when its local copy is missing
   * @param folder where local copies go; created if missing
   * @param maxMemoryBytes the memory budget, see the class documentation
   * @param maxDiskBytes the disk budget, see the class documentation
   */
  public LookupLevels(
      Levels levels,
      RowType keyType,
      RowType valueType,
      DataFileOpener<KeyValueFileReader> opener,
      Path folder,
      long maxMemoryBytes,
      long maxDiskBytes)
      throws IOException {
    this(
        levels,
        keyType,
        valueType,
        opener,
        folder,
        new LookupCache(maxMemoryBytes, maxDiskBytes),
        null,
        false);
  }

  /**
   * A bucket's lookups in a cache shared with other buckets.
   *
   * @param cache the budgets, usually {@link LookupCache#shared} the worker's
   * @param retention how long a local copy no lookup used is kept ({@code
   *     lookup.cache-file-retention}), or null for as long as its file is in the levels
   * @param compress whether blocks are stored zstd-compressed ({@code
   *     lookup.cache-spill-compression}); the memory cache holds them raw
   */
  public LookupLevels(
      Levels levels,
      RowType keyType,
      RowType valueType,
      DataFileOpener<KeyValueFileReader> opener,
      Path folder,
      LookupCache cache,
      Duration retention,
      boolean compress)
      throws IOException {
    this.levels = levels;
    this.keyType = keyType;
    this.valueType = valueType;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.keyInValue = valueType.positionsOf(keyType);
    if (keyInValue == null) {
      throw new IllegalArgumentException(
          "the key " + keyType.names() + " is not among the columns " + valueType.names());
    }
    this.found = new BinaryRowView(valueType, keyInValue);
    this.opener = opener;
    this.folder = Files.createDirectories(folder);
    this.cache = cache;
    this.owner = cache.newId();
    this.retentionNanos = retention == null ? Long.MAX_VALUE : retention.toNanos();
    this.shared =
        new LookupFile.Shared(
            owner,
            compress ? new ZstdDecompressCtx() : null,
            compress,
            new BinaryRowOrder(keyType),
            cache);
  }

  /**
   * The current version of the key {@code row} holds in its key columns (a row of every table
   * column, as a compaction reads it) in the levels from {@code startLevel} to the top: the version
   * of the first level whose file holds the key, with its sequence number and kind as stored (a
   * retraction included), or null if no level holds it. It is answered with a view of the version
   * in its block of the local copy ({@link BinaryRowView}), valid until the next lookup: neither
   * the key nor the version is decoded, and a key of BIGINT, INT, DOUBLE, FLOAT or BOOLEAN columns
   * is not boxed.
   *
   * @param startLevel 1 or more: level-0 files overlap and are never looked up
   */
  public ChangeRow lookup(ChangeRow row, int startLevel) throws IOException {
    checkStartLevel(startLevel);
    settle();
    return find(keyCodec.writeRow(row, keyInValue), startLevel) ? found : null;
  }

  private static void checkStartLevel(int startLevel) {
    if (startLevel < 1) {
      throw new IllegalArgumentException(
          "lookups start at level 1 or above, got "
              + startLevel
              + ": level 0 is merged, not looked up");
    }
  }

  /**
   * Looks up the key {@link #keyCodec} wrote last, {@code keyLength} bytes, from {@code startLevel}
   * up: points {@link #found} at the version of the first level whose file holds it.
   */
  private boolean find(int keyLength, int startLevel) throws IOException {
    if (probe.length < keyLength) {
      probe = new byte[Math.max(keyLength, 2 * probe.length)];
    }
    keyCodec.copyLastRow(probe, 0);
    int hash = keyCodec.lastRowHash();
    boolean hit = false;
    for (int level = startLevel; !hit && level <= levels.maxLevel(); level++) {
      DataFileMeta file = levels.fileFor(level, probe);
      if (file != null) {
        hit = localFile(file).find(probe, hash, found);
      }
    }
    // A block read may have left the cache over its budget at a held copy: no lock is held here.
    cache.memory().spillWhileOver();
    return hit;
  }

  /**
   * A builder of the local copy of a data file being written; its {@link LookupFileBuilder#finish}
   * makes the copy answer for that file. Close it if the data file is abandoned. Hand over only
   * files written above level 0 (compaction output): level-0 files are never looked up, and a file
   * moved up a level keeps its name, hence its copy.
   */
  public LookupFileBuilder newFile() throws IOException {
    long id = cache.newId();
    return new LookupFileBuilder(
        folder.resolve("lookup-" + id + ".tmp"),
        keyType,
        valueType,
        keyInValue,
        shared.compress(),
        new Building(id));
  }

  /** A copy being built: its blocks go to the memory cache under the id it will be known by. */
  private final class Building implements LookupFileBuilder.Owner {
    private final long id;

    Building(long id) {
      this.id = id;
    }

    @Override
    public void cacheBlock(int block, byte[] raw, MemoryCache.Spillable heldBy) {
      cache.memory().put(owner, new MemoryCache.Key(id, block), raw, raw.length, heldBy);
    }

    @Override
    public void relieveMemory() throws IOException {
      cache.memory().spillWhileOver();
    }

    @Override
    public void register(DataFileMeta file, Path built, long size) throws IOException {
      drop(file.fileName());
      Path path = Files.move(built, localPath(file));
      localFiles.put(file.fileName(), LookupFile.written(shared, id, path, size));
      cache.addDisk(owner, size);
      settle();
    }

    @Override
    public MemoryCache.Spillable registerHeld(
        DataFileMeta file, List<byte[]> blocks, FileIndex index, long rowCount) throws IOException {
      drop(file.fileName());
      LookupFile held = LookupFile.held(shared, id, localPath(file), blocks, index, rowCount);
      localFiles.put(file.fileName(), held);
      settle();
      return held;
    }

    private Path localPath(DataFileMeta file) {
      return folder.resolve("lookup-" + id + "-" + file.fileName());
    }

    @Override
    public void abandon() {
      cache.memory().invalidate(owner, id);
    }
  }

  /**
   * Deletes this bucket's least recently used copies while the shared disk budget is exceeded and
   * this bucket holds more than its share (the newest copy stays: a lookup needs it), and every
   * copy unused for longer than the retention.
   */
  private void settle() throws IOException {
    if (cache.overDiskShare(owner)) {
      Iterator<Map.Entry<String, LookupFile>> eldest = localFiles.entrySet().iterator();
      // The newest copy is never visited: a lookup needs it.
      int unvisited = localFiles.size();
      while (unvisited > 1 && cache.overDiskShare(owner)) {
        LookupFile candidate = eldest.next().getValue();
        unvisited--;
        // A held copy takes no disk: deleting it would only cost a rebuild.
        if (candidate.size() > 0) {
          eldest.remove();
          release(candidate, true);
        }
      }
    }
    long now = System.nanoTime();
    if (retentionNanos == Long.MAX_VALUE || now - lastRetentionSweepNanos < RETENTION_SWEEP_NANOS) {
      return;
    }
    lastRetentionSweepNanos = now;
    for (Iterator<LookupFile> i = localFiles.values().iterator(); i.hasNext(); ) {
      LookupFile local = i.next();
      if (now - local.lastUsedNanos() > retentionNanos) {
        i.remove();
        release(local, true);
      }
    }
  }

  /** How often lookups look for copies past their retention. */
  private static final long RETENTION_SWEEP_NANOS = 1_000_000_000L;

  private LookupFile localFile(DataFileMeta file) throws IOException {
    LookupFile local = localFiles.get(file.fileName());
    if (local != null) {
      return local;
    }
    // Read in column batches: each row goes from the decoded columns to the copy's bytes, with no
    // key-value built or number boxed for it.
    try (LookupFileBuilder builder = newFile();
        KeyValueFileReader records = opener.open(file)) {
      KeyValueBatch batch = records.newBatch();
      while (records.nextBatch(batch) > 0) {
        for (int r = 0; r < batch.size(); r++) {
          builder.add(batch.row(r));
        }
      }
      builder.finish(file);
    }
    filesBuilt++;
    return localFiles.get(file.fileName());
  }

  /**
   * Forgets a data file that left the levels (compacted away or expired): deletes its local copy
   * and frees its memory. A file the levels still name would be rebuilt on its next lookup.
   */
  public void remove(DataFileMeta file) throws IOException {
    drop(file.fileName());
  }

  private void drop(String fileName) throws IOException {
    LookupFile local = localFiles.remove(fileName);
    if (local != null) {
      release(local, false);
    }
  }

  private void release(LookupFile local, boolean evicted) throws IOException {
    // Closed first: a copy spilled on another thread meanwhile is on the books with its size.
    local.close();
    if (local.size() > 0) {
      cache.removeDisk(owner, local.size(), evicted);
    }
    blocksReadByClosedFiles += local.blocksRead();
  }

  /** What the cache holds and has done so far. */
  public CacheStats stats() {
    long blocksRead = blocksReadByClosedFiles;
    long diskBytes = 0;
    int held = 0;
    for (LookupFile f : localFiles.values()) {
      blocksRead += f.blocksRead();
      diskBytes += f.size();
      held += f.held() ? 1 : 0;
    }
    return new CacheStats(
        cache.memory().used(owner), diskBytes, localFiles.size(), held, filesBuilt, blocksRead);
  }

  /**
   * The state of a lookup cache.
   *
   * @param memoryBytes heap held by this bucket's filters, indexes and blocks, by accounting; at
   *     most the memory budget unless one entry alone exceeds it
   * @param diskBytes the size of this bucket's local copies spilled to disk
   * @param localFiles how many data files have a local copy
   * @param heldFiles how many of those copies are held in memory only, not spilled
   * @param filesBuilt local copies built by reading a data file (not from a writer's hand-over)
   * @param blocksRead blocks read from local disk because the memory cache lacked them
   */
  public record CacheStats(
      long memoryBytes,
      long diskBytes,
      int localFiles,
      int heldFiles,
      long filesBuilt,
      long blocksRead) {}

  /** Deletes every local copy. */
  @Override
  public void close() throws IOException {
    if (shared.zstd() != null) {
      // No lookup follows a close: the copies are deleted below, and the context is freed now.
      shared.zstd().close();
    }
    List<LookupFile> all = new ArrayList<>(localFiles.values());
    localFiles.clear();
    IOException failure = null;
    for (LookupFile local : all) {
      try {
        release(local, false);
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
