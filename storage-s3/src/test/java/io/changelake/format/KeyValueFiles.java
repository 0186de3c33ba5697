package io.changelake.format;

import io.changelake.store.ObjectStore;
import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;

/** Test shorthands for writing, reading and printing key-value files. */
final class KeyValueFiles {

  private KeyValueFiles() {}

  static KeyValueFileMeta write(
      ObjectStore store,
      String path,
      RowType keyType,
      RowType valueType,
      List<KeyValue> rows,
      ParquetFileOptions options)
      throws IOException {
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(store, path, keyType, valueType, options)) {
      for (KeyValue kv : rows) {
        writer.write(kv);
      }
      return writer.finish();
    }
  }

  static List<KeyValue> read(
      ObjectStore store, String path, RowType keyType, RowType valueType, int[] projection)
      throws IOException {
    List<KeyValue> rows = new ArrayList<>();
    try (KeyValueFileReader reader =
        KeyValueFileReader.open(store, path, keyType, valueType, projection)) {
      reader.forEachRemaining(rows::add);
    }
    return rows;
  }

  /** Key-values printed with arrays by content, for comparing lists of them. */
  static List<String> describe(List<KeyValue> rows) {
    return rows.stream()
        .map(
            kv ->
                Arrays.deepToString(
                    new Object[] {kv.key(), kv.sequenceNumber(), kv.kind(), kv.value()}))
        .toList();
  }

  /** Asserts equal key-values, naming the first that differs rather than printing them all. */
  static void assertSameKeyValues(List<KeyValue> expected, List<KeyValue> actual) {
    List<String> e = describe(expected);
    List<String> a = describe(actual);
    for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
      org.junit.jupiter.api.Assertions.assertEquals(e.get(i), a.get(i), "key-value " + i);
    }
    org.junit.jupiter.api.Assertions.assertEquals(e.size(), a.size(), "number of key-values");
  }

  static ParquetMetadata footer(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      return reader.getFooter();
    }
  }
}
