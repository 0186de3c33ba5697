package io.changelake.table;

import java.io.FileNotFoundException;

/**
 * A read asked for a snapshot that does not exist: expired, or not committed yet. The message names
 * the snapshot, the ids that do exist and what to do.
 */
public final class SnapshotNotFoundException extends FileNotFoundException {
  private static final long serialVersionUID = 1L;

  private final long snapshotId;

  public SnapshotNotFoundException(long snapshotId, String message) {
    super(message);
    this.snapshotId = snapshotId;
  }

  /** The id asked for. */
  public long snapshotId() {
    return snapshotId;
  }
}
