package io.changelake.format;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How {@link KeyValueFileWriter} writes a Parquet file. {@link #DEFAULTS} are Paimon 1.3.1's but
 * for the row group size.
 *
 * <table>
 *   <caption>Options and the Paimon options they mirror</caption>
 *   <tr><th>option</th><th>default</th><th>Paimon option</th></tr>
 *   <tr><td>compression</td><td>{@code zstd}</td><td>{@code file.compression}
 *     ({@code changelog-file.compression} for changelog files)</td></tr>
 *   <tr><td>zstdLevel</td><td>1</td><td>{@code file.compression.zstd-level}</td></tr>
 *   <tr><td>rowGroupSize</td><td>16 MiB (Paimon: 128 MiB)</td><td>{@code file.block-size}</td></tr>
 *   <tr><td>pageSize</td><td>1 MiB</td><td>{@code parquet.page.size}</td></tr>
 *   <tr><td>valueStatsMode</td><td>{@code truncate(16)}</td><td>{@code metadata.stats-mode}
 *     ({@code changelog-file.stats-mode} for changelog files)</td></tr>
 * </table>
 *
 * <p>Parquet holds a whole row group in memory, compressed, until it is complete, and a reader
 * loads a whole row group of the columns it reads. With Paimon's 128 MiB, a file up to {@code
 * target-file-size} (128 MiB too) is held whole while it is written, and once per sorted run while
 * a compaction reads it: heap that grows with the bucket until files reach their target size, which
 * ran a lookup bucket of 29 million keys out of a 1 GiB heap. 16 MiB bounds both sides; the files
 * stay what Paimon reads, with more, smaller row groups.
 *
 * @param compression a Parquet codec name: {@code zstd}, {@code snappy}, {@code gzip}, {@code
 *     lz4_raw}, {@code lz4}, {@code uncompressed} or {@code none}, any case
 * @param zstdLevel the zstd level when the codec is zstd (1 fast to 22 small)
 * @param rowGroupSize the target bytes of a row group
 * @param pageSize the target bytes of a page
 * @param valueStatsMode what the file's metadata keeps of value-column statistics
 */
public record ParquetFileOptions(
    String compression, int zstdLevel, long rowGroupSize, int pageSize, StatsMode valueStatsMode) {

  /** Paimon 1.3.1's defaults, with row groups of 16 MiB. */
  public static final ParquetFileOptions DEFAULTS =
      new ParquetFileOptions("zstd", 1, 16L << 20, 1 << 20, StatsMode.DEFAULT);

  public ParquetFileOptions {
    codec(compression);
    if (zstdLevel < 1 || zstdLevel > 22) {
      throw new IllegalArgumentException("zstd level " + zstdLevel + " is not 1 to 22");
    }
    if (rowGroupSize < 1 || pageSize < 1) {
      throw new IllegalArgumentException(
          "row group size " + rowGroupSize + " and page size " + pageSize + " must be positive");
    }
    Objects.requireNonNull(valueStatsMode, "valueStatsMode");
  }

  public ParquetFileOptions withCompression(String codecName) {
    return new ParquetFileOptions(codecName, zstdLevel, rowGroupSize, pageSize, valueStatsMode);
  }

  public ParquetFileOptions withZstdLevel(int level) {
    return new ParquetFileOptions(compression, level, rowGroupSize, pageSize, valueStatsMode);
  }

  public ParquetFileOptions withRowGroupSize(long bytes) {
    return new ParquetFileOptions(compression, zstdLevel, bytes, pageSize, valueStatsMode);
  }

  public ParquetFileOptions withPageSize(int bytes) {
    return new ParquetFileOptions(compression, zstdLevel, rowGroupSize, bytes, valueStatsMode);
  }

  public ParquetFileOptions withValueStatsMode(StatsMode mode) {
    return new ParquetFileOptions(compression, zstdLevel, rowGroupSize, pageSize, mode);
  }

  /** The Parquet codec the compression names; Paimon's {@code none} is Parquet's uncompressed. */
  CompressionCodecName codec() {
    return codec(compression);
  }

  private static CompressionCodecName codec(String name) {
    String upper = Objects.requireNonNull(name, "compression").toUpperCase(Locale.ROOT);
    if (upper.equals("NONE")) {
      return CompressionCodecName.UNCOMPRESSED;
    }
    try {
      return CompressionCodecName.valueOf(upper);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'"
              + name
              + "' is not a Parquet compression: use one of "
              + Arrays.stream(CompressionCodecName.values())
                  .map(c -> c.name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", "))
              + " or none");
    }
  }
}
