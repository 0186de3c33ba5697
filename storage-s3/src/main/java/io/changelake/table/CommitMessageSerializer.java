package io.changelake.table;

import io.changelake.format.DataFileMetaSerializer;
import io.changelake.mergetree.BucketIncrement;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A compact binary form of {@link CommitMessage}, for engines that move messages between processes
 * (the Beam coder). Every message starts with a format version; {@link #read} refuses versions it
 * does not know, so a change of the form must raise {@link #VERSION} and keep reading the old one
 * while pipelines that wrote it may still be running.
 *
 * <p>Not Paimon's form: Paimon's own message serializer is not part of the table format.
 */
public final class CommitMessageSerializer {

  /** The version {@link #write} writes. */
  public static final int VERSION = 1;

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
  }

  /**
   * Reads a message written by {@link #write}.
   *
   * @throws IOException if the input holds a version this code does not read
   */
  public static CommitMessage read(DataInput in) throws IOException {
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException(
          "commit message of serializer version "
              + version
              + ", this code reads "
              + VERSION
              + ": run the same changelake version on every worker of the pipeline");
    }
    return new CommitMessage(
        DataFileMetaSerializer.readRow(in),
        in.readInt(),
        in.readInt(),
        new BucketIncrement(
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in),
            DataFileMetaSerializer.readAll(in)));
  }
}
