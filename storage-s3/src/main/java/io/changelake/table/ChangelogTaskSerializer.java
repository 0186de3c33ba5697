package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.DataFileMetaSerializer;
import io.changelake.format.SerializedRow;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;

/**
 * A compact binary form of a {@link ChangelogTask}, so that a pipeline can ship tasks between
 * workers (a Beam coder wraps it). It sits beside the record it writes so that a new field of
 * {@link DataFileMeta} cannot be forgotten here unnoticed: the round-trip test compares every
 * field.
 *
 * <p>The first byte is a format version. A reader refuses a version it does not know rather than
 * guess, since tasks in flight during a pipeline update may have been written by an older or newer
 * worker; a new version must keep reading the old ones.
 */
public final class ChangelogTaskSerializer {

  /** The format this class writes. */
  static final int VERSION = 1;

  private ChangelogTaskSerializer() {}

  public static void write(ChangelogTask task, DataOutput out) throws IOException {
    out.writeByte(VERSION);
    out.writeLong(task.snapshotId());
    DataFileMetaSerializer.writeRow(task.partition(), out);
    out.writeInt(task.bucket());
    out.writeByte(task.content() == ChangelogTask.Content.STATE ? 0 : 1);
    DataFileMetaSerializer.writeAll(task.files(), out);
  }

  /**
   * Reads what {@link #write} wrote.
   *
   * @throws IOException if the bytes are of an unknown version or cut short
   */
  public static ChangelogTask read(DataInput in) throws IOException {
    int version = in.readByte();
    if (version != VERSION) {
      throw new IOException(
          "a changelog task of format version "
              + version
              + " cannot be read by this changelake"
              + " (it reads version "
              + VERSION
              + "): run the same changelake version on every"
              + " worker of the pipeline");
    }
    long snapshotId = in.readLong();
    SerializedRow partition = DataFileMetaSerializer.readRow(in);
    int bucket = in.readInt();
    ChangelogTask.Content content =
        in.readByte() == 0 ? ChangelogTask.Content.STATE : ChangelogTask.Content.CHANGES;
    List<DataFileMeta> files = DataFileMetaSerializer.readAll(in);
    return new ChangelogTask(snapshotId, partition, bucket, files, content);
  }
}
