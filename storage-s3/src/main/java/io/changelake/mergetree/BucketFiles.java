package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.ColumnStats;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ParquetFileOptions;
import io.changelake.format.SerializedRow;
import io.changelake.format.SimpleStats;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowType;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The data and changelog files of one bucket: names new ones ({@code data-<uuid>-<n>.parquet},
 * {@code changelog-<uuid>-<n>.parquet}), writes and opens them, and turns what a file writer
 * reports into the {@link DataFileMeta} a manifest records (keys and statistics as Paimon's
 * serialized rows).
 *
 * <p>It knows the bucket by its folder in an object store and the schema its files are written
 * with; the table works out the folder ({@code <partition path>/bucket-<n>/}) and hands both in, so
 * the merge tree needs nothing of the table.
 *
 * <p>Thread-safe: a background compaction writes and reads files while the writer's thread flushes.
 */
public final class BucketFiles {

  private final ObjectStore store;
  private final String folder;
  private final long schemaId;
  private final FileSchemas schemas;
  private final RowType keyType;
  private final RowType valueType;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec valueCodec;
  private final ParquetFileOptions fileOptions;
  private final String uuid = UUID.randomUUID().toString();
  private final AtomicInteger counter = new AtomicInteger();

  /**
   * Files of a bucket whose files all have the one schema {@code schema}.
   *
   * @param store the table's object store
   * @param folder the bucket's folder, relative to the store root, ending in {@code /}
   * @param schema the schema new files are written with (its id goes into each file's metadata)
   */
  public BucketFiles(ObjectStore store, String folder, TableSchema schema) {
    this(store, folder, FileSchemas.only(schema));
  }

  /**
   * @param store the table's object store
   * @param folder the bucket's folder, relative to the store root, ending in {@code /}
   * @param schemas the table's schemas: new files are written with the current one (its id goes
   *     into each file's metadata), files of older ones are read as the current one
   */
  public BucketFiles(ObjectStore store, String folder, FileSchemas schemas) {
    TableSchema schema = schemas.current();
    this.store = store;
    this.folder = folder;
    this.schemas = schemas;
    this.schemaId = schema.id();
    this.keyType = schema.keyType();
    this.valueType = schema.rowType();
    this.keyCodec = new BinaryRowCodec(keyType);
    this.valueCodec = new BinaryRowCodec(valueType);
    TableOptions options = schema.options();
    this.fileOptions =
        ParquetFileOptions.DEFAULTS
            .withCompression(options.fileCompression())
            .withZstdLevel(options.zstdLevel());
  }

  /** The bucket's folder, relative to the store root, ending in {@code /}. */
  public String folder() {
    return folder;
  }

  /** A writer of a new data file; finish it with {@link #finish}. */
  public KeyValueFileWriter newDataFile() throws IOException {
    return KeyValueFileWriter.createSortedRun(
        store, folder + newName("data"), keyType, valueType, fileOptions);
  }

  /** A writer of a new changelog file; finish it with {@link #finish}. */
  public KeyValueFileWriter newChangelogFile() throws IOException {
    return KeyValueFileWriter.create(
        store, folder + newName("changelog"), keyType, valueType, fileOptions);
  }

  private String newName(String prefix) {
    return prefix + "-" + uuid + "-" + counter.getAndIncrement() + ".parquet";
  }

  /** Closes a file writer and describes its file as a manifest records it. */
  public DataFileMeta finish(KeyValueFileWriter writer, int level, FileSource source)
      throws IOException {
    KeyValueFileMeta meta = writer.finish();
    String name = meta.path().substring(meta.path().lastIndexOf('/') + 1);
    // The codecs encode into a buffer of their own, and a background compaction finishes files
    // while the writer's thread flushes.
    synchronized (this) {
      return describe(meta, name, level, source);
    }
  }

  private DataFileMeta describe(KeyValueFileMeta meta, String name, int level, FileSource source) {
    return new DataFileMeta(
        name,
        meta.fileSize(),
        meta.rowCount(),
        new SerializedRow(keyCodec.encode(meta.minKey().toArray())),
        new SerializedRow(keyCodec.encode(meta.maxKey().toArray())),
        stats(keyCodec, meta.keyStats()),
        stats(valueCodec, meta.valueStats()),
        meta.minSequenceNumber(),
        meta.maxSequenceNumber(),
        schemaId,
        level,
        List.of(),
        // Paimon records the writer's local wall-clock time as if it were UTC.
        LocalDateTime.now(ZoneId.systemDefault()).toInstant(ZoneOffset.UTC).toEpochMilli(),
        meta.deleteRowCount(),
        source,
        null);
  }

  private static SimpleStats stats(BinaryRowCodec codec, List<ColumnStats> columns) {
    Object[] min = new Object[columns.size()];
    Object[] max = new Object[columns.size()];
    List<Long> nullCounts = new ArrayList<>(columns.size());
    for (int i = 0; i < min.length; i++) {
      ColumnStats c = columns.get(i);
      min[i] = c.min();
      max[i] = c.max();
      nullCounts.add(c.nullCount());
    }
    return new SimpleStats(
        new SerializedRow(codec.encode(min)), new SerializedRow(codec.encode(max)), nullCounts);
  }

  /** Deletes a file no snapshot references (written and replaced within one commit). */
  public void delete(DataFileMeta file) throws IOException {
    store.delete(folder + file.fileName());
  }

  /**
   * Opens one of this bucket's files for reading, every column of the current schema, whatever
   * schema the file was written with.
   */
  public KeyValueFileReader open(DataFileMeta file) throws IOException {
    return open(file, null);
  }

  /**
   * Opens one of this bucket's files to read the current schema's columns at {@code columns}, in
   * that order, or every column if it is null; the other columns are not fetched.
   */
  public KeyValueFileReader open(DataFileMeta file, int[] columns) throws IOException {
    return KeyValueFileReader.open(
        store, folder + file.fileName(), keyType, schemas.mapping(file), columns);
  }
}
