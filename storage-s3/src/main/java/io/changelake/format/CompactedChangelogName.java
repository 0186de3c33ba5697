package io.changelake.format;

import java.util.Optional;

/**
 * Where the bytes of a compacted changelog file are. Paimon's Flink sink with {@code
 * precommit-compact} merges the changelog files a checkpoint wrote in several buckets into one
 * object, in the bucket folder of the first, and names each bucket's part in the manifests by a
 * name that encodes where it lies:
 *
 * <ul>
 *   <li>{@code compacted-changelog-<uuid>$<b>-<length>.cc-parquet}: the object itself, in bucket
 *       {@code b}'s folder; this bucket's part is its first {@code length} bytes;
 *   <li>{@code compacted-changelog-<uuid>$<b>-<length>-<offset>-<partLength>.cc-parquet}: no object
 *       of that name exists; this bucket's part is the {@code partLength} bytes from {@code offset}
 *       of the object above, in bucket {@code b}'s folder of the same partition.
 * </ul>
 *
 * <p>Each part is a whole Parquet file of key-values. changelake writes none of these; it reads
 * them where Flink wrote them.
 *
 * @param path the object holding the part, from the table root as the given path was
 * @param offset where the part starts in the object
 * @param length the part's size in bytes
 */
record CompactedChangelogName(String path, long offset, long length) {

  private static final String PREFIX = "compacted-changelog-";

  /**
   * The part a file path names, when its file name is a compacted changelog's; empty for any other
   * file.
   *
   * @param path a data or changelog file's path, {@code .../bucket-<n>/<file name>}
   * @throws IllegalArgumentException if the name starts as a compacted changelog's but does not
   *     follow the protocol
   */
  static Optional<CompactedChangelogName> of(String path) {
    int slash = path.lastIndexOf('/');
    String name = path.substring(slash + 1);
    if (!name.startsWith(PREFIX)) {
      return Optional.empty();
    }
    int dollar = name.indexOf('$');
    int dot = name.indexOf('.', dollar);
    if (dollar < 0 || dot < 0) {
      throw malformed(path);
    }
    String[] numbers = name.substring(dollar + 1, dot).split("-", -1);
    try {
      if (numbers.length == 2) {
        return Optional.of(new CompactedChangelogName(path, 0, Long.parseLong(numbers[1])));
      }
      if (numbers.length != 4) {
        throw malformed(path);
      }
      // The object is in bucket b's folder: the bucket folder's sibling.
      int bucketFolder = path.lastIndexOf('/', slash - 1);
      String object =
          path.substring(0, bucketFolder + 1)
              + "bucket-"
              + Integer.parseInt(numbers[0])
              + "/"
              + name.substring(0, dollar + 1)
              + numbers[0]
              + "-"
              + numbers[1]
              + name.substring(dot);
      return Optional.of(
          new CompactedChangelogName(
              object, Long.parseLong(numbers[2]), Long.parseLong(numbers[3])));
    } catch (NumberFormatException e) {
      throw malformed(path);
    }
  }

  private static IllegalArgumentException malformed(String path) {
    return new IllegalArgumentException(
        path
            + " is named as a compacted changelog file but does not say where its bytes are"
            + " (compacted-changelog-<uuid>$<bucket>-<length>[-<offset>-<length>].<format>)");
  }
}
