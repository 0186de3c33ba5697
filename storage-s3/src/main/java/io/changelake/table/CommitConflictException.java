package io.changelake.table;

import java.io.IOException;

/**
 * A commit that did not land, for one of two reasons that {@link #retryable()} tells apart.
 *
 * <ul>
 *   <li><b>A conflict</b> ({@code retryable()} false): another commit removed a file this one
 *       replaces, or wrote overlapping keys into the same level of the same bucket (two writers on
 *       one bucket), or wrote a partition with another bucket count. Retrying the same commit does
 *       not help; the writer must rebuild its view of the bucket from the latest snapshot. Two
 *       pipelines writing the same bucket is a deployment error that this exception reports instead
 *       of corrupting the table.
 *   <li><b>Contention</b> ({@code retryable()} true): the commit lost the race for a snapshot id
 *       more often than {@code commit.max-retries} allows, to committers of other buckets or
 *       partitions. Nothing is wrong with the commit: committing the same messages again can land
 *       them, and a larger {@code commit.max-retries} or fewer concurrent committers make that
 *       likelier.
 * </ul>
 */
public final class CommitConflictException extends IOException {
  private static final long serialVersionUID = 1L;

  private final boolean retryable;

  private CommitConflictException(String message, boolean retryable) {
    super(message);
    this.retryable = retryable;
  }

  /** A conflict with the table as it is now, which no retry of the same commit can resolve. */
  static CommitConflictException conflict(String message) {
    return new CommitConflictException(message, false);
  }

  /** Retries exhausted by contention for snapshot ids: a later retry of the commit may land. */
  static CommitConflictException retriesExhausted(String message) {
    return new CommitConflictException(message, true);
  }

  /**
   * Whether committing the same messages again can succeed: true when only {@code
   * commit.max-retries} ran out, false for a conflict.
   */
  public boolean retryable() {
    return retryable;
  }
}
