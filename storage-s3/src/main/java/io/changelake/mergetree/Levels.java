package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.format.DataFileMeta;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The files of one bucket's LSM tree, by level.
 *
 * <p>Level 0 holds flushed files that may overlap one another, each its own sorted run, newest
 * (highest sequence number) first. Each level from 1 to {@link #maxLevel()} is one sorted run of
 * files with disjoint key ranges. A lower level is newer than a higher one, so the first level that
 * holds a key has its current version.
 */
public final class Levels {

  private final int numberOfLevels;
  private final BinaryRowCodec keyCodec;
  private final RowComparator keyOrder;
  private final BinaryRowOrder binaryKeyOrder;
  private final Map<String, Object[]> minKeys = new HashMap<>();
  private final Map<String, Object[]> maxKeys = new HashMap<>();
  private final TreeSet<DataFileMeta> level0;
  private final List<List<DataFileMeta>> upper = new ArrayList<>();

  /**
   * @param keyType the type of the trimmed primary key
   * @param numberOfLevels option {@code num-levels}: levels 0 to numberOfLevels - 1
   * @param files the bucket's live files, at their recorded levels
   */
  public Levels(RowType keyType, int numberOfLevels, Collection<DataFileMeta> files) {
    if (numberOfLevels < 2) {
      throw new IllegalArgumentException("num-levels must be at least 2, got " + numberOfLevels);
    }
    this.numberOfLevels = numberOfLevels;
    this.keyCodec = new BinaryRowCodec(keyType);
    this.keyOrder = new RowComparator(keyType);
    this.binaryKeyOrder = new BinaryRowOrder(keyType);
    this.level0 =
        new TreeSet<>(
            Comparator.comparingLong(DataFileMeta::maxSequenceNumber)
                .reversed()
                .thenComparing(DataFileMeta::fileName));
    for (int i = 1; i < numberOfLevels; i++) {
      upper.add(new ArrayList<>());
    }
    for (DataFileMeta f : files) {
      if (f.level() >= numberOfLevels) {
        throw new IllegalStateException(
            "file "
                + f.fileName()
                + " is at level "
                + f.level()
                + " but num-levels is "
                + numberOfLevels
                + ": the table's num-levels option was lowered after it was written");
      }
    }
    update(List.of(), files);
  }

  /** The highest level: a full compaction writes here. */
  public int maxLevel() {
    return numberOfLevels - 1;
  }

  public int numberOfLevels() {
    return numberOfLevels;
  }

  /** Level-0 files, newest first. */
  public List<DataFileMeta> level0() {
    return new ArrayList<>(level0);
  }

  /** The files of a level above 0, in key order. */
  public List<DataFileMeta> level(int level) {
    if (level == 0) {
      return level0();
    }
    return List.copyOf(upper.get(level - 1));
  }

  /** The sorted runs, newest first: each level-0 file, then each non-empty level. */
  public List<SortedRun> sortedRuns() {
    List<SortedRun> runs = new ArrayList<>();
    for (DataFileMeta f : level0) {
      runs.add(SortedRun.of(0, List.of(f)));
    }
    for (int i = 0; i < upper.size(); i++) {
      if (!upper.get(i).isEmpty()) {
        runs.add(SortedRun.of(i + 1, upper.get(i)));
      }
    }
    return runs;
  }

  /** Every file, at every level. */
  public List<DataFileMeta> allFiles() {
    List<DataFileMeta> all = new ArrayList<>(level0);
    upper.forEach(all::addAll);
    return all;
  }

  /** The bytes of every file. */
  public long totalSize() {
    long size = 0;
    for (DataFileMeta f : allFiles()) {
      size += f.fileSize();
    }
    return size;
  }

  /** The largest sequence number in any file, or -1. */
  public long maxSequenceNumber() {
    long max = -1;
    for (DataFileMeta f : allFiles()) {
      max = Math.max(max, f.maxSequenceNumber());
    }
    return max;
  }

  /** Replaces files: what a flush (no before) or a compaction does. */
  public void update(Collection<DataFileMeta> before, Collection<DataFileMeta> after) {
    for (DataFileMeta f : before) {
      if (f.level() == 0) {
        level0.remove(f);
      } else {
        upper.get(f.level() - 1).removeIf(x -> x.fileName().equals(f.fileName()));
      }
      minKeys.remove(f.fileName());
      maxKeys.remove(f.fileName());
    }
    for (DataFileMeta f : after) {
      if (f.level() == 0) {
        level0.add(f);
      } else {
        List<DataFileMeta> files = upper.get(f.level() - 1);
        files.add(f);
        files.sort((a, b) -> keyOrder.compare(minKey(a), minKey(b)));
      }
    }
  }

  /** The decoded smallest key of a file. */
  public Object[] minKey(DataFileMeta f) {
    return decodedKey(f, true);
  }

  /** The decoded largest key of a file. */
  public Object[] maxKey(DataFileMeta f) {
    return decodedKey(f, false);
  }

  private Object[] decodedKey(DataFileMeta f, boolean smallest) {
    // Not computeIfAbsent: every lookup asks for keys of each level's file, and its capturing
    // lambda would be a new object each time.
    Map<String, Object[]> decoded = smallest ? minKeys : maxKeys;
    Object[] key = decoded.get(f.fileName());
    if (key == null) {
      key = keyCodec.decode((smallest ? f.minKey() : f.maxKey()).bytes());
      decoded.put(f.fileName(), key);
    }
    return key;
  }

  /**
   * The file of a level above 0 whose key range holds a key, or null.
   *
   * @param binaryKey the key's BinaryRow from offset 0 ({@link BinaryRowCodec#writeRow}): compared
   *     in place with the files' smallest and largest keys, as they are stored, so a lookup builds
   *     no key object
   */
  public DataFileMeta fileFor(int level, byte[] binaryKey) {
    List<DataFileMeta> files = upper.get(level - 1);
    int lo = 0;
    int hi = files.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      DataFileMeta f = files.get(mid);
      if (binaryKeyOrder.compare(f.maxKey().bytes(), BinaryRowCodec.PREFIX, binaryKey, 0) < 0) {
        lo = mid + 1;
      } else if (binaryKeyOrder.compare(f.minKey().bytes(), BinaryRowCodec.PREFIX, binaryKey, 0)
          > 0) {
        hi = mid - 1;
      } else {
        return f;
      }
    }
    return null;
  }

  /** The order of keys. */
  public RowComparator keyOrder() {
    return keyOrder;
  }
}
