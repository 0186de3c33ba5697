package io.changelake.mergetree.lookup;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

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
 * <p>Thread-safe: bucket writers on several threads share one cache. A value is loaded outside the
 * lock, so a slow disk read by one bucket does not stall the others.
 */
final class MemoryCache {

  /** A file's filter and index, in place of a block number. */
  static final int INDEX = -1;

  /** Map entry, key and value headers, for memory accounting. */
  static final int ENTRY_OVERHEAD_BYTES = 96;

  /** What the cache holds: a block of a lookup file, or its {@link #INDEX}. */
  record Key(long file, int block) {}

  /** Reads a value from disk when the cache does not hold it. */
  @FunctionalInterface
  interface Loader<V> {
    V load() throws IOException;
  }

  private record Entry(Object value, long weight) {}

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

  MemoryCache(long capacity) {
    this.capacity = capacity;
  }

  /**
   * The cached value of {@code key} for {@code owner}, loaded and weighed (plus entry overhead) if
   * absent.
   */
  @SuppressWarnings("unchecked")
  <V> V get(long owner, Key key, Loader<V> loader, ToLongFunction<V> weigher) throws IOException {
    synchronized (this) {
      Owned owned = owners.get(owner);
      Entry entry = owned == null ? null : owned.entries.get(key);
      if (entry != null) {
        hits++;
        return (V) entry.value;
      }
      misses++;
    }
    V value = loader.load();
    long weight = weigher.applyAsLong(value) + ENTRY_OVERHEAD_BYTES;
    synchronized (this) {
      add(owner, key, value, weight);
    }
    return value;
  }

  /**
   * Caches {@code value} for {@code owner} as {@link #get} would after loading it, weighing it
   * {@code weight} plus entry overhead: for values known before anyone asks for them.
   */
  synchronized void put(long owner, Key key, Object value, long weight) {
    add(owner, key, value, weight + ENTRY_OVERHEAD_BYTES);
  }

  private void add(long owner, Key key, Object value, long weight) {
    Owned owned = owners.computeIfAbsent(owner, o -> new Owned());
    Entry previous = owned.entries.put(key, new Entry(value, weight));
    if (previous != null) {
      owned.used -= previous.weight;
      used -= previous.weight;
    }
    owned.used += weight;
    used += weight;
    evictWhileOver(owner);
  }

  /**
   * Evicts from the largest owner until the cache fits. The entry just added is spared: its owner
   * competes only while it holds more than that entry, and then its eldest entry is another.
   */
  private void evictWhileOver(long newOwner) {
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
      long weight = eldest.next().getValue().weight;
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
