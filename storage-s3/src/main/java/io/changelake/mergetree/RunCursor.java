package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import java.util.List;

/**
 * The versions of one sorted run, one at a time and file after file ({@link FileByFile}), as {@link
 * NewestVersionMerge} moves through them: {@link #advance} to a version, then its key, sequence
 * number and kind, and its values only if they are wanted ({@link KeyValueFileReader#advance}).
 *
 * <p>However many files the run holds, one is open, and with it one row group in memory, as Paimon
 * reads a run.
 */
public final class RunCursor extends FileByFile<KeyValueFileReader> implements CurrentKeys.Source {

  /** The file {@link #rowBatch} was made for, and the batch {@link #row} reads into. */
  private KeyValueFileReader rowOwner;

  private KeyValueBatch rowBatch;

  /**
   * @param runFiles the run's files, in key order, their key ranges disjoint
   * @param opener opens one file to read every table column
   */
  public RunCursor(List<DataFileMeta> runFiles, DataFileOpener<KeyValueFileReader> opener) {
    super(runFiles, opener);
  }

  /**
   * Moves to the next version, opening the next file when the current one is exhausted.
   *
   * @return false when the run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened, read or closed
   */
  boolean advance() {
    while (current() == null || !current().advance()) {
      if (!openNext()) {
        return false;
      }
    }
    return true;
  }

  /** {@link KeyValueFileReader#integralKeyColumn} of the current version. */
  @Override
  public long integralKeyColumn(int column) {
    return current().integralKeyColumn(column);
  }

  /** {@link KeyValueFileReader#keyColumn} of the current version. */
  @Override
  public Object keyColumn(int column) {
    return current().keyColumn(column);
  }

  Object[] key() {
    return current().key();
  }

  long sequenceNumber() {
    return current().sequenceNumber();
  }

  RowKind kind() {
    return current().kind();
  }

  Object[] value() {
    return current().value();
  }

  /**
   * The current version read as a view ({@link KeyValueFileReader#readCurrent}), in place of its
   * {@link #value}: into a one-row batch of the current file, which keeps it when the run moves on,
   * until this run's next view.
   */
  ChangeRow row() {
    KeyValueFileReader file = current();
    if (file != rowOwner) {
      rowBatch = file.newBatch(1);
      rowOwner = file;
    }
    return file.readCurrent(rowBatch);
  }
}
