package io.changelake.format;

import java.util.List;

/**
 * What a manifest records of one data or changelog file, field for field as Paimon 1.x stores it in
 * {@code _FILE}.
 *
 * @param fileName the file name, relative to its bucket folder
 * @param fileSize the size in bytes
 * @param rowCount the number of records
 * @param minKey the smallest primary key
 * @param maxKey the largest primary key
 * @param keyStats statistics of the key columns
 * @param valueStats statistics of the value columns ({@code valueStatsCols} names them; null: all)
 * @param minSequenceNumber the smallest sequence number in the file
 * @param maxSequenceNumber the largest sequence number in the file
 * @param schemaId the id of the schema the file was written with
 * @param level the LSM level, 0 for a flushed file
 * @param extraFiles companion files (unused by changelake; kept when reading Paimon's tables)
 * @param creationTimeMillis when the file was written, epoch milliseconds, or null
 * @param deleteRowCount the number of retraction records (-U, -D), or null if unknown
 * @param fileSource whether a flush or a compaction wrote the file, or null if unknown
 * @param valueStatsCols the columns {@code valueStats} covers, or null for all
 */
public record DataFileMeta(
    String fileName,
    long fileSize,
    long rowCount,
    SerializedRow minKey,
    SerializedRow maxKey,
    SimpleStats keyStats,
    SimpleStats valueStats,
    long minSequenceNumber,
    long maxSequenceNumber,
    long schemaId,
    int level,
    List<String> extraFiles,
    Long creationTimeMillis,
    Long deleteRowCount,
    FileSource fileSource,
    List<String> valueStatsCols) {

  public DataFileMeta {
    extraFiles = List.copyOf(extraFiles);
    valueStatsCols = valueStatsCols == null ? null : List.copyOf(valueStatsCols);
  }

  /** The same file at another level: how a compaction moves a file up without rewriting it. */
  public DataFileMeta upgrade(int newLevel) {
    return new DataFileMeta(
        fileName,
        fileSize,
        rowCount,
        minKey,
        maxKey,
        keyStats,
        valueStats,
        minSequenceNumber,
        maxSequenceNumber,
        schemaId,
        newLevel,
        extraFiles,
        creationTimeMillis,
        deleteRowCount,
        fileSource,
        valueStatsCols);
  }
}
