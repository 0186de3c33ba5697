package io.changelake.table;

import java.util.Objects;

/**
 * Where a changelog read begins; {@link ChangelogScan#start} resolves it against the table.
 *
 * <table>
 *   <caption>Starting points (Paimon's {@code scan.mode})</caption>
 *   <tr><th>factory</th><th>first rows</th><th>Paimon</th></tr>
 *   <tr><td>{@link #latestFull()}</td><td>the latest snapshot's rows as +I, then the changes of
 *       every later snapshot</td><td>latest-full</td></tr>
 *   <tr><td>{@link #latest()}</td><td>the changes of snapshots committed after the latest</td>
 *       <td>latest</td></tr>
 *   <tr><td>{@link #fromSnapshot(long)}</td><td>the changes of that snapshot and every later
 *       one</td><td>from-snapshot</td></tr>
 *   <tr><td>{@link #fromTimestamp(long)}</td><td>the changes of the first snapshot committed at
 *       or after the time, and every later one</td><td>from-timestamp</td></tr>
 *   <tr><td>{@link #fromTag(String)}</td><td>the tagged snapshot's rows as +I, then the changes
 *       of every later snapshot</td><td>scan.tag-name</td></tr>
 *   <tr><td>{@link #resume(String, StartingPoint)}</td><td>where the consumer left off, or the
 *       other starting point if the consumer is unknown</td><td>consumer-id</td></tr>
 * </table>
 */
public sealed interface StartingPoint {

  /** The latest snapshot's rows as +I, then changes. */
  static StartingPoint latestFull() {
    return new LatestFull();
  }

  /** Only changes committed after the latest snapshot. */
  static StartingPoint latest() {
    return new Latest();
  }

  /** The changes of snapshot {@code snapshotId} and later ones. */
  static StartingPoint fromSnapshot(long snapshotId) {
    return new FromSnapshot(snapshotId);
  }

  /** The changes of snapshots committed at or after {@code epochMillis}. */
  static StartingPoint fromTimestamp(long epochMillis) {
    return new FromTimestamp(epochMillis);
  }

  /**
   * The rows of the snapshot tagged {@code tagName} ({@link Tags}) as +I, then the changes of the
   * snapshots after it: the tagged snapshot must be the earliest or later, or its successors must
   * still exist.
   */
  static StartingPoint fromTag(String tagName) {
    return new FromTag(tagName);
  }

  /**
   * The next snapshot {@code consumerId} recorded (see {@link Consumers}), or {@code otherwise}
   * when the consumer has recorded nothing yet.
   */
  static StartingPoint resume(String consumerId, StartingPoint otherwise) {
    return new Resume(consumerId, otherwise);
  }

  /** See {@link StartingPoint#latestFull()}. */
  record LatestFull() implements StartingPoint {}

  /** See {@link StartingPoint#latest()}. */
  record Latest() implements StartingPoint {}

  /**
   * See {@link StartingPoint#fromSnapshot(long)}.
   *
   * @param snapshotId the first snapshot whose changes are read
   */
  record FromSnapshot(long snapshotId) implements StartingPoint {
    public FromSnapshot {
      if (snapshotId < 1) {
        throw new IllegalArgumentException(
            "a read cannot start from snapshot " + snapshotId + ": snapshot ids start at 1");
      }
    }
  }

  /**
   * See {@link StartingPoint#fromTimestamp(long)}.
   *
   * @param epochMillis the earliest commit time read, epoch milliseconds
   */
  record FromTimestamp(long epochMillis) implements StartingPoint {}

  /**
   * See {@link StartingPoint#fromTag(String)}.
   *
   * @param tagName the tag whose snapshot's rows are read first
   */
  record FromTag(String tagName) implements StartingPoint {
    public FromTag {
      Tags.checkName(tagName);
    }
  }

  /**
   * See {@link StartingPoint#resume(String, StartingPoint)}.
   *
   * @param consumerId the consumer whose progress is resumed
   * @param otherwise where to start when the consumer has no progress recorded
   */
  record Resume(String consumerId, StartingPoint otherwise) implements StartingPoint {
    public Resume {
      Consumers.checkId(consumerId);
      Objects.requireNonNull(otherwise, "otherwise");
    }
  }
}
