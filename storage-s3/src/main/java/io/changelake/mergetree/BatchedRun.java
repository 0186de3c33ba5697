package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.types.ChangeRow;
import java.util.List;

/**
 * One run of files read in column batches ({@link KeyValueFileReader#nextBatch}), file after file
 * ({@link FileByFile}), one record at a time: what {@link KeyOrderedChanges} interleaves. A record
 * is a view of its batch row; moving on reads nothing per record but the next batch when one is
 * done.
 */
public final class BatchedRun extends FileByFile<KeyValueFileReader> implements CurrentKeys.Source {

  private KeyValueBatch batch;
  private int index;

  /**
   * @param runFiles the run's files, in key order, their key ranges following one another
   * @param opener opens one file, of the columns the records are to hold
   */
  public BatchedRun(List<DataFileMeta> runFiles, DataFileOpener<KeyValueFileReader> opener) {
    super(runFiles, opener);
  }

  /**
   * Moves to the next record, reading the next batch or opening the next file as needed.
   *
   * @return false when the run is exhausted
   * @throws java.io.UncheckedIOException if a file cannot be opened, read or closed
   */
  boolean advance() {
    if (batch != null && ++index < batch.size()) {
      return true;
    }
    while (current() == null || current().nextBatch(batch) == 0) {
      if (!openNext()) {
        batch = null;
        return false;
      }
      // A batch belongs to the reader that made it.
      batch = current().newBatch();
    }
    index = 0;
    return true;
  }

  /** The current record: valid until the run moves on. */
  ChangeRow row() {
    return batch.row(index);
  }

  /** {@link KeyValueBatch#integralKeyColumn} of the current record. */
  @Override
  public long integralKeyColumn(int column) {
    return batch.integralKeyColumn(index, column);
  }

  /** {@link KeyValueBatch#keyColumn} of the current record. */
  @Override
  public Object keyColumn(int column) {
    return batch.keyColumn(index, column);
  }
}
