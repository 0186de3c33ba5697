package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.util.List;

/**
 * Files that together hold each key at most once, in key order: one level-0 file, or all the files
 * of a level above 0.
 *
 * @param level the LSM level of the run
 * @param files the files, ordered by key range
 * @param totalSize the bytes of the run
 */
public record SortedRun(int level, List<DataFileMeta> files, long totalSize) {

  public SortedRun {
    files = List.copyOf(files);
  }

  /** A run of files at a level. */
  public static SortedRun of(int level, List<DataFileMeta> files) {
    long size = 0;
    for (DataFileMeta f : files) {
      size += f.fileSize();
    }
    return new SortedRun(level, files, size);
  }
}
