package io.changelake.mergetree.lookup;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The heap the lookup caches of one {@link LookupCache} may use together: per bucket (owner) an LRU
 * of the filters and block indexes of its lookup files and of their blocks, all weighed in bytes
 * against one budget.
 *
 * <p>Filters, indexes and blocks compete in one LRU per owner rather than in fixed shares: a file's
 * filter and index are used by every lookup that reaches the file, so they stay while it is in use,
 * and whatever the budget leaves holds the blocks read most recently. When the budget is exceeded,
 * the owner holding the most bytes gives up its least recently used entry: an owner below its fair
 * share (the budget over the owners holding anything) loses nothing while another holds more, so a
 * busy bucket cannot push an idle one's filters out past that share, nor keep more than the rest
 * leave it. An entry larger than the whole budget is still kept, alone, for as long as it is its
 * owner's newest: a lookup needs it.
 *
 * <p>A block of a copy {@linkplain Spillable held} in memory only cannot simply be dropped: it is
 * the block's only copy. When such a block is the one to go, eviction stops there, and the next
 * {@link #spillWhileOver} writes its copy to local disk, after which its blocks go like any other.
 * The cache may thus exceed its budget between a {@link #put} and the next {@link #spillWhileOver},
 * by what a thread adds in between (a block, or the filter and index of a file).
 *
 * <p>Thread-safe: bucket writers on several threads share one cache. A value is loaded (between a
 * {@link #cached} miss and its {@link #put}), and a copy spilled, outside the lock, so a slow disk
 * read or write by one bucket does not stall the others.
 */
final class MemoryCache {

  /** A file's filter and index, in place of a block number. */
  static final int INDEX = -1;

  /** Map entry, key and value headers, for memory accounting. */
  static final int ENTRY_OVERHEAD_BYTES = 96;

  /** What the cache holds: a block of a lookup file, or its {@link #INDEX}. */
  record Key(long file, int block) {}

  /**
   * A lookup copy whose blocks are held in memory only, until the memory budget needs their room.
   */
  interface Spillable {
    /**
     * Whether the copy still lives in memory only. Read under the cache's lock, so it must not
     * block: a volatile read.
     */
    boolean held();

    /** Writes the copy to local disk, after which {@link #held} is false; a no-op if it is not. */
    void spill() throws IOException;
  }

  /**
   * A cached value and its weight, and the copy whose only in-memory block it may be (null for a
   * value that is on disk as well).
   */
  private record Entry(Object value, long weight, Spillable copy) {

    /** Whether dropping the entry would lose it: its copy has not been spilled. */
    boolean held() {
      return copy != null && copy.held();
    }
  }

  /** One owner's entries, least recently used first, and their weight. */
  private static final class Owned {
    final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    long used;
  }

  private final long capacity;
  private final Map<Long, Owned> owners = new HashMap<>();
  private long used;
  private long hits;
  private long misses;
  private long evictions;

  /** The copy eviction stopped at, to spill before the cache can fit again; null if none. */
  private Spillable toSpill;

  /** Whether eviction stopped at a held block: read without the lock by {@link #spillWhileOver}. */
  private volatile boolean spillNeeded;

  /** The owner of the entry whose addition left the cache over budget, whose entry is spared. */
  private long spillOwner = -1;

  MemoryCache(long capacity) {
    this.capacity = capacity;
  }

  /**
   * The cached value of {@code key} for {@code owner}, or null: a miss, after which the caller
   * loads the value and {@link #put}s it. Counted as a hit or a miss.
   */
  synchronized Object cached(long owner, Key key) {
    Owned owned = owners.get(owner);
    Entry entry = owned == null ? null : owned.entries.get(key);
    if (entry == null) {
      misses++;
      return null;
    }
    hits++;
    return entry.value;
  }

  /**
   * Caches {@code value} for {@code owner}, weighing it {@code weight} plus entry overhead: a value
   * loaded after a {@link #cached} miss, or one known before anyone asks for it.
   *
   * @param copy the copy that holds {@code value} in memory only, which must be spilled before the
   *     entry may be dropped; null if the value is on disk as well
   */
  synchronized void put(long owner, Key key, Object value, long weight, Spillable copy) {
    add(owner, key, value, weight + ENTRY_OVERHEAD_BYTES, copy);
  }

  /**
   * Brings the cache back within its budget if eviction stopped at a held block: spills that
   * block's copy, then goes on evicting, as often as needed. Call it holding no lock of a copy or
   * of its lookups: a spill takes the copy's lock.
   *
   * @throws IOException if a copy cannot be written; its blocks then stay, over the budget
   */
  void spillWhileOver() throws IOException {
    while (spillNeeded) {
      Spillable copy;
      synchronized (this) {
        evictWhileOver(spillOwner);
        copy = toSpill;
        toSpill = null;
      }
      if (copy != null) {
        copy.spill();
      }
    }
  }

  private void add(long owner, Key key, Object value, long weight, Spillable copy) {
    Owned owned = owners.computeIfAbsent(owner, o -> new Owned());
    Entry previous = owned.entries.put(key, new Entry(value, weight, copy));
    if (previous != null) {
      owned.used -= previous.weight;
      used -= previous.weight;
    }
    owned.used += weight;
    used += weight;
    evictWhileOver(owner);
  }

  /**
   * Evicts from the largest owner until the cache fits, or until the entry to go is held in memory
   * only: its copy is then left in {@link #toSpill}. The entry just added is spared: its owner
   * competes only while it holds more than that entry, and then its eldest entry is another.
   *
   * @param newOwner the owner of the entry just added, or -1 for none
   */
  private void evictWhileOver(long newOwner) {
    spillNeeded = false;
    toSpill = null;
    while (used > capacity) {
      Owned largest = null;
      long largestOwner = 0;
      for (Map.Entry<Long, Owned> o : owners.entrySet()) {
        Owned candidate = o.getValue();
        boolean onlyTheNewEntry = o.getKey() == newOwner && candidate.entries.size() == 1;
        if (!onlyTheNewEntry && (largest == null || candidate.used > largest.used)) {
          largest = candidate;
          largestOwner = o.getKey();
        }
      }
      if (largest == null) {
        return;
      }
      Iterator<Map.Entry<Key, Entry>> eldest = largest.entries.entrySet().iterator();
      Entry victim = eldest.next().getValue();
      if (victim.held()) {
        toSpill = victim.copy;
        spillNeeded = true;
        spillOwner = newOwner;
        return;
      }
      long weight = victim.weight;
      eldest.remove();
      largest.used -= weight;
      used -= weight;
      evictions++;
      if (largest.entries.isEmpty()) {
        owners.remove(largestOwner);
      }
    }
  }

  /** Drops every entry of a file of {@code owner}. */
  synchronized void invalidate(long owner, long file) {
    Owned owned = owners.get(owner);
    if (owned == null) {
      return;
    }
    for (Iterator<Map.Entry<Key, Entry>> i = owned.entries.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<Key, Entry> e = i.next();
      if (e.getKey().file() == file) {
        owned.used -= e.getValue().weight;
        used -= e.getValue().weight;
        i.remove();
      }
    }
    if (owned.entries.isEmpty()) {
      owners.remove(owner);
    }
  }

  /** The bytes the cached values take, by their weights. */
  synchronized long used() {
    return used;
  }

  /** The bytes the cached values of one owner take. */
  synchronized long used(long owner) {
    Owned owned = owners.get(owner);
    return owned == null ? 0 : owned.used;
  }

  synchronized long hits() {
    return hits;
  }

  synchronized long misses() {
    return misses;
  }

  synchronized long evictions() {
    return evictions;
  }
}
