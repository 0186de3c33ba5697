package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.util.List;

/**
 * Files that together hold each key at most once, in key order: one level-0 file, or all the
 * files of a level above 0.
 *
 * @param level the LSM level of the run
 * @param files the files, ordered by key range
 */
public record SortedRun(int level, List<DataFileMeta> files) {

  public SortedRun {
    files = List.copyOf(files);
  }

  /** The total bytes of its files. */
  public long totalSize() {
    long size = 0;
    for (DataFileMeta f : files) {
      size += f.fileSize();
    }
    return size;
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }
}
