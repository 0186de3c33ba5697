package io.changelake.format;

/**
 * One line of a manifest: a file added to or removed from a bucket.
 *
 * @param kind add or delete
 * @param partition the partition values, serialized
 * @param bucket the bucket number
 * @param totalBuckets the bucket count of the table when the file was written
 * @param file the file
 */
public record ManifestEntry(
    FileKind kind, SerializedRow partition, int bucket, int totalBuckets, DataFileMeta file) {

  /**
   * What identifies a file across entries: the same file at another level is another identity,
   * which is how Paimon records a level upgrade (delete at the old level, add at the new).
   */
  public record Identifier(SerializedRow partition, int bucket, int level, String fileName) {}

  public Identifier identifier() {
    return new Identifier(partition, bucket, file.level(), file.fileName());
  }
}
