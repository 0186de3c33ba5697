package io.changelake.format;

import java.util.Objects;

/**
 * One entry of an index manifest: an index file of a (partition, bucket), added or removed.
 *
 * <p>A snapshot's index manifest is complete, not a delta: it lists every live index file as an ADD
 * entry. DELETE entries exist only in the changes a commit applies to the previous one.
 *
 * @param kind added or removed
 * @param partition the partition values, serialized as Paimon's BinaryRow
 * @param bucket the bucket
 * @param file the index file
 */
public record IndexManifestEntry(
    FileKind kind, SerializedRow partition, int bucket, IndexFileMeta file) {

  public IndexManifestEntry {
    Objects.requireNonNull(kind, "no kind");
    Objects.requireNonNull(partition, "no partition");
    Objects.requireNonNull(file, "no index file");
  }

  /** What one index file stands for: at most one live entry per identity. */
  public record Identity(SerializedRow partition, int bucket, String indexType) {}

  /** The (partition, bucket, index type) this entry's file covers. */
  public Identity identity() {
    return new Identity(partition, bucket, file.indexType());
  }
}
