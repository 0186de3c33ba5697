package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The versions of one key gathered by {@link RunKeys} or a flush, in version order, each with the
 * LSM level of the run it came from: views of their rows, valid until the key's merge is done (a
 * key-value where a view had to be copied). One instance is refilled key after key.
 */
public final class KeyVersions {

  /** Up to this many versions are sorted in place; more through an array of entries. */
  private static final int INSERTION_SORTED = 16;

  private final List<ChangeRow> records = new ArrayList<>();
  private int[] levels = new int[4];

  /** Drops the versions held, for {@link #add}. */
  void clear() {
    records.clear();
  }

  /** Adds a version of the key, from a run at {@code level}. */
  void add(ChangeRow record, int level) {
    if (records.size() == levels.length) {
      levels = Arrays.copyOf(levels, 2 * levels.length);
    }
    levels[records.size()] = level;
    records.add(record);
  }

  /** Replaces version {@code i}, keeping its level. */
  void set(int i, ChangeRow record) {
    records.set(i, record);
  }

  /** Sorts the versions by {@code order}, stably: equal versions keep the order they were added. */
  void sort(Comparator<ChangeRow> order) {
    int size = records.size();
    if (size > INSERTION_SORTED) {
      sortMany(order);
      return;
    }
    // Insertion sort: a key has few versions, mostly in order already.
    for (int i = 1; i < size; i++) {
      ChangeRow record = records.get(i);
      int level = levels[i];
      int j = i;
      while (j > 0 && order.compare(records.get(j - 1), record) > 0) {
        records.set(j, records.get(j - 1));
        levels[j] = levels[j - 1];
        j--;
      }
      records.set(j, record);
      levels[j] = level;
    }
  }

  /** A version with its level, for {@link #sortMany}. */
  private record Entry(ChangeRow record, int level) {}

  /**
   * The stable sort of a key written many times (a hot key of a flush): the JDK's merge sort, where
   * the insertion sort would take time quadratic in the versions.
   */
  private void sortMany(Comparator<ChangeRow> order) {
    Entry[] entries = new Entry[records.size()];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = new Entry(records.get(i), levels[i]);
    }
    Arrays.sort(entries, (a, b) -> order.compare(a.record(), b.record()));
    for (int i = 0; i < entries.length; i++) {
      records.set(i, entries[i].record());
      levels[i] = entries[i].level();
    }
  }

  public int size() {
    return records.size();
  }

  public ChangeRow record(int i) {
    return records.get(i);
  }

  public int level(int i) {
    return levels[i];
  }

  /** The lowest level any version came from (the buffer counts as below 0). */
  public int minLevel() {
    int min = Integer.MAX_VALUE;
    for (int i = 0; i < records.size(); i++) {
      min = Math.min(min, levels[i]);
    }
    return min;
  }

  /**
   * The version from the lowest level above 0: the key's merged value before level-0 records join
   * it. Null when no version comes from above level 0.
   */
  public ChangeRow newestUpperLevel() {
    ChangeRow found = null;
    int foundLevel = Integer.MAX_VALUE;
    for (int i = 0; i < records.size(); i++) {
      int level = levels[i];
      if (level > 0 && level < foundLevel) {
        found = records.get(i);
        foundLevel = level;
      }
    }
    return found;
  }

  /** The version from a given level, or null. */
  public ChangeRow atLevel(int level) {
    for (int i = 0; i < records.size(); i++) {
      if (levels[i] == level) {
        return records.get(i);
      }
    }
    return null;
  }
}
