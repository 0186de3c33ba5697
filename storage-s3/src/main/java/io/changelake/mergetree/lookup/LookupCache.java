package io.changelake.mergetree.lookup;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lookup cache of a worker: one memory budget and one local-disk budget shared by the {@link
 * LookupLevels} of every bucket writer in the JVM, as Paimon shares one cache per write task. A
 * worker hosting 32 buckets then spends {@code lookup.cache-max-memory-size} of heap on lookups,
 * not 32 times that.
 *
 * <p>Eviction is fair between buckets. In memory, the bucket holding the most gives up its least
 * recently used filter, index or block ({@link MemoryCache}). On disk, while the copies exceed the
 * budget, each bucket holding more than its fair share (the budget over the buckets holding a copy)
 * deletes its least recently used copies down to that share, at its next lookup or new copy: copies
 * are deleted only by their own bucket's thread, never under a lookup running on another.
 *
 * <p>{@link #shared} gives every writer asking with the same budgets the same cache; a test or a
 * single writer may make its own. Thread-safe.
 */
public final class LookupCache {

  private record Budgets(long memoryBytes, long diskBytes) {}

  private static final Map<Budgets, LookupCache> SHARED = new HashMap<>();

  private final MemoryCache memory;
  private final long maxDiskBytes;
  private final AtomicLong nextId = new AtomicLong();
  private final Map<Long, Long> diskByOwner = new HashMap<>();
  private long diskBytes;
  private long peakDiskBytes;
  private long diskEvictions;
  private volatile boolean overDisk;

  /**
   * A cache of its own.
   *
   * @param maxMemoryBytes heap for filters, indexes and blocks, see {@link LookupLevels}
   * @param maxDiskBytes local disk for the lookup copies, see {@link LookupLevels}
   */
  public LookupCache(long maxMemoryBytes, long maxDiskBytes) {
    if (maxMemoryBytes <= 0 || maxDiskBytes <= 0) {
      throw new IllegalArgumentException(
          "lookup cache budgets must be positive, got memory "
              + maxMemoryBytes
              + " and disk "
              + maxDiskBytes
              + " bytes: set lookup.cache-max-memory-size and "
              + "lookup.cache-max-disk-size to a size such as 256 mb");
    }
    this.memory = new MemoryCache(maxMemoryBytes);
    this.maxDiskBytes = maxDiskBytes;
  }

  /** The JVM's cache with these budgets, made at the first request. */
  public static LookupCache shared(long maxMemoryBytes, long maxDiskBytes) {
    synchronized (SHARED) {
      return SHARED.computeIfAbsent(
          new Budgets(maxMemoryBytes, maxDiskBytes),
          b -> new LookupCache(b.memoryBytes(), b.diskBytes()));
    }
  }

  /** Every cache {@link #shared} made, for metrics. */
  public static Stats sharedStats() {
    synchronized (SHARED) {
      Stats total = new Stats(0, 0, 0, 0, 0, 0, 0);
      for (LookupCache cache : SHARED.values()) {
        total = total.plus(cache.stats());
      }
      return total;
    }
  }

  /** Forgets the disk peaks of every cache {@link #shared} made. */
  public static void resetSharedPeaks() {
    synchronized (SHARED) {
      for (LookupCache cache : SHARED.values()) {
        cache.resetPeak();
      }
    }
  }

  MemoryCache memory() {
    return memory;
  }

  /** A new id, unique in this cache, for a bucket (owner) or a local file. */
  long newId() {
    return nextId.getAndIncrement();
  }

  synchronized void addDisk(long owner, long bytes) {
    diskByOwner.merge(owner, bytes, Long::sum);
    diskBytes += bytes;
    peakDiskBytes = Math.max(peakDiskBytes, diskBytes);
    overDisk = diskBytes > maxDiskBytes;
  }

  /** Takes a deleted copy off the books; {@code evicted} if the budget deleted it. */
  synchronized void removeDisk(long owner, long bytes, boolean evicted) {
    long left = diskByOwner.merge(owner, -bytes, Long::sum);
    if (left <= 0) {
      diskByOwner.remove(owner);
    }
    diskBytes -= bytes;
    overDisk = diskBytes > maxDiskBytes;
    if (evicted) {
      diskEvictions++;
    }
  }

  /** Whether {@code owner} should delete a copy: the disk is over budget and it holds too much. */
  boolean overDiskShare(long owner) {
    if (!overDisk) {
      return false;
    }
    synchronized (this) {
      long share = maxDiskBytes / Math.max(1, diskByOwner.size());
      return diskBytes > maxDiskBytes && diskByOwner.getOrDefault(owner, 0L) > share;
    }
  }

  /** What the cache holds and has done so far. */
  public Stats stats() {
    synchronized (this) {
      return new Stats(
          memory.used(),
          diskBytes,
          peakDiskBytes,
          memory.hits(),
          memory.misses(),
          memory.evictions(),
          diskEvictions);
    }
  }

  /** Forgets the disk peak, so that {@link Stats#peakDiskBytes} measures from now. */
  public synchronized void resetPeak() {
    peakDiskBytes = diskBytes;
  }

  /**
   * The state of a lookup cache.
   *
   * @param memoryBytes heap held by filters, indexes and blocks, by accounting
   * @param diskBytes the size of the local copies
   * @param peakDiskBytes the most {@code diskBytes} reached
   * @param hits lookups of a filter, index or block that found it in memory
   * @param misses lookups that read it from local disk
   * @param memoryEvictions entries the memory budget dropped
   * @param diskEvictions copies the disk budget deleted
   */
  public record Stats(
      long memoryBytes,
      long diskBytes,
      long peakDiskBytes,
      long hits,
      long misses,
      long memoryEvictions,
      long diskEvictions) {

    /** Hits over all lookups of the memory cache, 0 before any. */
    public double hitRate() {
      long all = hits + misses;
      return all == 0 ? 0 : (double) hits / all;
    }

    Stats plus(Stats o) {
      return new Stats(
          memoryBytes + o.memoryBytes,
          diskBytes + o.diskBytes,
          peakDiskBytes + o.peakDiskBytes,
          hits + o.hits,
          misses + o.misses,
          memoryEvictions + o.memoryEvictions,
          diskEvictions + o.diskEvictions);
    }
  }
}
