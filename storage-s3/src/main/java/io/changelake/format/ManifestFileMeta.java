package io.changelake.format;

/**
 * What a manifest list records of one manifest file.
 *
 * @param fileName the manifest's name in the table's {@code manifest/} folder
 * @param fileSize its size in bytes
 * @param numAddedFiles how many ADD entries it holds
 * @param numDeletedFiles how many DELETE entries it holds
 * @param partitionStats min, max and null counts of the partitions its entries touch
 * @param schemaId the schema the entries were written with
 * @param minBucket the smallest bucket of its entries, or null
 * @param maxBucket the largest bucket, or null
 * @param minLevel the lowest level, or null
 * @param maxLevel the highest level, or null
 */
public record ManifestFileMeta(
    String fileName,
    long fileSize,
    long numAddedFiles,
    long numDeletedFiles,
    SimpleStats partitionStats,
    long schemaId,
    Integer minBucket,
    Integer maxBucket,
    Integer minLevel,
    Integer maxLevel) {}
