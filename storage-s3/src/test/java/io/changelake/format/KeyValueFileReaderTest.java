package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import io.changelake.store.RecordingObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyValueFileReaderTest {

  private static final Path REFERENCE = Path.of("/work/shared/reference/paimon-1.3.1/input/orders");
  private static final RowType ORDERS =
      RowType.of(
          new String[] {"order_id", "store_id", "amount"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()});
  private static final RowType ORDER_KEY = ORDERS.project(new int[] {0});

  @TempDir static Path dir;
  static List<KeyValue> rows;
  static PaimonReference.WrittenFile paimon;

  @BeforeAll
  static void writeEveryTypeWithPaimon() throws Exception {
    rows = AllTypes.sortedRows(300, 2);
    paimon =
        PaimonReference.write(
            dir.resolve("paimon"), AllTypes.VALUE_TYPE, AllTypes.PRIMARY_KEY, rows, Map.of());
  }

  @Test
  void readsEveryTypeNullSequenceNumberAndKindPaimonWrote() throws IOException {
    ObjectStore store = new LocalObjectStore(paimon.file().getParent());
    List<KeyValue> read =
        KeyValueFiles.read(
            store,
            paimon.file().getFileName().toString(),
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            null);
    KeyValueFiles.assertSameKeyValues(rows, read);
  }

  @Test
  void readsReferenceDataAndChangelogFilesOfPaimon131() throws IOException {
    ObjectStore store = new LocalObjectStore(REFERENCE.resolve("bucket-0"));
    List<String> all = new ArrayList<>();
    for (ObjectInfo file : store.list("")) {
      for (KeyValue kv : KeyValueFiles.read(store, file.path(), ORDER_KEY, ORDERS, null)) {
        all.add(
            file.path().substring(0, file.path().indexOf('-'))
                + " "
                + kv.key()[0]
                + " "
                + kv.sequenceNumber()
                + " "
                + kv.kind().shortString()
                + " "
                + Arrays.toString(kv.value()));
      }
    }
    // The seed script: +I 1001 (store 10, amount 100), then -U/+U to amount 80, two commits.
    assertEquals(
        List.of(
            "changelog 1001 0 +I [1001, 10, 100]",
            "changelog 1001 1 -U [1001, 10, 100]",
            "changelog 1001 2 +U [1001, 10, 80]",
            "data 1001 0 +I [1001, 10, 100]",
            "data 1001 2 +U [1001, 10, 80]"),
        all);
  }

  @Test
  void projectionReturnsOnlyTheAskedColumnsInTheirOrder() throws IOException {
    ObjectStore store = new LocalObjectStore(paimon.file().getParent());
    int[] projection = {21, 3, 0};
    List<KeyValue> read =
        KeyValueFiles.read(
            store,
            paimon.file().getFileName().toString(),
            AllTypes.KEY_TYPE,
            AllTypes.VALUE_TYPE,
            projection);
    KeyValueFiles.assertSameKeyValues(projected(rows, projection), read);
  }

  @Test
  void aFileOfAnOlderSchemaReadsAsTheCurrentColumnsByFieldId() throws IOException {
    RowType keyType = new RowType(List.of(new DataField(0, "id", DataType.bigint().notNull())));
    RowType written =
        new RowType(
            List.of(
                new DataField(0, "id", DataType.bigint().notNull()),
                new DataField(1, "small", DataType.tinyint()),
                new DataField(2, "gone", DataType.string()),
                new DataField(3, "f", DataType.floatType()),
                new DataField(4, "v", DataType.varchar(5))));
    // The key renamed, small widened twice, gone dropped, f widened, v renamed and widened,
    // a column added: first in the row, so no position survives.
    RowType current =
        new RowType(
            List.of(
                new DataField(5, "added", DataType.intType()),
                new DataField(0, "order_id", DataType.bigint().notNull()),
                new DataField(4, "label", DataType.varchar(50)),
                new DataField(1, "small", DataType.bigint()),
                new DataField(3, "f", DataType.doubleType())));
    RowType currentKey =
        new RowType(List.of(new DataField(0, "order_id", DataType.bigint().notNull())));
    ObjectStore store = new LocalObjectStore(dir.resolve("evolved"));
    KeyValueFiles.write(
        store,
        "old.parquet",
        keyType,
        written,
        List.of(
            new KeyValue(
                new Object[] {1L},
                7,
                RowKind.INSERT,
                new Object[] {1L, (byte) -3, "x", 0.5f, "ab"}),
            new KeyValue(
                new Object[] {2L}, 8, RowKind.DELETE, new Object[] {2L, null, null, null, null})),
        ParquetFileOptions.DEFAULTS);

    ColumnMapping mapping = ColumnMapping.of(written, current);
    List<KeyValue> all = new ArrayList<>();
    List<KeyValue> keyOnly = new ArrayList<>();
    try (KeyValueFileReader reader =
            KeyValueFileReader.open(store, "old.parquet", currentKey, mapping, null);
        KeyValueFileReader projected =
            KeyValueFileReader.open(store, "old.parquet", currentKey, mapping, new int[] {3, 0})) {
      reader.forEachRemaining(all::add);
      projected.forEachRemaining(keyOnly::add);
    }

    KeyValueFiles.assertSameKeyValues(
        List.of(
            new KeyValue(
                new Object[] {1L}, 7, RowKind.INSERT, new Object[] {null, 1L, "ab", -3L, 0.5d}),
            new KeyValue(
                new Object[] {2L}, 8, RowKind.DELETE, new Object[] {null, 2L, null, null, null})),
        all);
    // Without the key among the read columns, the key comes from the file's _KEY_id column.
    KeyValueFiles.assertSameKeyValues(
        List.of(
            new KeyValue(new Object[] {1L}, 7, RowKind.INSERT, new Object[] {-3L, null}),
            new KeyValue(new Object[] {2L}, 8, RowKind.DELETE, new Object[] {null, null})),
        keyOnly);
  }

  @Test
  void aTypeChangeThatIsNoWideningIsRefusedByTheMapping() {
    RowType written = new RowType(List.of(new DataField(1, "n", DataType.bigint())));
    RowType current = new RowType(List.of(new DataField(1, "n", DataType.intType())));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ColumnMapping.of(written, current));
    assertTrue(e.getMessage().contains("no widening"), e.getMessage());
  }

  @Test
  void readsBackWhatTheWriterWroteAcrossManyRowGroups() throws IOException {
    ObjectStore store = manyRowGroups("ours");
    KeyValueFiles.assertSameKeyValues(
        rows,
        KeyValueFiles.read(store, "data.parquet", AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, null));
  }

  @Test
  void smallFileIsReadWithOneRangeRequest() throws IOException {
    RecordingObjectStore counting =
        new RecordingObjectStore(new LocalObjectStore(REFERENCE.resolve("bucket-0")));
    List<KeyValue> read =
        KeyValueFiles.read(
            counting,
            "data-f851575d-f277-475f-ba78-b3e9dfbdd152-3.parquet",
            ORDER_KEY,
            ORDERS,
            null);
    assertEquals(1, read.size());
    assertEquals(1, counting.rangeRequests());
  }

  @Test
  void missingColumnIsNamedWithTheFile() throws IOException {
    ObjectStore store = new LocalObjectStore(REFERENCE.resolve("bucket-0"));
    RowType other =
        RowType.of(
            new String[] {"order_id", "price"},
            new DataType[] {DataType.bigint().notNull(), DataType.bigint()});
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                KeyValueFileReader.open(
                    store,
                    "data-f851575d-f277-475f-ba78-b3e9dfbdd152-3.parquet",
                    ORDER_KEY,
                    other));
    assertTrue(e.getMessage().contains("no column price"), e.getMessage());
  }

  @Test
  void kindsSurviveTheRoundTrip() throws IOException {
    ObjectStore store = new LocalObjectStore(dir.resolve("kinds"));
    List<KeyValue> kinds = new ArrayList<>();
    for (RowKind kind : RowKind.values()) {
      kinds.add(
          new KeyValue(
              new Object[] {(long) kind.ordinal()},
              10 + kind.ordinal(),
              kind,
              new Object[] {(long) kind.ordinal(), null, 5L}));
    }
    KeyValueFiles.write(store, "k.parquet", ORDER_KEY, ORDERS, kinds, ParquetFileOptions.DEFAULTS);
    KeyValueFiles.assertSameKeyValues(
        kinds, KeyValueFiles.read(store, "k.parquet", ORDER_KEY, ORDERS, null));
  }

  @Test
  void valuesReadInBulkAreTheRowsValuesAcrossRowGroupsPagesAndEveryType() throws IOException {
    ObjectStore ours = manyRowGroups("bulk");
    ObjectStore theirs = new LocalObjectStore(paimon.file().getParent());
    String theirFile = paimon.file().getFileName().toString();
    for (int batch : new int[] {1, 7, 1024}) {
      assertSameValues(rows, bulkValues(ours, "data.parquet", null, batch), "ours, " + batch);
      assertSameValues(rows, bulkValues(theirs, theirFile, null, batch), "Paimon's, " + batch);
      KeyValueFiles.assertSameKeyValues(rows, bulkKeyValues(ours, "data.parquet", null, batch));
      KeyValueFiles.assertSameKeyValues(rows, bulkKeyValues(theirs, theirFile, null, batch));
    }
    // Without the key among the columns, its _KEY_ columns are passed over with the rows, or
    // read for the key-values.
    int[] projection = {21, 3};
    List<KeyValue> projected = projected(rows, projection);
    assertSameValues(projected, bulkValues(ours, "data.parquet", projection, 5), "projected");
    KeyValueFiles.assertSameKeyValues(
        projected, bulkKeyValues(ours, "data.parquet", projection, 5));
  }

  @Test
  void columnBatchesHoldTheKeyValuesAcrossRowGroupsPagesAndEveryType() throws IOException {
    ObjectStore ours = manyRowGroups("batches");
    ObjectStore theirs = new LocalObjectStore(paimon.file().getParent());
    String theirFile = paimon.file().getFileName().toString();
    for (int[] projection : new int[][] {null, {21, 3}}) {
      List<KeyValue> expected = projection == null ? rows : projected(rows, projection);
      for (ObjectStore store : List.of(ours, theirs)) {
        String file = store == ours ? "data.parquet" : theirFile;
        try (KeyValueFileReader reader =
            KeyValueFileReader.open(
                store, file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, projection)) {
          KeyValueFiles.assertSameKeyValues(expected, batchKeyValues(reader));
        }
      }
    }
  }

  @Test
  void aBatchRowReadsNumbersAndBooleansUnboxedAndRefusesAnotherTypesGetter() throws IOException {
    int big = AllTypes.VALUE_TYPE.indexOf("c_big");
    int integer = AllTypes.VALUE_TYPE.indexOf("c_int");
    int small = AllTypes.VALUE_TYPE.indexOf("c_small");
    int tiny = AllTypes.VALUE_TYPE.indexOf("c_tiny");
    int dbl = AllTypes.VALUE_TYPE.indexOf("c_double");
    int flt = AllTypes.VALUE_TYPE.indexOf("c_float");
    int bool = AllTypes.VALUE_TYPE.indexOf("c_bool");
    int text = AllTypes.VALUE_TYPE.indexOf("c_string");
    int[] nulls = new int[2];
    forEachBatchRowOfBothFiles(
        "views",
        (file, row, written) -> {
          Object[] expected = written.value();
          for (int column : new int[] {big, integer, small, tiny, dbl, flt, bool}) {
            assertEquals(expected[column] == null, row.isNullAt(column));
            if (expected[column] == null) {
              nulls[file]++;
              assertThrows(NullPointerException.class, () -> row.getLong(column));
            }
          }
          if (expected[big] != null) {
            assertEquals(expected[big], row.getLong(big));
            assertThrows(ClassCastException.class, () -> row.getInt(big));
          }
          if (expected[integer] != null) {
            assertEquals(expected[integer], row.getInt(integer));
            assertThrows(ClassCastException.class, () -> row.getLong(integer));
            assertThrows(ClassCastException.class, () -> row.getShort(integer));
          }
          if (expected[small] != null) {
            assertEquals(expected[small], row.getShort(small));
            assertEquals(expected[small], row.get(small));
            assertThrows(ClassCastException.class, () -> row.getInt(small));
            assertThrows(ClassCastException.class, () -> row.getByte(small));
          }
          if (expected[tiny] != null) {
            assertEquals(expected[tiny], row.getByte(tiny));
            assertEquals(expected[tiny], row.get(tiny));
            assertThrows(ClassCastException.class, () -> row.getInt(tiny));
          }
          if (expected[dbl] != null) {
            assertEquals(expected[dbl], row.getDouble(dbl));
          }
          if (expected[flt] != null) {
            assertEquals(expected[flt], row.getFloat(flt));
          }
          if (expected[bool] != null) {
            assertEquals(expected[bool], row.getBoolean(bool));
          }
          if (expected[text] != null) {
            assertThrows(ClassCastException.class, () -> row.getLong(text));
          }
        });
    assertTrue(nulls[0] > 0 && nulls[1] > 0, "no null read: " + Arrays.toString(nulls));
  }

  /** Checks one row of a file read in column batches against the key-value written for it. */
  private interface BatchRowCheck {
    /**
     * @param file 0 for our file of many row groups, 1 for Paimon's
     */
    void check(int file, ChangeRow row, KeyValue written);
  }

  /**
   * Reads our file of many row groups (made under {@code name}) and Paimon's file of every type in
   * column batches, and checks every row; both must hold every row written.
   */
  private void forEachBatchRowOfBothFiles(String name, BatchRowCheck check) throws IOException {
    List<ObjectStore> stores =
        List.of(manyRowGroups(name), new LocalObjectStore(paimon.file().getParent()));
    for (int f = 0; f < stores.size(); f++) {
      String file = f == 0 ? "data.parquet" : paimon.file().getFileName().toString();
      int r = 0;
      try (KeyValueFileReader reader =
          KeyValueFileReader.open(stores.get(f), file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE)) {
        KeyValueBatch batch = reader.newBatch();
        while (reader.nextBatch(batch) > 0) {
          for (int i = 0; i < batch.size(); i++, r++) {
            check.check(f, batch.row(i), rows.get(r));
          }
        }
      }
      assertEquals(rows.size(), r);
    }
  }

  @Test
  void aBatchRowIsWrittenAsABinaryRowByteForByteAsItsValuesAre() throws IOException {
    BinaryRowCodec values = new BinaryRowCodec(AllTypes.VALUE_TYPE);
    BinaryRowCodec keys = new BinaryRowCodec(AllTypes.KEY_TYPE);
    int[] keyInValue = AllTypes.VALUE_TYPE.positionsOf(AllTypes.KEY_TYPE);
    forEachBatchRowOfBothFiles(
        "binary",
        (file, row, written) -> {
          assertArrayEquals(values.encodeRow(written.value()), written(values, row, null));
          assertArrayEquals(keys.encodeRow(written.key()), written(keys, row, keyInValue));
        });
  }

  @Test
  void aBatchRowIsWrittenToADataFileByteForByteAsItsKeyValueIs() throws IOException {
    ObjectStore out = new LocalObjectStore(dir.resolve("rewritten"));
    List<KeyValueFileWriter> writers = new ArrayList<>();
    for (String name : List.of("ours-views", "ours-kvs", "paimons-views", "paimons-kvs")) {
      writers.add(
          KeyValueFileWriter.createSortedRun(
              out,
              name + ".parquet",
              AllTypes.KEY_TYPE,
              AllTypes.VALUE_TYPE,
              ParquetFileOptions.DEFAULTS));
    }
    forEachBatchRowOfBothFiles(
        "rewrite",
        (file, row, written) -> {
          try {
            writers.get(2 * file).write(row);
            writers.get(2 * file + 1).write(written);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    for (int file = 0; file < 2; file++) {
      KeyValueFileMeta views = writers.get(2 * file).finish();
      assertSameFile(dir.resolve("rewritten"), writers.get(2 * file + 1).finish(), views);
      assertEquals(rows.get(rows.size() - 1).key()[0], views.maxKey().get(0));
    }
  }

  /**
   * A row written under a kind that is not its own (a changelog's -U, -D or +I of a stored
   * version), a view or a key-value, is written byte for byte as a key-value of that kind, and
   * counted as a retraction by that kind.
   */
  @Test
  void aRowWrittenUnderAnotherKindIsWrittenAsAKeyValueOfThatKind() throws IOException {
    ObjectStore out = new LocalObjectStore(dir.resolve("rekinded"));
    List<KeyValueFileWriter> writers = new ArrayList<>();
    for (String file : List.of("ours", "paimons")) {
      for (String way : List.of("views", "kvs", "of-that-kind")) {
        writers.add(
            KeyValueFileWriter.createSortedRun(
                out,
                file + "-" + way + ".parquet",
                AllTypes.KEY_TYPE,
                AllTypes.VALUE_TYPE,
                ParquetFileOptions.DEFAULTS));
      }
    }
    RowKind[] kinds = RowKind.values();
    int[] written = {0};
    forEachBatchRowOfBothFiles(
        "rekinded",
        (file, row, keyValue) -> {
          RowKind kind = kinds[written[0]++ % kinds.length];
          try {
            writers.get(3 * file).write(row, kind);
            writers.get(3 * file + 1).write(keyValue, kind);
            writers
                .get(3 * file + 2)
                .write(
                    new KeyValue(
                        keyValue.key(), keyValue.sequenceNumber(), kind, keyValue.value()));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
    for (int file = 0; file < 2; file++) {
      KeyValueFileMeta ofThatKind = writers.get(3 * file + 2).finish();
      assertTrue(
          ofThatKind.deleteRowCount() > 0 && ofThatKind.deleteRowCount() < ofThatKind.rowCount(),
          "both kinds written");
      assertSameFile(dir.resolve("rekinded"), ofThatKind, writers.get(3 * file).finish());
      assertSameFile(dir.resolve("rekinded"), ofThatKind, writers.get(3 * file + 1).finish());
    }
  }

  /** The two files, in {@code folder}, have the same bytes and the same metadata. */
  private static void assertSameFile(
      Path folder, KeyValueFileMeta expected, KeyValueFileMeta actual) throws IOException {
    assertArrayEquals(
        Files.readAllBytes(folder.resolve(expected.path())),
        Files.readAllBytes(folder.resolve(actual.path())));
    assertEquals(expected.minKey(), actual.minKey());
    assertEquals(expected.maxKey(), actual.maxKey());
    assertEquals(expected.rowCount(), actual.rowCount());
    assertEquals(expected.minSequenceNumber(), actual.minSequenceNumber());
    assertEquals(expected.maxSequenceNumber(), actual.maxSequenceNumber());
    assertEquals(expected.deleteRowCount(), actual.deleteRowCount());
    assertEquals(expected.keyStats(), actual.keyStats());
    assertEquals(expected.valueStats(), actual.valueStats());
  }

  /** The BinaryRow {@code codec} writes of {@code row}'s {@code columns}. */
  private static byte[] written(BinaryRowCodec codec, ChangeRow row, int[] columns) {
    byte[] bytes = new byte[codec.writeRow(row, columns)];
    codec.copyLastRow(bytes, 0);
    return bytes;
  }

  @Test
  void keyValuesReadInBulkFromAnOlderSchemaAreConvertedAsRowByRow() throws IOException {
    RowType keyType = new RowType(List.of(new DataField(0, "id", DataType.bigint().notNull())));
    RowType written =
        new RowType(
            List.of(
                new DataField(0, "id", DataType.bigint().notNull()),
                new DataField(1, "small", DataType.intType())));
    RowType current =
        new RowType(
            List.of(
                new DataField(0, "id", DataType.bigint().notNull()),
                new DataField(1, "small", DataType.bigint()),
                new DataField(2, "added", DataType.string())));
    ObjectStore store = new LocalObjectStore(dir.resolve("evolved-bulk"));
    List<KeyValue> old = new ArrayList<>();
    for (long i = 0; i < 2500; i++) {
      old.add(
          new KeyValue(
              new Object[] {i},
              i,
              i % 5 == 0 ? RowKind.DELETE : RowKind.INSERT,
              new Object[] {i, i % 3 == 0 ? null : (int) i}));
    }
    KeyValueFiles.write(store, "old.parquet", keyType, written, old, ParquetFileOptions.DEFAULTS);
    ColumnMapping mapping = ColumnMapping.of(written, current);
    List<KeyValue> rowByRow = new ArrayList<>();
    List<KeyValue> inBulk = new ArrayList<>();
    try (KeyValueFileReader one =
            KeyValueFileReader.open(store, "old.parquet", keyType, mapping, null);
        KeyValueFileReader bulk =
            KeyValueFileReader.open(store, "old.parquet", keyType, mapping, null)) {
      one.forEachRemaining(rowByRow::add);
      bulk.keyValuesInBatches().forEachRemaining(inBulk::add);
    }
    assertEquals(2L, rowByRow.get(2).value()[1]);
    KeyValueFiles.assertSameKeyValues(rowByRow, inBulk);
    try (KeyValueFileReader batches =
        KeyValueFileReader.open(store, "old.parquet", keyType, mapping, null)) {
      KeyValueFiles.assertSameKeyValues(rowByRow, batchKeyValues(batches));
    }
  }

  @Test
  void rowReadsAfterABulkReadGoOnFromTheRowAfterIt() throws IOException {
    ObjectStore store = new LocalObjectStore(paimon.file().getParent());
    String file = paimon.file().getFileName().toString();
    for (int[] projection : new int[][] {null, {21, 3}}) {
      List<KeyValue> expected = projection == null ? rows : projected(rows, projection);
      List<KeyValue> read = new ArrayList<>();
      try (KeyValueFileReader reader =
          KeyValueFileReader.open(
              store, file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, projection)) {
        Object[][] batch = new Object[11][];
        KeyValue[] keyValues = new KeyValue[6];
        int position = 0;
        while (true) {
          // Eleven values in bulk, three key-values one by one, six in bulk, over and over.
          int n = reader.nextValues(batch);
          for (int r = 0; r < n; r++) {
            KeyValue e = expected.get(position++);
            read.add(new KeyValue(e.key(), e.sequenceNumber(), e.kind(), batch[r]));
          }
          for (int r = 0; r < 3 && reader.hasNext(); r++) {
            read.add(reader.next());
            position++;
          }
          n = reader.nextKeyValues(keyValues);
          read.addAll(Arrays.asList(keyValues).subList(0, n));
          position += n;
          if (!reader.hasNext()) {
            break;
          }
        }
      }
      KeyValueFiles.assertSameKeyValues(expected, read);
    }
  }

  /**
   * A key (BIGINT, STRING) read row by row, from the table columns or, under a projection without
   * them, from the file's own key columns: the BIGINT column is read unboxed, the string as an
   * object, and both are the written key's, column by column, in the key, and in a view of the row.
   */
  @Test
  void keyColumnsReadRowByRowAreTheWrittenKeysTheIntegralOneUnboxed() throws IOException {
    List<ObjectStore> stores =
        List.of(manyRowGroups("keys"), new LocalObjectStore(paimon.file().getParent()));
    for (ObjectStore store : stores) {
      String file =
          store == stores.get(0) ? "data.parquet" : paimon.file().getFileName().toString();
      for (int[] projection : new int[][] {null, {21, 3}}) {
        List<KeyValue> expected = projection == null ? rows : projected(rows, projection);
        List<KeyValue> read = new ArrayList<>();
        try (KeyValueFileReader reader =
            KeyValueFileReader.open(
                store, file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, projection)) {
          assertTrue(reader.readsKeyColumnUnboxed(0));
          assertFalse(reader.readsKeyColumnUnboxed(1));
          KeyValueBatch view = reader.newBatch(1);
          for (int i = 0; reader.advance(); i++) {
            Object[] key = expected.get(i).key();
            assertEquals((long) (Long) key[0], reader.integralKeyColumn(0));
            assertEquals(key[1], reader.keyColumn(1));
            if (i % 2 == 0) {
              read.add(reader.readCurrent(view).toKeyValue());
            } else {
              read.add(
                  new KeyValue(
                      reader.key(), reader.sequenceNumber(), reader.kind(), reader.value()));
              if (projection == null) {
                assertSame(reader.key()[0], reader.value()[0], "one box for key and value");
              }
            }
          }
        }
        KeyValueFiles.assertSameKeyValues(expected, read);
      }
    }
  }

  @Test
  void theSequenceNumberAndKindAskedForAfterRowsPassedOverAreTheCurrentRows() throws IOException {
    ObjectStore store = manyRowGroups("lazy");
    List<String> expected = new ArrayList<>();
    List<String> read = new ArrayList<>();
    try (KeyValueFileReader reader =
        KeyValueFileReader.open(store, "data.parquet", AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE)) {
      for (int i = 0; reader.advance(); i++) {
        // Asked for at uneven gaps, some spanning the end of a row group.
        if (i % 37 == 0 || i % 53 == 0) {
          expected.add(rows.get(i).sequenceNumber() + " " + rows.get(i).kind());
          read.add(reader.sequenceNumber() + " " + reader.kind());
        }
      }
    }
    assertEquals(expected, read);
  }

  @Test
  void theLastRowOfARowGroupStaysCurrentWhenAskedWhetherARowFollows() throws IOException {
    ObjectStore store = manyRowGroups("last");
    long firstGroup =
        KeyValueFiles.footer(dir.resolve("last/data.parquet")).getBlocks().get(0).getRowCount();
    try (KeyValueFileReader reader =
        KeyValueFileReader.open(store, "data.parquet", AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE)) {
      for (long i = 0; i < firstGroup; i++) {
        reader.advance();
      }
      assertTrue(reader.hasNext());
      KeyValue last = rows.get((int) firstGroup - 1);
      KeyValueFiles.assertSameKeyValues(
          List.of(last),
          List.of(
              new KeyValue(reader.key(), reader.sequenceNumber(), reader.kind(), reader.value())));
    }
  }

  /**
   * A store whose {@code data.parquet} holds {@link #rows} as our writer writes them, in row groups
   * and pages small enough that there are several of each.
   */
  private static ObjectStore manyRowGroups(String folder) throws IOException {
    ObjectStore store = new LocalObjectStore(dir.resolve(folder));
    KeyValueFiles.write(
        store,
        "data.parquet",
        AllTypes.KEY_TYPE,
        AllTypes.VALUE_TYPE,
        rows,
        ParquetFileOptions.DEFAULTS.withRowGroupSize(4096).withPageSize(512));
    assertTrue(KeyValueFiles.footer(dir.resolve(folder + "/data.parquet")).getBlocks().size() > 1);
    return store;
  }

  /** The rows' values read by {@link KeyValueFileReader#nextValues}, batch by batch. */
  private static List<Object[]> bulkValues(
      ObjectStore store, String file, int[] projection, int batchSize) throws IOException {
    List<Object[]> values = new ArrayList<>();
    try (KeyValueFileReader reader =
        KeyValueFileReader.open(store, file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, projection)) {
      Object[][] batch = new Object[batchSize][];
      int n;
      while ((n = reader.nextValues(batch)) > 0) {
        values.addAll(Arrays.asList(batch).subList(0, n));
      }
    }
    return values;
  }

  /** The rows read by {@link KeyValueFileReader#nextKeyValues}, batch by batch. */
  private static List<KeyValue> bulkKeyValues(
      ObjectStore store, String file, int[] projection, int batchSize) throws IOException {
    List<KeyValue> read = new ArrayList<>();
    try (KeyValueFileReader reader =
        KeyValueFileReader.open(store, file, AllTypes.KEY_TYPE, AllTypes.VALUE_TYPE, projection)) {
      KeyValue[] batch = new KeyValue[batchSize];
      int n;
      while ((n = reader.nextKeyValues(batch)) > 0) {
        read.addAll(Arrays.asList(batch).subList(0, n));
      }
    }
    return read;
  }

  /** The rows read by {@link KeyValueFileReader#nextBatch}, each taken from its batch. */
  private static List<KeyValue> batchKeyValues(KeyValueFileReader reader) {
    List<KeyValue> read = new ArrayList<>();
    KeyValueBatch batch = reader.newBatch();
    while (reader.nextBatch(batch) > 0) {
      for (int r = 0; r < batch.size(); r++) {
        read.add(batch.row(r).toKeyValue());
      }
    }
    return read;
  }

  private static void assertSameValues(
      List<KeyValue> expected, List<Object[]> values, String what) {
    assertEquals(expected.size(), values.size(), what);
    List<KeyValue> read = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      KeyValue e = expected.get(i);
      read.add(new KeyValue(e.key(), e.sequenceNumber(), e.kind(), values.get(i)));
    }
    KeyValueFiles.assertSameKeyValues(expected, read);
  }

  private static List<KeyValue> projected(List<KeyValue> rows, int[] projection) {
    return rows.stream()
        .map(
            kv ->
                new KeyValue(
                    kv.key(),
                    kv.sequenceNumber(),
                    kv.kind(),
                    Arrays.stream(projection).mapToObj(p -> kv.value()[p]).toArray()))
        .toList();
  }
}
