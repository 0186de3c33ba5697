package io.changelake.table;

import io.changelake.format.DataFileMetaSerializer;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketIncrement;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A compact binary form of {@link CommitMessage}, for engines that move messages between processes
 * (the Beam coder). Every message starts with a format version; {@link #read} refuses versions it
 * does not know, so a change of the form must raise {@link #VERSION} and keep reading the old one
 * while pipelines that wrote it may still be running.
 *
 * <p>Not Paimon's form: Paimon's own message serializer is not part of the table format.
 */
public final class CommitMessageSerializer {

  /** The version {@link #write} writes: 2 adds the index files; version 1 is still read. */
  public static final int VERSION = 2;

  private CommitMessageSerializer() {}

  public static void write(CommitMessage m, DataOutput out) throws IOException {
    out.writeInt(VERSION);
    DataFileMetaSerializer.writeRow(m.partition(), out);
    out.writeInt(m.bucket());
    out.writeInt(m.totalBuckets());
    DataFileMetaSerializer.writeAll(m.newFiles(), out);
    DataFileMetaSerializer.writeAll(m.changelogFiles(), out);
    DataFileMetaSerializer.writeAll(m.compactBefore(), out);
    DataFileMetaSerializer.writeAll(m.compactAfter(), out);
    DataFileMetaSerializer.writeAll(m.compactChangelog(), out);
    out.writeInt(m.newIndexFiles().size());
    for (IndexFileMeta f : m.newIndexFiles()) {
      out.writeUTF(f.indexType());
      out.writeUTF(f.fileName());
      out.writeLong(f.fileSize());
      out.writeLong(f.rowCount());
    }
  }

  /**
   * Reads a message written by {@link #write}.
   *
   * @throws IOException if the input holds a version this code does not read
   */
  public static CommitMessage read(DataInput in) throws IOException {
    int version = in.readInt();
    if (version != VERSION && version != 1) {
      throw new IOException(
          "commit message of serializer version "
              + version
              + ", this code reads 1 to "
              + VERSION
              + ": run the same changelake version on every worker of the pipeline");
    }
    SerializedRow partition = DataFileMetaSerializer.readRow(in);
    int bucket = in.readInt();
    int totalBuckets = in.readInt();
    BucketIncrement increment =
        new BucketIncrement(
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in));
    List<IndexFileMeta> indexFiles = new ArrayList<>();
    if (version >= 2) {
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        indexFiles.add(new IndexFileMeta(in.readUTF(), in.readUTF(), in.readLong(), in.readLong()));
      }
    }
    return new CommitMessage(partition, bucket, totalBuckets, increment, indexFiles);
  }
}
