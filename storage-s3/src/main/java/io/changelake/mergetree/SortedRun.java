package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.util.List;

/**
 * Files that together hold each key at most once, in key order: one level-0 file, or all the
 * files of a level above 0; or the writer's unflushed records ({@link #buffer}), which compaction
 * may merge directly instead of writing them to level 0 first.
 *
 * @param level the LSM level of the run; {@link #BUFFER_LEVEL} for unflushed records
 * @param files the files, ordered by key range (empty for the buffer)
 * @param totalSize the bytes of the run (estimated for the buffer)
 */
public record SortedRun(int level, List<DataFileMeta> files, long totalSize) {

  /** The level of the unflushed buffer: newer than level 0. */
  public static final int BUFFER_LEVEL = -1;

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

  /** The writer's unflushed records, of about {@code estimatedSize} bytes once written. */
  public static SortedRun buffer(long estimatedSize) {
    return new SortedRun(BUFFER_LEVEL, List.of(), estimatedSize);
  }

  public boolean isBuffer() {
    return level == BUFFER_LEVEL;
  }
}
