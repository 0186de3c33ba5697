package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.SerializedRow;
import java.util.List;

/**
 * The files of one bucket of one snapshot: the unit of a parallel batch read.
 *
 * @param snapshotId the snapshot the files are live in
 * @param partition the partition values, serialized
 * @param bucket the bucket
 * @param files the bucket's live data files
 */
public record BucketSplit(
    long snapshotId, SerializedRow partition, int bucket, List<DataFileMeta> files) {

  public BucketSplit {
    files = List.copyOf(files);
  }
}
