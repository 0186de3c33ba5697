package io.changelake.mergetree.lookup;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.ParquetFileOptions;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.Levels;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test data: the data files of one bucket on a local object store, described as a manifest would,
 * and the lookup cache over them.
 */
final class LocalBucket {

  /** Key {@code id BIGINT}; rows {@code (id, name STRING, amount BIGINT)}. */
  static final RowType KEY = RowType.of(new String[] {"id"}, new DataType[] {DataType.bigint()});

  static final RowType VALUE =
      RowType.of(
          new String[] {"id", "name", "amount"},
          new DataType[] {DataType.bigint(), DataType.string(), DataType.bigint()});

  final RowType keyType;
  final RowType valueType;
  final LocalObjectStore store;
  final Path cacheFolder;
  private final BinaryRowCodec keyCodec;
  private final AtomicInteger opened = new AtomicInteger();
  private int files;

  LocalBucket(Path dir, RowType keyType, RowType valueType) throws IOException {
    this.keyType = keyType;
    this.valueType = valueType;
    this.store = new LocalObjectStore(dir.resolve("store"));
    this.cacheFolder = dir.resolve("lookup");
    this.keyCodec = new BinaryRowCodec(keyType);
  }

  LocalBucket(Path dir) throws IOException {
    this(dir, KEY, VALUE);
  }

  /**
   * What {@code lookup} finds of key {@code id} of the default layout from {@code startLevel} up,
   * as a compaction asks (by a row holding the key), copied into a key-value of its own; null if no
   * level holds it.
   */
  static KeyValue find(LookupLevels lookup, long id, int startLevel) throws IOException {
    ChangeRow found =
        lookup.lookup(
            new KeyValue(new Object[] {id}, 0, RowKind.INSERT, new Object[] {id, null, null}),
            startLevel);
    return found == null ? null : found.toKeyValue();
  }

  /** The row of key {@code id} in the default layout. */
  static KeyValue row(long id, long sequence, RowKind kind, long amount) {
    return new KeyValue(new Object[] {id}, sequence, kind, new Object[] {id, "name-" + id, amount});
  }

  /** Writes key-values, sorted by key, as one data file at {@code level}. */
  DataFileMeta write(int level, List<KeyValue> sorted) throws IOException {
    return write(level, sorted, null);
  }

  /** The same, handing each key-value over to {@code lookupFile} as it is written, if not null. */
  DataFileMeta write(int level, List<KeyValue> sorted, LookupFileBuilder lookupFile)
      throws IOException {
    String name = "data-" + files++ + ".parquet";
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(store, name, keyType, valueType, ParquetFileOptions.DEFAULTS)) {
      for (KeyValue kv : sorted) {
        writer.write(kv);
        if (lookupFile != null) {
          lookupFile.add(kv);
        }
      }
      DataFileMeta meta = describe(writer.finish(), name, level);
      if (lookupFile != null) {
        lookupFile.finish(meta);
      }
      return meta;
    }
  }

  private DataFileMeta describe(KeyValueFileMeta written, String name, int level) {
    return new DataFileMeta(
        name,
        written.fileSize(),
        written.rowCount(),
        new SerializedRow(keyCodec.encode(written.minKey().toArray())),
        new SerializedRow(keyCodec.encode(written.maxKey().toArray())),
        null,
        null,
        written.minSequenceNumber(),
        written.maxSequenceNumber(),
        0,
        level,
        List.of(),
        null,
        written.deleteRowCount(),
        null,
        null);
  }

  /** Cuts sorted key-values into files of at most {@code perFile} records at {@code level}. */
  List<DataFileMeta> writeRun(int level, List<KeyValue> sorted, int perFile) throws IOException {
    List<DataFileMeta> run = new ArrayList<>();
    for (int from = 0; from < sorted.size(); from += perFile) {
      run.add(write(level, sorted.subList(from, Math.min(sorted.size(), from + perFile))));
    }
    return run;
  }

  /** Reads data files from the store, counting how many times one is opened. */
  DataFileOpener<KeyValueFileReader> opener() {
    return file -> {
      opened.incrementAndGet();
      return KeyValueFileReader.open(store, file.fileName(), keyType, valueType);
    };
  }

  /** How many times {@link #opener} opened a data file. */
  int opened() {
    return opened.get();
  }

  LookupLevels lookupLevels(Levels levels, long maxMemoryBytes, long maxDiskBytes)
      throws IOException {
    return new LookupLevels(
        levels, keyType, valueType, opener(), cacheFolder, maxMemoryBytes, maxDiskBytes);
  }
}
