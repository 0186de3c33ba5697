package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;

/**
 * The files of one sorted run, opened one after another: a run's files hold disjoint key ranges in
 * key order, so reading them in turn is reading the run. A file is opened when the one before it is
 * exhausted, and closed then, so a run holds at most one file open. What a row is, and when a file
 * is exhausted, is the reader's: {@link RunReader} (key-values), {@link RunCursor} (versions, their
 * values read on demand), or a raw batch read, which takes each file's values in bulk.
 *
 * @param <R> the file reader
 */
public class FileByFile<R extends Iterator<KeyValue> & Closeable> implements Closeable {

  private final Iterator<DataFileMeta> remaining;
  private final DataFileOpener<R> opener;
  private R current;

  /**
   * @param runFiles the run's files, in key order
   * @param opener opens one file for reading
   */
  public FileByFile(List<DataFileMeta> runFiles, DataFileOpener<R> opener) {
    this.remaining = List.copyOf(runFiles).iterator();
    this.opener = opener;
  }

  /** The file being read; null before the first is opened and once the last is closed. */
  public final R current() {
    return current;
  }

  /**
   * Closes the file being read, if any, and opens the next one.
   *
   * @return false when the run has no file left
   * @throws UncheckedIOException if a file cannot be closed or opened
   */
  public final boolean openNext() {
    try {
      close();
      if (!remaining.hasNext()) {
        return false;
      }
      current = opener.open(remaining.next());
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the file being read, if any; the files not reached yet were never opened. */
  @Override
  public void close() throws IOException {
    if (current != null) {
      R done = current;
      current = null;
      done.close();
    }
  }
}
