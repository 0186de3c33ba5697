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
    writeRow(task.partition(), out);
    out.writeInt(task.bucket());
    out.writeByte(task.content() == ChangelogTask.Content.STATE ? 0 : 1);
    out.writeInt(task.files().size());
    for (DataFileMeta file : task.files()) {
      writeFile(file, out);
    }
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
          "a changelog task of format version " + version + " cannot be read by this changelake"
              + " (it reads version " + VERSION + "): run the same changelake version on every"
              + " worker of the pipeline");
    }
    long snapshotId = in.readLong();
    SerializedRow partition = readRow(in);
    int bucket = in.readInt();
    ChangelogTask.Content content =
        in.readByte() == 0 ? ChangelogTask.Content.STATE : ChangelogTask.Content.CHANGES;
    int count = in.readInt();
    List<DataFileMeta> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      files.add(readFile(in));
    }
    return new ChangelogTask(snapshotId, partition, bucket, files, content);
  }

  private static void writeFile(DataFileMeta f, DataOutput out) throws IOException {
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

  private static DataFileMeta readFile(DataInput in) throws IOException {
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
    int source = in.readByte();
    List<String> valueStatsCols = readStrings(in);
    return new DataFileMeta(
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
        extraFiles,
        creationTime,
        deleteRowCount,
        source < 0 ? null : FileSource.fromValue(source),
        valueStatsCols);
  }

  private static void writeStats(SimpleStats stats, DataOutput out) throws IOException {
    out.writeBoolean(stats != null);
    if (stats != null) {
      writeRow(stats.minValues(), out);
      writeRow(stats.maxValues(), out);
      out.writeBoolean(stats.nullCounts() != null);
      if (stats.nullCounts() != null) {
        out.writeInt(stats.nullCounts().size());
        for (Long count : stats.nullCounts()) {
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
    List<Long> nullCounts = null;
    if (in.readBoolean()) {
      int size = in.readInt();
      // Entries may be null (unknown count), so no List.of here.
      nullCounts = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
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
    int length = in.readInt();
    if (length < 0) {
      return null;
    }
    byte[] bytes = new byte[length];
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
    int size = in.readInt();
    if (size < 0) {
      return null;
    }
    List<String> strings = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
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
