package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.SerializedRow;
import io.changelake.format.SimpleStats;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A compact binary form of {@link CommitMessage}, for engines that move messages between
 * processes (the Beam coder). Every message starts with a format version; {@link #read} refuses
 * versions it does not know, so a change of the form must raise {@link #VERSION} and keep reading
 * the old one while pipelines that wrote it may still be running.
 *
 * <p>Not Paimon's form: Paimon's own message serializer is not part of the table format.
 */
public final class CommitMessageSerializer {

  /** The version {@link #write} writes. */
  public static final int VERSION = 1;

  private CommitMessageSerializer() {}

  public static void write(CommitMessage m, DataOutput out) throws IOException {
    out.writeInt(VERSION);
    writeRow(m.partition(), out);
    out.writeInt(m.bucket());
    out.writeInt(m.totalBuckets());
    writeFiles(m.newFiles(), out);
    writeFiles(m.changelogFiles(), out);
    writeFiles(m.compactBefore(), out);
    writeFiles(m.compactAfter(), out);
    writeFiles(m.compactChangelog(), out);
  }

  /**
   * @throws IOException if the input holds a version this code does not read
   */
  public static CommitMessage read(DataInput in) throws IOException {
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException(
          "commit message of serializer version " + version + ", this code reads " + VERSION
              + ": run the same changelake version on every worker of the pipeline");
    }
    return new CommitMessage(
        readRow(in),
        in.readInt(),
        in.readInt(),
        readFiles(in),
        readFiles(in),
        readFiles(in),
        readFiles(in),
        readFiles(in));
  }

  private static void writeFiles(List<DataFileMeta> files, DataOutput out) throws IOException {
    out.writeInt(files.size());
    for (DataFileMeta f : files) {
      out.writeUTF(f.fileName());
      out.writeLong(f.fileSize());
      out.writeLong(f.rowCount());
      writeRow(f.minKey(), out);
      writeRow(f.maxKey(), out);
      writeStats(f.keyStats(), out);
      writeStats(f.valueStats(), out);
      out.writeLong(f.minSequenceNumber());
      out.writeLong(f.maxSequenceNumber());
      out.writeLong(f.schemaId());
      out.writeInt(f.level());
      writeStrings(f.extraFiles(), out);
      writeNullableLong(f.creationTimeMillis(), out);
      writeNullableLong(f.deleteRowCount(), out);
      out.writeByte(f.fileSource() == null ? -1 : f.fileSource().value());
      writeStrings(f.valueStatsCols(), out);
    }
  }

  private static List<DataFileMeta> readFiles(DataInput in) throws IOException {
    int n = in.readInt();
    List<DataFileMeta> files = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String fileName = in.readUTF();
      long fileSize = in.readLong();
      long rowCount = in.readLong();
      SerializedRow minKey = readRow(in);
      SerializedRow maxKey = readRow(in);
      SimpleStats keyStats = readStats(in);
      SimpleStats valueStats = readStats(in);
      long minSequence = in.readLong();
      long maxSequence = in.readLong();
      long schemaId = in.readLong();
      int level = in.readInt();
      List<String> extraFiles = readStrings(in);
      Long creationTime = readNullableLong(in);
      Long deleteRowCount = readNullableLong(in);
      byte source = in.readByte();
      List<String> valueStatsCols = readStrings(in);
      files.add(
          new DataFileMeta(
              fileName,
              fileSize,
              rowCount,
              minKey,
              maxKey,
              keyStats,
              valueStats,
              minSequence,
              maxSequence,
              schemaId,
              level,
              extraFiles == null ? List.of() : extraFiles,
              creationTime,
              deleteRowCount,
              source < 0 ? null : FileSource.fromValue(source),
              valueStatsCols));
    }
    return files;
  }

  private static void writeStats(SimpleStats stats, DataOutput out) throws IOException {
    out.writeBoolean(stats != null);
    if (stats != null) {
      writeRow(stats.minValues(), out);
      writeRow(stats.maxValues(), out);
      List<Long> nullCounts = stats.nullCounts();
      out.writeInt(nullCounts == null ? -1 : nullCounts.size());
      if (nullCounts != null) {
        for (Long count : nullCounts) {
          writeNullableLong(count, out);
        }
      }
    }
  }

  private static SimpleStats readStats(DataInput in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    SerializedRow min = readRow(in);
    SerializedRow max = readRow(in);
    int n = in.readInt();
    List<Long> nullCounts = null;
    if (n >= 0) {
      nullCounts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        nullCounts.add(readNullableLong(in));
      }
    }
    return new SimpleStats(min, max, nullCounts);
  }

  private static void writeRow(SerializedRow row, DataOutput out) throws IOException {
    out.writeInt(row == null ? -1 : row.bytes().length);
    if (row != null) {
      out.write(row.bytes());
    }
  }

  private static SerializedRow readRow(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    byte[] bytes = new byte[n];
    in.readFully(bytes);
    return new SerializedRow(bytes);
  }

  private static void writeStrings(List<String> strings, DataOutput out) throws IOException {
    out.writeInt(strings == null ? -1 : strings.size());
    if (strings != null) {
      for (String s : strings) {
        out.writeUTF(s);
      }
    }
  }

  private static List<String> readStrings(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    List<String> strings = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      strings.add(in.readUTF());
    }
    return strings;
  }

  private static void writeNullableLong(Long value, DataOutput out) throws IOException {
    out.writeBoolean(value != null);
    if (value != null) {
      out.writeLong(value);
    }
  }

  private static Long readNullableLong(DataInput in) throws IOException {
    return in.readBoolean() ? in.readLong() : null;
  }
}
