package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.paimon.io.DataFileMeta;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KeyValueFileWriterTest {

  @TempDir Path dir;

  @Test
  void paimonsParquetReaderReadsOurFileAsItReadsItsOwn() throws Exception {
    List<KeyValue> rows = AllTypes.sortedRows(250, 3);
    PaimonReference.WrittenFile paimon =
        PaimonReference.write(
            dir.resolve("paimon"), AllTypes.VALUE_TYPE, AllTypes.PRIMARY_KEY, rows, Map.of());
    KeyValueFiles.write(
        new LocalObjectStore(dir.resolve("ours")),
        "data.parquet",
        AllTypes.KEY_TYPE,
        AllTypes.VALUE_TYPE,
        rows,
        ParquetFileOptions.DEFAULTS);

    List<List<String>> theirs =
        PaimonReference.readWithPaimon(paimon.file(), AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE);
    List<List<String>> ours =
        PaimonReference.readWithPaimon(
            dir.resolve("ours/data.parquet"), AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE);
    assertEquals(rows.size(), theirs.size());
    for (int i = 0; i < theirs.size(); i++) {
      assertEquals(theirs.get(i), ours.get(i), "row " + i);
    }
    assertEquals(theirs.size(), ours.size());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 10, 19_999, 20_001, 150_000})
  void aSortedRunIsWrittenWithTheBytesOfAnyFile(int rows) throws Exception {
    RowType keyType =
        new RowType(List.of(new DataField(0, "order_id", DataType.bigint().notNull())));
    RowType valueType =
        new RowType(
            List.of(
                new DataField(0, "order_id", DataType.bigint().notNull()),
                new DataField(1, "store_id", DataType.bigint()),
                new DataField(2, "amount", DataType.bigint())));
    LocalObjectStore store = new LocalObjectStore(dir);
    Random random = new Random(rows);
    List<KeyValue> run = new ArrayList<>();
    long key = 0;
    for (int i = 0; i < rows; i++) {
      key += 1 + random.nextInt(5);
      run.add(
          new KeyValue(
              new Object[] {key},
              1_000 + random.nextInt(3 * rows),
              RowKind.INSERT,
              new Object[] {key, (long) random.nextInt(20), (long) random.nextInt(10_000)}));
    }
    try (KeyValueFileWriter any =
            KeyValueFileWriter.create(
                store, "any.parquet", keyType, valueType, ParquetFileOptions.DEFAULTS);
        KeyValueFileWriter sorted =
            KeyValueFileWriter.createSortedRun(
                store, "run.parquet", keyType, valueType, ParquetFileOptions.DEFAULTS)) {
      for (KeyValue kv : run) {
        any.write(kv);
        sorted.write(kv);
      }
      any.finish();
      sorted.finish();
    }

    // Parquet drops the dictionary of a column of unique values at its first page; a sorted run
    // writes those columns plain from the start and must end with the same bytes.
    assertTrue(
        Arrays.equals(
            Files.readAllBytes(dir.resolve("any.parquet")),
            Files.readAllBytes(dir.resolve("run.parquet"))));
  }

  /**
   * A file keyed by (SMALLINT, TINYINT, STRING), its rows read back as views of column batches (its
   * narrow integers held unboxed) and written again, is the same file, with min and max keys of the
   * key's own types.
   */
  @Test
  void viewsOfNarrowIntegerKeysAreWrittenAsTheirKeyValuesWithKeysOfTheirTypes() throws Exception {
    RowType valueType =
        new RowType(
            List.of(
                new DataField(0, "shard", DataType.smallint().notNull()),
                new DataField(1, "slot", DataType.tinyint().notNull()),
                new DataField(2, "name", DataType.string().notNull()),
                new DataField(3, "small", DataType.smallint()),
                new DataField(4, "tiny", DataType.tinyint())));
    RowType keyType = valueType.project(new int[] {0, 1, 2});
    List<KeyValue> rows = new ArrayList<>();
    Random random = new Random(11);
    for (short shard = -300; shard <= 300; shard += 150) {
      for (byte slot = -128; slot < 127; slot += 51) {
        Object[] value = {
          shard,
          slot,
          "n" + slot,
          random.nextBoolean() ? null : (short) random.nextInt(),
          random.nextBoolean() ? null : (byte) random.nextInt()
        };
        rows.add(
            new KeyValue(
                new Object[] {shard, slot, "n" + slot}, rows.size(), RowKind.INSERT, value));
      }
    }
    LocalObjectStore store = new LocalObjectStore(dir);
    KeyValueFiles.write(
        store, "kvs.parquet", keyType, valueType, rows, ParquetFileOptions.DEFAULTS);
    KeyValueFileMeta views;
    try (KeyValueFileReader reader =
            KeyValueFileReader.open(store, "kvs.parquet", keyType, valueType);
        KeyValueFileWriter writer =
            KeyValueFileWriter.createSortedRun(
                store, "views.parquet", keyType, valueType, ParquetFileOptions.DEFAULTS)) {
      KeyValueBatch batch = reader.newBatch();
      while (reader.nextBatch(batch) > 0) {
        for (int r = 0; r < batch.size(); r++) {
          writer.write(batch.row(r));
        }
      }
      views = writer.finish();
    }
    assertEquals(List.of((short) -300, (byte) -128, "n-128"), views.minKey());
    assertEquals(List.of((short) 300, (byte) 76, "n76"), views.maxKey());
    assertTrue(
        Arrays.equals(
            Files.readAllBytes(dir.resolve("kvs.parquet")),
            Files.readAllBytes(dir.resolve("views.parquet"))));
  }

  @ParameterizedTest
  @ValueSource(strings = {"truncate(16)", "full", "counts", "none", "truncate(3)"})
  void metadataEqualsWhatPaimonRecordsForTheSameRows(String statsMode) throws Exception {
    List<KeyValue> rows = AllTypes.sortedRows(250, 4);
    PaimonReference.WrittenFile paimon =
        PaimonReference.write(
            dir.resolve("paimon"),
            AllTypes.VALUE_TYPE,
            AllTypes.PRIMARY_KEY,
            rows,
            Map.of("metadata.stats-mode", statsMode));
    KeyValueFileMeta ours =
        KeyValueFiles.write(
            new LocalObjectStore(dir.resolve("ours")),
            "data.parquet",
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            rows,
            ParquetFileOptions.DEFAULTS.withValueStatsMode(StatsMode.parse(statsMode)));
    DataFileMeta theirs = paimon.meta();
    List<DataField> keys = AllTypes.KEY_TYPE.fields();

    assertEquals(theirs.rowCount(), ours.rowCount());
    assertEquals(PaimonReference.fromPaimonRow(keys, theirs.minKey()), ours.minKey());
    assertEquals(PaimonReference.fromPaimonRow(keys, theirs.maxKey()), ours.maxKey());
    assertEquals(theirs.minSequenceNumber(), ours.minSequenceNumber());
    assertEquals(theirs.maxSequenceNumber(), ours.maxSequenceNumber());
    assertEquals(theirs.deleteRowCount().orElseThrow(), ours.deleteRowCount());
    assertTrue(ours.deleteRowCount() > 0, "the rows hold -U and -D");
    assertEquals(Files.size(dir.resolve("ours/data.parquet")), ours.fileSize());
    assertEquals(theirs.fileSize(), ours.fileSize(), "every column type takes Paimon's bytes");

    assertEquals(
        PaimonReference.stats(
            keys,
            theirs.keyStats().minValues(),
            theirs.keyStats().maxValues(),
            theirs.keyStats().nullCounts()),
        ours.keyStats());
    assertValueStats(theirs, ours);
  }

  /**
   * Paimon stores value stats densely: only the columns it names in valueStatsCols (all when it
   * names none, none when the list is empty).
   */
  private static void assertValueStats(DataFileMeta theirs, KeyValueFileMeta ours) {
    List<String> names = theirs.valueStatsCols();
    List<DataField> fields = new ArrayList<>();
    List<ColumnStats> expectedOurs = new ArrayList<>();
    for (int i = 0; i < AllTypes.VALUE_TYPE.size(); i++) {
      DataField field = AllTypes.VALUE_TYPE.field(i);
      if (names == null || names.contains(field.name())) {
        fields.add(field);
        expectedOurs.add(ours.valueStats().get(i));
      } else {
        assertEquals(new ColumnStats(null, null, null), ours.valueStats().get(i), field.name());
      }
    }
    List<ColumnStats> paimonStats =
        PaimonReference.stats(
            fields,
            theirs.valueStats().minValues(),
            theirs.valueStats().maxValues(),
            theirs.valueStats().nullCounts());
    for (int i = 0; i < fields.size(); i++) {
      assertEquals(paimonStats.get(i), expectedOurs.get(i), fields.get(i).name());
    }
  }

  @Test
  void statsOverManyRowGroupsEqualStatsOfOneAndAnotherCodecReadsBack() throws Exception {
    List<KeyValue> rows = AllTypes.sortedRows(400, 5);
    ObjectStore store = new LocalObjectStore(dir);
    KeyValueFileMeta one =
        KeyValueFiles.write(
            store,
            "one.parquet",
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            rows,
            ParquetFileOptions.DEFAULTS);
    KeyValueFileMeta many =
        KeyValueFiles.write(
            store,
            "many.parquet",
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            rows,
            ParquetFileOptions.DEFAULTS
                .withCompression("snappy")
                .withRowGroupSize(4096)
                .withPageSize(1024));
    var footer = KeyValueFiles.footer(dir.resolve("many.parquet"));
    assertTrue(footer.getBlocks().size() > 1);
    for (ColumnChunkMetaData column : footer.getBlocks().get(0).getColumns()) {
      assertEquals(CompressionCodecName.SNAPPY, column.getCodec());
    }
    assertEquals(one.keyStats(), many.keyStats());
    assertEquals(one.valueStats(), many.valueStats());
    // A codec other than zstd is read through Parquet's own decompressors.
    try (KeyValueFileReader read =
        KeyValueFileReader.open(store, "many.parquet", AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE)) {
      for (KeyValue written : rows) {
        assertTrue(read.hasNext());
        KeyValue back = read.next();
        assertArrayEquals(written.key(), back.key());
        assertEquals(written.sequenceNumber(), back.sequenceNumber());
        assertArrayEquals(written.value(), back.value());
      }
      assertFalse(read.hasNext());
    }
  }

  @Test
  void nullInNotNullColumnIsRejectedNamingTheColumn() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    KeyValue kv = AllTypes.sortedRows(1, 6).get(0);
    Object[] value = kv.value().clone();
    value[value.length - 1] = null;
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(
            store,
            "bad.parquet",
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            ParquetFileOptions.DEFAULTS)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> writer.write(new KeyValue(kv.key(), 0, RowKind.INSERT, value)));
      assertTrue(e.getMessage().contains("c_int_required"), e.getMessage());
    }
  }

  @Test
  void unfinishedWriterLeavesNoObject() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    try (KeyValueFileWriter writer =
        KeyValueFileWriter.create(
            store,
            "partial.parquet",
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            ParquetFileOptions.DEFAULTS)) {
      writer.write(AllTypes.sortedRows(1, 7).get(0));
    }
    assertFalse(store.exists("partial.parquet"));
  }
}
