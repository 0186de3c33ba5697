package io.changelake.format;

import io.changelake.store.ObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Writes one data or changelog file of the merge tree: Parquet in Paimon 1.3.1's layout (see {@link
 * KeyValueFileSchema}), so Paimon, Flink and Spark read it as their own.
 *
 * <p>The caller writes rows sorted by key, then by sequence number, and calls {@link #finish} once,
 * which closes the file and returns its {@link KeyValueFileMeta}. The first key written is the
 * file's min key and the last its max key; this writer does not check the order.
 *
 * <p>Statistics come from the Parquet footer, as Paimon takes them, so they cost nothing per row:
 * min, max and null count per column, merged over row groups, then cut by {@link StatsMode#KEY} for
 * key columns and by {@link ParquetFileOptions#valueStatsMode()} for value columns. No min/max is
 * kept for BINARY/VARBINARY/BYTES and TIMESTAMP(7..9) columns, nor for a column chunk whose min and
 * max together take 4 KiB or more (Parquet leaves them out of the file).
 *
 * <pre>{@code
 * try (KeyValueFileWriter writer =
 *     KeyValueFileWriter.create(store, "bucket-0/data-<uuid>-0.parquet", keyType, valueType,
 *         ParquetFileOptions.DEFAULTS)) {
 *   for (KeyValue kv : sortedKeyValues) {
 *     writer.write(kv);
 *   }
 *   KeyValueFileMeta meta = writer.finish();
 * }
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class KeyValueFileWriter implements Closeable {

  private final ObjectStore store;
  private final String path;
  private final RowType keyType;
  private final RowType valueType;
  private final StatsMode valueStatsMode;
  private final ObjectOutputFile file;
  private final MessageType schema;
  private final KeyValueColumns columns;
  private final RowGroupWriter writer;

  private final LastKey lastKey;
  private Object[] minKey;
  private long rowCount;
  private long minSequenceNumber = Long.MAX_VALUE;
  private long maxSequenceNumber = Long.MIN_VALUE;
  private long deleteRowCount;
  private boolean closed;
  private boolean failed;

  private KeyValueFileWriter(
      ObjectStore store,
      String path,
      RowType keyType,
      RowType valueType,
      ParquetFileOptions options,
      boolean sortedRun)
      throws IOException {
    this.store = store;
    this.path = path;
    this.keyType = keyType;
    this.valueType = valueType;
    this.valueStatsMode = options.valueStatsMode();
    this.file = new ObjectOutputFile(store, path);
    this.columns = new KeyValueColumns(keyType, valueType);
    this.schema = columns.schema();
    this.lastKey = new LastKey(KeyValueFileSchema.codecs(keyType), columns.keyPositions());
    // Paimon's Parquet settings (RowGroupWriter); everything not named there is Parquet's
    // default, as in Paimon (with Parquet at Paimon's version, see the pom), so that a file takes
    // Paimon's bytes for the same rows: universal compaction picks runs by their file sizes. The
    // one difference is the row group size (ParquetFileOptions), which shows only in files of
    // more than a row group. The columns unique in the file are written plain from the start,
    // which is what Parquet ends with (RowGroupWriter).
    this.writer = new RowGroupWriter(file, schema, options, uniqueColumns(keyType, sortedRun));
  }

  /**
   * The columns whose values are unique in a file: the sequence number (every row of a data or
   * changelog file is another record, and a record's number is its own), and in a sorted run a key
   * of one field (its {@code _KEY_} column and its table column). A key keeps its dictionary in a
   * changelog file, where the -U and +U of a key make it smaller. A profile of the lookup write put
   * Parquet's dictionary of those columns, filled and then dropped, at a third of the encoding.
   */
  private static Set<String> uniqueColumns(RowType keyType, boolean sortedRun) {
    Set<String> unique = new HashSet<>();
    unique.add(KeyValueFileSchema.SEQUENCE_NUMBER);
    if (sortedRun && keyType.fields().size() == 1) {
      String key = keyType.fields().get(0).name();
      unique.add(KeyValueFileSchema.KEY_PREFIX + key);
      unique.add(key);
    }
    return unique;
  }

  /**
   * Starts a file at {@code path} of {@code store}; nothing is visible there until {@link #finish}.
   * Each row is a different record, with a sequence number of its own (as in a changelog file);
   * were a number repeated, the file would still read back right, only perhaps larger than
   * Paimon's.
   *
   * @param keyType the primary-key columns, in key order, with their table field ids
   * @param valueType all table columns, in table order, with their field ids
   */
  public static KeyValueFileWriter create(
      ObjectStore store,
      String path,
      RowType keyType,
      RowType valueType,
      ParquetFileOptions options)
      throws IOException {
    return new KeyValueFileWriter(store, path, keyType, valueType, options, false);
  }

  /**
   * Starts a sorted run's file (a data file of the merge tree): every key in it at most once, in
   * key order. The file is what {@link #create} writes for the same key-values.
   */
  public static KeyValueFileWriter createSortedRun(
      ObjectStore store,
      String path,
      RowType keyType,
      RowType valueType,
      ParquetFileOptions options)
      throws IOException {
    return new KeyValueFileWriter(store, path, keyType, valueType, options, true);
  }

  /**
   * Appends a row: a key-value, or a view of a row of every table column (a compaction's, read from
   * a column batch), whose key is its key columns. Nothing of it is kept but the first and last
   * key; a view's BIGINT, INT, DOUBLE, FLOAT and BOOLEAN columns are written through its unboxed
   * getters, and its key boxed only for the file's bounds.
   *
   * @throws IllegalArgumentException if a value does not fit its column (wrong Java class, null in
   *     a NOT NULL column, a decimal too large), or a view's columns are not the table's
   */
  public void write(ChangeRow row) throws IOException {
    write(row, row.kind());
  }

  /**
   * {@link #write(ChangeRow)} of the row under {@code kind}, whatever its own: how a changelog
   * writes the version it names as a -U, -D or +I.
   */
  public void write(ChangeRow row, RowKind kind) throws IOException {
    if (failed) {
      throw new IOException("the writer of " + path + " failed on an earlier row");
    }
    try {
      columns.write(writer, row, kind);
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
    lastKey.take(row);
    if (minKey == null) {
      minKey = lastKey.get();
    }
    rowCount++;
    long sequenceNumber = row.sequenceNumber();
    minSequenceNumber = Math.min(minSequenceNumber, sequenceNumber);
    maxSequenceNumber = Math.max(maxSequenceNumber, sequenceNumber);
    if (!kind.isAdd()) {
      deleteRowCount++;
    }
  }

  /** The key-values written so far. */
  public long rowCount() {
    return rowCount;
  }

  /**
   * Bytes the file will take, roughly: what is flushed plus what is buffered (compressed pages, not
   * yet the open page). For rolling to a new file at a target size.
   */
  public long estimatedSize() {
    return writer.dataSize();
  }

  /**
   * Closes the file, which makes it visible in the store, and describes it.
   *
   * @throws IllegalStateException if nothing was written (Paimon never commits an empty file) or
   *     the writer is closed
   */
  public KeyValueFileMeta finish() throws IOException {
    if (closed) {
      throw new IllegalStateException("the writer of " + path + " is closed");
    }
    if (rowCount == 0) {
      throw new IllegalStateException(
          "no key-value was written to " + path + "; close the writer instead of finishing it");
    }
    if (failed) {
      throw new IllegalStateException("the writer of " + path + " failed; close it instead");
    }
    closed = true;
    List<ColumnStats> stats = stats(writer.finish());
    int keys = keyType.size();
    return new KeyValueFileMeta(
        path,
        file.bytesWritten(),
        rowCount,
        Arrays.asList(minKey),
        Arrays.asList(lastKey.get()),
        stats.subList(0, keys),
        stats.subList(keys + 2, stats.size()),
        minSequenceNumber,
        maxSequenceNumber,
        deleteRowCount);
  }

  /**
   * Per column of the file, the statistics Paimon reads back from this footer: chunk statistics
   * merged over row groups, where a chunk whose bounds Parquet leaves out of the file (too large)
   * counts only its nulls.
   */
  private List<ColumnStats> stats(ParquetMetadata footer) {
    int columns = schema.getFieldCount();
    List<Statistics<?>> merged = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      merged.add(Statistics.createStats(schema.getType(i).asPrimitiveType()));
    }
    for (BlockMetaData block : footer.getBlocks()) {
      List<ColumnChunkMetaData> chunks = block.getColumns();
      for (int i = 0; i < columns; i++) {
        Statistics<?> chunk = chunks.get(i).getStatistics();
        if (!chunk.isSmallerThan(ParquetMetadataConverter.MAX_STATS_SIZE)) {
          chunk =
              Statistics.getBuilderForReading(chunk.type())
                  .withNumNulls(chunk.getNumNulls())
                  .build();
        }
        merged.get(i).mergeStatistics(chunk);
      }
    }
    ColumnCodec[] keyCodecs = KeyValueFileSchema.codecs(keyType);
    ColumnCodec[] valueCodecs = KeyValueFileSchema.codecs(valueType);
    List<ColumnStats> stats = new ArrayList<>(columns);
    for (int i = 0; i < columns; i++) {
      int value = i - keyCodecs.length - 2;
      if (i < keyCodecs.length) {
        stats.add(StatsMode.KEY.apply(keyCodecs[i].stats(merged.get(i))));
      } else if (value < 0) {
        // _SEQUENCE_NUMBER and _VALUE_KIND: the metadata has them in other fields.
        stats.add(null);
      } else {
        stats.add(valueStatsMode.apply(valueCodecs[value].stats(merged.get(i))));
      }
    }
    return stats;
  }

  /**
   * Closes the writer. If {@link #finish} was not called, the partial file is closed and deleted:
   * the store's stream has no abort, so it becomes visible for a moment.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      writer.close();
    } finally {
      store.delete(path);
    }
  }
}
