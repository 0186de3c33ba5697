package io.changelake.format;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A compact binary form of {@link DataFileMeta} and of lists of it, shared by the versioned
 * serializers of what crosses process boundaries (commit messages, changelog read tasks). Not a
 * Paimon format: manifests use {@link ManifestFile}. Those serializers carry the version; a change
 * here is a change of their format.
 */
public final class DataFileMetaSerializer {

  private DataFileMetaSerializer() {}

  /** Writes a list of files: its size, then each file. */
  public static void writeAll(List<DataFileMeta> files, DataOutput out) throws IOException {
    out.writeInt(files.size());
    for (DataFileMeta f : files) {
      write(f, out);
    }
  }

  /** Reads what {@link #writeAll} wrote. */
  public static List<DataFileMeta> readAll(DataInput in) throws IOException {
    int n = in.readInt();
    List<DataFileMeta> files = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      files.add(read(in));
    }
    return files;
  }

  /** Writes one file's metadata. */
  public static void write(DataFileMeta f, DataOutput out) throws IOException {
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

  /** Reads what {@link #write(DataFileMeta, DataOutput)} wrote. */
  public static DataFileMeta read(DataInput in) throws IOException {
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
        extraFiles == null ? List.of() : extraFiles,
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

  /** Writes a serialized row, or null. */
  public static void writeRow(SerializedRow row, DataOutput out) throws IOException {
    out.writeInt(row == null ? -1 : row.bytes().length);
    if (row != null) {
      out.write(row.bytes());
    }
  }

  /** Reads what {@link #writeRow} wrote. */
  public static SerializedRow readRow(DataInput in) throws IOException {
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
