package io.changelake.format;

import java.util.List;

/**
 * What the merge tree and the manifests need to know of one data or changelog file, as {@link
 * KeyValueFileWriter#finish} reports it (Paimon's {@code DataFileMeta} without level, schema id and
 * file source, which the caller knows).
 *
 * <p>Keys are lists of key-column values in primary-key order. Stats lists have one entry per key
 * column and per value (table) column, in column order; see {@link StatsMode} for what each keeps.
 *
 * @param path the object's path in its store
 * @param fileSize the object's size in bytes
 * @param rowCount the number of key-values in the file
 * @param minKey the first (smallest) key of the file
 * @param maxKey the last (largest) key of the file
 * @param keyStats per key column, always {@link StatsMode#KEY}
 * @param valueStats per table column, in the writer's value stats mode
 * @param minSequenceNumber the smallest sequence number in the file
 * @param maxSequenceNumber the largest sequence number in the file
 * @param deleteRowCount the number of retractions (-U and -D) in the file
 */
public record KeyValueFileMeta(
    String path,
    long fileSize,
    long rowCount,
    List<Object> minKey,
    List<Object> maxKey,
    List<ColumnStats> keyStats,
    List<ColumnStats> valueStats,
    long minSequenceNumber,
    long maxSequenceNumber,
    long deleteRowCount) {

  public KeyValueFileMeta {
    minKey = List.copyOf(minKey);
    maxKey = List.copyOf(maxKey);
    keyStats = List.copyOf(keyStats);
    valueStats = List.copyOf(valueStats);
  }
}
