package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.LocalObjectStore;
import io.changelake.types.KeyValue;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyValueFileSchemaTest {

  @TempDir static Path dir;
  static ParquetMetadata paimonFooter;
  static ParquetMetadata ourFooter;

  @BeforeAll
  static void writeTheSameRowsWithPaimonAndWithUs() throws Exception {
    List<KeyValue> rows = AllTypes.sortedRows(200, 1);
    PaimonReference.WrittenFile paimon =
        PaimonReference.write(
            dir.resolve("paimon"), AllTypes.VALUE_TYPE, AllTypes.PRIMARY_KEY, rows, Map.of());
    paimonFooter = KeyValueFiles.footer(paimon.file());
    KeyValueFiles.write(
        new LocalObjectStore(dir.resolve("ours")),
        "data.parquet",
        AllTypes.KEY_TYPE,
        AllTypes.VALUE_TYPE,
        rows,
        ParquetFileOptions.DEFAULTS);
    ourFooter = KeyValueFiles.footer(dir.resolve("ours/data.parquet"));
  }

  @Test
  void schemaOfEveryTypeEqualsWhatPaimonWrites() {
    var paimonSchema = paimonFooter.getFileMetaData().getSchema();
    // Printed too: the message shows ids, repetition and annotations of every column on failure.
    assertEquals(paimonSchema.toString(), ourFooter.getFileMetaData().getSchema().toString());
    assertEquals(paimonSchema, ourFooter.getFileMetaData().getSchema());
    assertEquals(
        paimonSchema, KeyValueFileSchema.messageType(AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE));
  }

  @Test
  void everyColumnIsZstdCompressedAsPaimonsDefault() {
    for (ParquetMetadata footer : List.of(paimonFooter, ourFooter)) {
      for (BlockMetaData block : footer.getBlocks()) {
        for (ColumnChunkMetaData column : block.getColumns()) {
          assertEquals(CompressionCodecName.ZSTD, column.getCodec(), column.getPath().toString());
        }
      }
    }
  }

  @Test
  void keyValueMetadataIsEmptyAsPaimons() {
    assertEquals(
        paimonFooter.getFileMetaData().getKeyValueMetaData(),
        ourFooter.getFileMetaData().getKeyValueMetaData());
  }
}
