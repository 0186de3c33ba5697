package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.mergetree.lookup.LookupFileBuilder;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes records, in key order, as data or changelog files of one level: a new file each time one
 * reaches {@code target-file-size}. Data files above level 0 of a lookup table also feed the lookup
 * cache as they are written, so the next commit's lookups need not read them back.
 *
 * <p>Each record is encoded on the caller's thread as it comes. Why not on a thread of its own:
 * until cf87d74 an encoder thread took batches of 1,024 records while the caller went on merging.
 * Each variant in a JVM of its own (2,000,000 upserts over 500,000 keys, the median of six warm
 * writes, two pairs), that thread made a full-compaction write cost 7.44 to 7.87 CPU-seconds
 * against 5.62 to 5.81 here, a lookup write 8.06 to 9.10 against 6.34 to 6.40 and a none write 3.70
 * against 3.18, for a wall clock at most 8% shorter: reading each record's objects on another core,
 * and waking it, cost more than the overlap saved. A worker hosting several buckets keeps its cores
 * busy with them; there every CPU-second counts.
 *
 * <p>Use: {@link #write} the records, then {@link #finish} for the files; {@link #close} after
 * {@link #finish} does nothing, and without it abandons the output: the open file and the files
 * already rolled are deleted (one that cannot be deleted stays an orphan for the cleaner). One
 * thread.
 */
final class RollingFileWriter implements Closeable {

  /** Rows between two checks of an output file's size against {@code target-file-size}. */
  private static final int SIZE_CHECK_ROWS = 1024;

  private final BucketFiles files;
  private final int level;
  private final boolean changelog;
  private final long targetSize;
  private final LookupLevels lookup;
  private final List<DataFileMeta> written = new ArrayList<>();
  private final List<LookupFileBuilder> lookupCopies = new ArrayList<>();
  private KeyValueFileWriter current;
  private LookupFileBuilder currentLookup;
  private int rowsSinceSizeCheck;
  private boolean failed;
  private boolean finished;

  /**
   * @param files the bucket's files
   * @param level the level the files are written at
   * @param changelog whether these are changelog files (never fed to the lookup)
   * @param targetSize option {@code target-file-size}
   * @param lookup the bucket's lookup, fed with data files above level 0; null for none
   */
  RollingFileWriter(
      BucketFiles files, int level, boolean changelog, long targetSize, LookupLevels lookup) {
    this.files = files;
    this.level = level;
    this.changelog = changelog;
    this.targetSize = targetSize;
    this.lookup = !changelog && level > 0 ? lookup : null;
  }

  /**
   * Takes the next record, in key order: a key-value, or a view of a row of every table column read
   * from a column batch, which is not kept ({@link KeyValueFileWriter#write}).
   *
   * @throws IOException if a file cannot be written or a value does not fit its column; the output
   *     is then abandoned, and every later call fails
   */
  void write(ChangeRow kv) throws IOException {
    write(kv, kv.kind());
  }

  /**
   * {@link #write(ChangeRow)} of the record under {@code kind}, whatever its own: a changelog's -U,
   * -D or +I of a version. A data file stores each record under its own kind.
   *
   * @throws IllegalArgumentException if this writes data files and {@code kind} is not the record's
   */
  void write(ChangeRow kv, RowKind kind) throws IOException {
    if (!changelog && kind != kv.kind()) {
      throw new IllegalArgumentException(
          "a data file stores a record under its own kind " + kv.kind() + ", not " + kind);
    }
    checkNotFailed();
    try {
      if (current == null) {
        current = changelog ? files.newChangelogFile() : files.newDataFile();
        currentLookup = lookup != null ? lookup.newFile() : null;
      }
      current.write(kv, kind);
      if (currentLookup != null) {
        currentLookup.add(kv);
      }
      // Parquet sums every column's buffers to estimate a size: ask every so many rows only.
      if (++rowsSinceSizeCheck >= SIZE_CHECK_ROWS) {
        rowsSinceSizeCheck = 0;
        if (current.estimatedSize() >= targetSize) {
          roll();
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      throw failed(e);
    }
  }

  /** Closes the open file and registers the lookup copies: the files written. */
  List<DataFileMeta> finish() throws IOException {
    checkNotFailed();
    try {
      if (current != null) {
        roll();
      }
      for (int i = 0; i < lookupCopies.size(); i++) {
        lookupCopies.get(i).finish(written.get(i));
      }
    } catch (IOException | RuntimeException | Error e) {
      throw failed(e);
    }
    lookupCopies.clear();
    finished = true;
    return List.copyOf(written);
  }

  /**
   * Abandons an unfinished output: the open file is dropped, and the files rolled so far are
   * deleted (no one will record them: a compaction that failed, or was cancelled, half-way), their
   * lookup copies too.
   */
  @Override
  public void close() throws IOException {
    if (finished) {
      return;
    }
    finished = true;
    abandonCurrent();
    closeLookupCopies();
    for (DataFileMeta file : written) {
      files.delete(file);
    }
  }

  private void checkNotFailed() throws IOException {
    if (failed) {
      throw new IOException("writing a file in " + files.folder() + " failed earlier");
    }
  }

  /**
   * Abandons the output after {@code e}, and gives what to throw: an I/O failure as it is, any
   * other exception as an I/O failure of this folder's output (a store's unchecked exception, or a
   * value its column cannot hold), an error as it is.
   */
  private IOException failed(Throwable e) {
    failed = true;
    abandonCurrent();
    if (e instanceof IOException io) {
      return io;
    }
    if (e instanceof Error error) {
      throw error;
    }
    return new IOException("writing a file in " + files.folder() + " failed: " + e, e);
  }

  private void roll() throws IOException {
    FileSource source = changelog || level == 0 ? FileSource.APPEND : FileSource.COMPACT;
    DataFileMeta file = files.finish(current, level, source);
    current = null;
    if (currentLookup != null) {
      lookupCopies.add(currentLookup);
      currentLookup = null;
    }
    written.add(file);
  }

  private void abandonCurrent() {
    try {
      if (currentLookup != null) {
        currentLookup.close();
      }
      if (current != null) {
        current.close();
      }
    } catch (IOException | RuntimeException suppressed) {
      // The output is abandoned: what could not be closed stays an orphan for the cleaner.
    }
    currentLookup = null;
    current = null;
  }

  private void closeLookupCopies() throws IOException {
    for (LookupFileBuilder copy : lookupCopies) {
      copy.close();
    }
    lookupCopies.clear();
  }
}
