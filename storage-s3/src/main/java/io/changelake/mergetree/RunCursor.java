package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;

/**
 * The versions of one sorted run, one at a time and file after file, as {@link NewestVersionMerge}
 * moves through them: {@link #advance} to a version, then its key, sequence number and kind, and
 * its values only if they are wanted ({@link KeyValueFileReader#advance}).
 *
 * <p>A file is opened when the one before it is exhausted, and closed then: however many files the
 * run holds, one is open, and with it one row group in memory, as Paimon reads a run.
 */
public final class RunCursor implements Closeable {

  private final Iterator<DataFileMeta> remaining;
  private final DataFileOpener<KeyValueFileReader> opener;
  private KeyValueFileReader current;

  /**
   * @param runFiles the run's files, in key order, their key ranges disjoint
   * @param opener opens one file to read every table column
   */
  public RunCursor(List<DataFileMeta> runFiles, DataFileOpener<KeyValueFileReader> opener) {
    this.remaining = List.copyOf(runFiles).iterator();
    this.opener = opener;
  }

  /**
   * Moves to the next version, opening the next file when the current one is exhausted.
   *
   * @return false when the run is exhausted
   * @throws UncheckedIOException if a file cannot be opened, read or closed
   */
  boolean advance() {
    try {
      while (current == null || !current.advance()) {
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

  /**
   * The current key's one integral column (the table's key is one BIGINT, INT, SMALLINT or TINYINT
   * column): read unboxed where the file allows it.
   */
  long integralKey() {
    return current.hasIntegralKey()
        ? current.integralKey()
        : ((Number) current.key()[0]).longValue();
  }

  Object[] key() {
    return current.key();
  }

  long sequenceNumber() {
    return current.sequenceNumber();
  }

  RowKind kind() {
    return current.kind();
  }

  Object[] value() {
    return current.value();
  }

  /** Closes the file being read, if any; the files not reached were never opened. */
  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
