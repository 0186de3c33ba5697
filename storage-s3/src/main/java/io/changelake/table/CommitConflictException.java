package io.changelake.table;

import java.io.IOException;

/**
 * A commit that cannot land as it is: another commit removed a file this one replaces, or wrote
 * overlapping keys into the same level of the same bucket (two writers on one bucket), or the
 * commit lost the race for a snapshot id more often than {@code commit.max-retries} allows.
 *
 * <p>Retrying the same commit does not help; the writer must rebuild its view of the bucket from
 * the latest snapshot. Two pipelines writing the same bucket is a deployment error that this
 * exception reports instead of corrupting the table.
 */
public final class CommitConflictException extends IOException {
  private static final long serialVersionUID = 1L;

  public CommitConflictException(String message) {
    super(message);
  }
}
