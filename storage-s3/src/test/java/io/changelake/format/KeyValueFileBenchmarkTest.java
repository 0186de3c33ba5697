package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prints write and read throughput of one file on local disk; it asserts counts, never speed. */
class KeyValueFileBenchmarkTest {

  private static final int ROWS = 1_000_000;
  private static final RowType VALUE_TYPE =
      RowType.of(
          new String[] {"id", "a", "b"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()});
  private static final RowType KEY_TYPE = VALUE_TYPE.project(new int[] {0});

  @TempDir Path dir;

  @Test
  void printsRowsPerSecondOfAMillionBigintRows() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    // A warm-up file, so the timed runs measure compiled code rather than the JIT.
    writeAndRead(store, "warm-up.parquet", 200_000);
    writeAndRead(store, "data.parquet", ROWS);
  }

  private static void writeAndRead(ObjectStore store, String path, int rows) throws Exception {
    long start = System.nanoTime();
    KeyValueFileMeta meta;
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(store, path, KEY_TYPE, VALUE_TYPE, ParquetFileOptions.DEFAULTS)) {
      for (long i = 0; i < rows; i++) {
        writer.write(
            new KeyValue(new Object[] {i}, i, RowKind.INSERT, new Object[] {i, i * 31, i % 1000}));
      }
      meta = writer.finish();
    }
    long written = System.nanoTime();
    long sum = 0;
    long count = 0;
    try (KeyValueFileReader reader = KeyValueFileReader.open(store, path, KEY_TYPE, VALUE_TYPE)) {
      while (reader.hasNext()) {
        sum += (Long) reader.next().value()[2];
        count++;
      }
    }
    long read = System.nanoTime();
    assertEquals(rows, count);
    System.out.printf(
        "%s: %,d rows, %,d bytes: write %,.0f rows/s, read %,.0f rows/s (checksum %d)%n",
        path,
        rows,
        meta.fileSize(),
        rows / ((written - start) / 1e9),
        rows / ((read - written) / 1e9),
        sum);
  }
}
