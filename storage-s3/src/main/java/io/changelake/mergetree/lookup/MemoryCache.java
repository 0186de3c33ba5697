package io.changelake.mergetree.lookup;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The heap the lookup cache may use: an LRU of the filters and block indexes of lookup files and
 * of their blocks, weighed in bytes against one budget.
 *
 * <p>Filters, indexes and blocks compete in one LRU rather than in fixed shares: a file's filter
 * and index are used by every lookup that reaches the file, so they stay while it is in use, and
 * whatever the budget leaves holds the blocks read most recently. An entry larger than the whole
 * budget is still kept, alone, for as long as it is the newest: a lookup needs it.
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

  private final long capacity;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long used;

  MemoryCache(long capacity) {
    this.capacity = capacity;
  }

  /** The cached value of {@code key}, loaded and weighed (plus entry overhead) if absent. */
  @SuppressWarnings("unchecked")
  <V> V get(Key key, Loader<V> loader, ToLongFunction<V> weigher) throws IOException {
    Entry entry = entries.get(key);
    if (entry != null) {
      return (V) entry.value;
    }
    V value = loader.load();
    long weight = weigher.applyAsLong(value) + ENTRY_OVERHEAD_BYTES;
    entries.put(key, new Entry(value, weight));
    used += weight;
    Iterator<Map.Entry<Key, Entry>> eldest = entries.entrySet().iterator();
    while (used > capacity && entries.size() > 1) {
      used -= eldest.next().getValue().weight;
      eldest.remove();
    }
    return value;
  }

  /** Drops every entry of a file. */
  void invalidate(long file) {
    for (Iterator<Map.Entry<Key, Entry>> i = entries.entrySet().iterator(); i.hasNext(); ) {
      Map.Entry<Key, Entry> e = i.next();
      if (e.getKey().file() == file) {
        used -= e.getValue().weight;
        i.remove();
      }
    }
  }

  /** The bytes the cached values take, by their weights. */
  long used() {
    return used;
  }
}
