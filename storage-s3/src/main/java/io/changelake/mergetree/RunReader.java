package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The key-values of one sorted run, file after file ({@link FileByFile}): at most one file open.
 *
 * @param <R> the file reader
 */
public final class RunReader<R extends Iterator<KeyValue> & Closeable> extends FileByFile<R>
    implements Iterator<KeyValue> {

  /**
   * @param runFiles the run's files, in key order
   * @param opener opens one file for reading
   */
  public RunReader(List<DataFileMeta> runFiles, DataFileOpener<R> opener) {
    super(runFiles, opener);
  }

  /**
   * @throws java.io.UncheckedIOException if a file cannot be opened or closed
   */
  @Override
  public boolean hasNext() {
    while (current() == null || !current().hasNext()) {
      if (!openNext()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current().next();
  }
}
