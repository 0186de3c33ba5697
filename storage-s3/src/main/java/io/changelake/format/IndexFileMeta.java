package io.changelake.format;

import java.util.Objects;

/**
 * One index file of a bucket, as an index manifest names it: Paimon's {@code IndexFileMeta}.
 *
 * <p>changelake writes only {@link #HASH} index files, the key hashes of a dynamic-bucket table's
 * bucket (see {@link HashIndexFile}); Paimon's deletion-vector ranges and external paths, which
 * such files never have, are always null.
 *
 * @param indexType {@code HASH}, or Paimon's {@code DELETION_VECTORS}
 * @param fileName the file's name in the table's {@code index/} folder
 * @param fileSize its size in bytes
 * @param rowCount the entries it holds: for a hash index, the number of keys of its bucket
 */
public record IndexFileMeta(String indexType, String fileName, long fileSize, long rowCount) {

  /** Paimon's index type of a dynamic-bucket table's key hashes. */
  public static final String HASH = "HASH";

  public IndexFileMeta {
    Objects.requireNonNull(indexType, "no index type");
    Objects.requireNonNull(fileName, "no index file name");
  }
}
