package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.SerializedRow;
import java.util.List;

/**
 * The unit of work of a changelog read: what one snapshot contributes for one (partition, bucket).
 * Immutable and made of plain values, so a pipeline can ship it to the worker that reads it with
 * {@link ChangelogScan#read}.
 *
 * @param snapshotId the snapshot the rows belong to
 * @param partition the partition values, serialized
 * @param bucket the bucket
 * @param files the files to read, all in this bucket
 * @param content whether the files are read as the bucket's state or as its changes
 */
public record ChangelogTask(
    long snapshotId,
    SerializedRow partition,
    int bucket,
    List<DataFileMeta> files,
    Content content) {

  /** How a task's files turn into changelog rows. */
  public enum Content {
    /**
     * Live data files of the snapshot a read starts at: merged per key, the newest version kept,
     * retracted keys left out, and every row emitted as +I.
     */
    STATE,
    /**
     * Files holding changes: every record emitted as stored, with its own kind and sequence number.
     */
    CHANGES
  }

  public ChangelogTask {
    files = List.copyOf(files);
  }

  static ChangelogTask of(BucketSplit split, Content content) {
    return new ChangelogTask(
        split.snapshotId(), split.partition(), split.bucket(), split.files(), content);
  }
}
