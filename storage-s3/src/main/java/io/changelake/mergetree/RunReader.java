package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The files of one sorted run read one after another, in key order: a run's files hold disjoint key
 * ranges in key order, so reading them in turn is reading the run. A file is opened only when the
 * one before it is exhausted, and closed then, so a run holds at most one file open.
 *
 * @param <R> the file reader
 */
public final class RunReader<R extends Iterator<KeyValue> & Closeable>
    implements Iterator<KeyValue>, Closeable {

  private final Iterator<DataFileMeta> remaining;
  private final DataFileOpener<R> opener;
  private R current;

  /**
   * @param runFiles the run's files, in key order
   * @param opener opens one file for reading
   */
  public RunReader(List<DataFileMeta> runFiles, DataFileOpener<R> opener) {
    this.remaining = List.copyOf(runFiles).iterator();
    this.opener = opener;
  }

  /**
   * @throws UncheckedIOException if a file cannot be opened or closed
   */
  @Override
  public boolean hasNext() {
    try {
      while (current == null || !current.hasNext()) {
        if (current != null) {
          current.close();
          current = null;
        }
        if (!remaining.hasNext()) {
          return false;
        }
        current = opener.open(remaining.next());
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }

  /** Closes the file being read, if any; the files not reached yet were never opened. */
  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
