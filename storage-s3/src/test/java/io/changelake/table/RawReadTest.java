package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.format.PaimonRows;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.RandomChangeStream.Case;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batch read takes the raw path (files read one after another, no merge) exactly when Paimon's
 * rule allows it, and returns what the merge returns and what Paimon 1.3.1 reads from the same
 * table, row kinds included.
 */
class RawReadTest {

  private static final TablePath PATH = RandomChangeStream.PATH;

  @TempDir Path warehouse;

  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (long seed = 1; seed <= 2; seed++) {
      for (String engine : List.of("deduplicate", "partial-update", "aggregation", "first-row")) {
        for (String producer : List.of("none", "lookup", "full-compaction")) {
          if (!engine.equals("first-row") || producer.equals("lookup")) {
            cases.add(new Case(engine, producer, seed, false));
          }
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rawAndMergedReadsOfEverySplitAgreeWithEachOtherAndWithPaimon(Case c) throws Exception {
    RandomChangeStream stream = new RandomChangeStream(c, 300);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, stream.schema());
      stream.write(table, 1500, 6);
      TableRead read = table.newRead();
      List<String> ours = new ArrayList<>();
      for (BucketSplit split : read.splits(table.snapshots().latest().orElseThrow())) {
        List<String> asRead = kindedRows(read.read(split));
        assertEquals(kindedRows(read.merged(split)), asRead, c + " " + split.files());
        assertEquals(values(read.read(split)), withoutKinds(asRead), c + " values alone");
        assertEquals(asInserts(asRead), inserts(read.read(split)), c + " handed to a sink");
        // The last column, then the second: no key column, unless the table is partitioned.
        int[] columns = {table.schema().rowType().size() - 1, 1};
        assertEquals(
            kindedRows(read.read(split), columns),
            kindedRows(read.read(split, columns), null),
            c + " columns " + Arrays.toString(columns));
        assertEquals(
            asInserts(kindedRows(read.read(split), columns)),
            inserts(read.read(split, columns)),
            c + " columns " + Arrays.toString(columns) + " handed to a sink");
        ours.addAll(asRead);
      }
      ours.sort(null);
      assertEquals(paimonKindedRows(table), ours, c.toString());
    }
  }

  @Test
  void aFullyCompactedBucketIsReadRawAsInserts() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of("target-file-size", "4 kb")));
      writeUpdates(table, 1, 3000, CompactionRequest.FULL);
      TableRead read = table.newRead();
      BucketSplit split = onlySplit(table);
      assertTrue(split.files().size() > 1, "several files at one level: " + split.files());
      assertTrue(split.files().stream().allMatch(f -> f.level() > 0));
      assertTrue(readsRaw(read, split));
      List<String> rows = kindedRows(read.read(split));
      assertEquals(3000, rows.size());
      assertTrue(rows.stream().allMatch(r -> r.startsWith("+I")), "Paimon reads raw rows as +I");
      assertEquals(paimonKindedRows(table), sorted(rows));
      List<Long> keys = new ArrayList<>();
      try (TableRead.MergedRows raw = read.read(split)) {
        raw.forEachRemaining(row -> keys.add((Long) row[0]));
      }
      assertEquals(LongStream.range(0, 3000).boxed().toList(), keys, "key order, file by file");
    }
  }

  @Test
  void aLoneLevelZeroFileWithoutRetractionsIsReadRaw() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      writeUpdates(table, 1, 100, CompactionRequest.AUTO);
      BucketSplit split = onlySplit(table);
      assertEquals(0, split.files().get(0).level());
      assertTrue(readsRaw(table.newRead(), split));
      assertEquals(paimonKindedRows(table), sorted(kindedRows(table.newRead().read(split))));
    }
  }

  @Test
  void aRawReadTakenByNextRefusesKeyValuesWhileItsBulkBatchLasts() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse);
        TableRead.MergedRows rows = rawReadOfUpdates(store)) {
      assertTrue(rows.raw());
      assertEquals(0L, rows.next()[0]);
      IllegalStateException e = assertThrows(IllegalStateException.class, rows::nextKeyValue);
      assertTrue(e.getMessage().contains("next()"), e.getMessage());
      // The rows go on from where next() left them, nothing lost.
      long count = 1;
      for (; rows.hasNext(); count++) {
        assertEquals(count, rows.next()[0]);
      }
      assertEquals(3000, count);
    }
  }

  /** The raw read of a new table's one split: upserts of keys 0 to 2,999 in one commit. */
  private static TableRead.MergedRows rawReadOfUpdates(LocalObjectStore store) throws Exception {
    Table table = Table.create(store, PATH, Orders.schema(Map.of()));
    writeUpdates(table, 1, 3000, CompactionRequest.AUTO);
    return table.newRead().read(onlySplit(table));
  }

  @Test
  void aRawReadTakenByNextRefusesASinkWhileItsBulkBatchLastsThenHandsItTheRest() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse);
        TableRead.MergedRows rows = rawReadOfUpdates(store)) {
      List<Long> keys = new ArrayList<>();
      int refused = 0;
      while (true) {
        keys.add((Long) rows.next()[0]);
        try {
          rows.insertsTo(r -> keys.add(r.getLong(0)));
          break;
        } catch (IllegalStateException e) {
          assertTrue(e.getMessage().contains("next()"), e.getMessage());
          refused++;
        }
      }
      assertTrue(refused > 0, "the bulk batch of next() held more than one row");
      assertEquals(LongStream.range(0, 3000).boxed().toList(), keys, "every row once, in order");
    }
  }

  @Test
  void aFileWithRetractionsOrFilesAtSeveralLevelsAreMerged() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      SnapshotCommit commit = table.newCommit("test");
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1, 1L, 1L));
        writer.write(RowKind.INSERT, Orders.row(2, 2L, 2L));
        writer.write(RowKind.DELETE, Orders.row(3, 3L, 3L));
        commit.commit(1, writer.prepareCommit(1));
      }
      BucketSplit lone = onlySplit(table);
      assertEquals(1L, lone.files().get(0).deleteRowCount());
      assertFalse(readsRaw(table.newRead(), lone), "a retraction needs the merge");
      assertEquals(List.of("+I[1, 1, 1]", "+I[2, 2, 2]"), kindedRows(table.newRead().read(lone)));

      writeUpdates(table, 2, 50, CompactionRequest.FULL);
      writeUpdates(table, 3, 10, CompactionRequest.AUTO);
      BucketSplit levels = onlySplit(table);
      assertTrue(levels.files().stream().anyMatch(f -> f.level() == 0));
      assertTrue(levels.files().stream().anyMatch(f -> f.level() > 0));
      assertFalse(readsRaw(table.newRead(), levels), "level 0 beside a higher level");
      assertEquals(paimonKindedRows(table), sorted(kindedRows(table.newRead().read(levels))));
    }
  }

  @Test
  void filesThatDoNotCountTheirRetractionsAreMergedKeepingTheStoredKind() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      writeUpdates(table, 1, 20, CompactionRequest.FULL);
      BucketSplit counted = onlySplit(table);
      List<DataFileMeta> legacy = new ArrayList<>();
      for (DataFileMeta f : counted.files()) {
        legacy.add(withoutDeleteRowCount(f));
      }
      BucketSplit uncounted =
          new BucketSplit(counted.snapshotId(), counted.partition(), counted.bucket(), legacy);
      TableRead read = table.newRead();
      assertFalse(readsRaw(read, uncounted));
      List<String> rows = kindedRows(read.read(uncounted));
      assertEquals(20, rows.size());
      // Paimon's PrimaryKeyTableRawFileSplitReadProvider refuses such a split; its merge keeps
      // the +U the rows were written with.
      assertTrue(rows.stream().allMatch(r -> r.startsWith("+U")), rows.toString());
    }
  }

  @Test
  void aTableThatPaimonCompactedFullyIsReadRawAsPaimonReadsIt() throws Exception {
    TableSchema schema =
        Orders.schema(Map.of("changelog-producer", "full-compaction", "bucket", "2"));
    FileStoreTable paimon = PaimonTables.create(warehouse.resolve(PATH.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(paimon, schema, warehouse.resolve("io"))) {
      PaimonStreams.writeRandomChanges(writer, 7, 5);
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      TableRead read = table.newRead();
      List<String> ours = new ArrayList<>();
      for (BucketSplit split : read.splits(table.snapshots().latest().orElseThrow())) {
        assertTrue(readsRaw(read, split), split.files().toString());
        ours.addAll(kindedRows(read.read(split)));
      }
      assertEquals(paimonKindedRows(table), sorted(ours));
    }
  }

  /**
   * A deduplicate table with a {@code sequence.field} keeps each key's greatest version, not its
   * last: random upserts and deletions, their sequence field drawn out of order, in commits that
   * leave files at level 0 beside files above. Each merged split hands a sink the rows its reader
   * gives, whole and cut to some columns, and the table reads as Paimon reads it.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"none", "lookup", "full-compaction"})
  void aSequenceFieldTableHandsASinkTheVersionsThatWinAsItsReaderAndPaimonRead(String producer)
      throws Exception {
    Random random = new Random(producer.hashCode());
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(
                  Map.of(
                      "changelog-producer", producer,
                      "sequence.field", "amount",
                      "num-sorted-run.compaction-trigger", "5",
                      // A full compaction every fourth commit: the last two leave level 0.
                      "full-compaction.delta-commits", "4")));
      SnapshotCommit commit = table.newCommit("test");
      for (long id = 1; id <= 6; id++) {
        try (TableWriter writer = table.newWriter()) {
          for (int i = 0; i < 400; i++) {
            long key = random.nextInt(300);
            Long amount = random.nextInt(8) == 0 ? null : (long) random.nextInt(1000);
            RowKind kind = random.nextInt(6) == 0 ? RowKind.DELETE : RowKind.INSERT;
            writer.write(kind, Orders.row(key, id, amount));
          }
          commit.commit(id, writer.prepareCommit(id, CompactionRequest.AUTO));
        }
      }
      TableRead read = table.newRead();
      List<String> ours = new ArrayList<>();
      int merged = 0;
      for (BucketSplit split : read.splits(table.snapshots().latest().orElseThrow())) {
        merged += readsRaw(read, split) ? 0 : 1;
        List<String> asRead = kindedRows(read.read(split));
        assertEquals(asInserts(asRead), inserts(read.read(split)), producer + " handed to a sink");
        int[] columns = {2, 0};
        assertEquals(
            asInserts(kindedRows(read.read(split), columns)),
            inserts(read.read(split, columns)),
            producer + " columns " + Arrays.toString(columns) + " handed to a sink");
        ours.addAll(asRead);
      }
      assertTrue(merged > 0, "no split was merged");
      assertEquals(paimonKindedRows(table), sorted(ours), producer);
    }
  }

  /** Upserts (+U) of keys 0 to {@code keys - 1}, committed as {@code id} with {@code request}. */
  static void writeUpdates(Table table, long id, int keys, CompactionRequest request)
      throws Exception {
    SnapshotCommit commit = table.newCommit("test");
    try (TableWriter writer = table.newWriter()) {
      for (long k = 0; k < keys; k++) {
        writer.write(RowKind.UPDATE_AFTER, Orders.row(k, id, k * id));
      }
      commit.commit(id, writer.prepareCommit(id, request));
    }
  }

  static BucketSplit onlySplit(Table table) throws Exception {
    List<BucketSplit> splits = table.newRead().splits(table.snapshots().latest().orElseThrow());
    assertEquals(1, splits.size());
    return splits.get(0);
  }

  private static DataFileMeta withoutDeleteRowCount(DataFileMeta f) {
    return new DataFileMeta(
        f.fileName(),
        f.fileSize(),
        f.rowCount(),
        f.minKey(),
        f.maxKey(),
        f.keyStats(),
        f.valueStats(),
        f.minSequenceNumber(),
        f.maxSequenceNumber(),
        f.schemaId(),
        f.level(),
        f.extraFiles(),
        f.creationTimeMillis(),
        null,
        f.fileSource(),
        f.valueStatsCols());
  }

  /** Whether {@code read} reads the split raw; the read opened to ask is closed. */
  private static boolean readsRaw(TableRead read, BucketSplit split) throws Exception {
    try (TableRead.MergedRows rows = read.read(split)) {
      return rows.raw();
    }
  }

  /** The rows as kind and values, as read through {@link TableRead.MergedRows#nextKeyValue}. */
  private static List<String> kindedRows(TableRead.MergedRows rows) {
    return kindedRows(rows, null);
  }

  /**
   * The rows as {@link #kindedRows(TableRead.MergedRows)}, cut down to {@code columns}, or whole if
   * it is null.
   */
  private static List<String> kindedRows(TableRead.MergedRows rows, int[] columns) {
    List<String> texts = new ArrayList<>();
    try (rows) {
      while (rows.hasNext()) {
        KeyValue kv = rows.nextKeyValue();
        Object[] values =
            columns == null ? kv.value() : BucketAssigner.project(kv.value(), columns);
        texts.add(kv.kind().shortString() + Arrays.toString(values));
      }
    }
    return texts;
  }

  /** The rows' values, as read through {@link TableRead.MergedRows#next}. */
  private static List<String> values(TableRead.MergedRows rows) {
    List<String> texts = new ArrayList<>();
    try (rows) {
      rows.forEachRemaining(row -> texts.add(Arrays.toString(row)));
    }
    return texts;
  }

  /**
   * The rows as {@link TableRead.MergedRows#insertsTo} hands them, kind and values, each value read
   * through the view's getter of its type, which must agree with {@link ChangeRow#get} and {@link
   * ChangeRow#isNullAt}; and each row kept by {@link ChangeRow#toKeyValue} equal to its view.
   */
  private static List<String> inserts(TableRead.MergedRows rows) throws Exception {
    List<String> texts = new ArrayList<>();
    List<KeyValue> kept = new ArrayList<>();
    try (rows) {
      rows.insertsTo(
          row -> {
            Object[] values = new Object[row.columnCount()];
            for (int c = 0; c < values.length; c++) {
              values[c] = row.get(c);
              assertEquals(values[c] == null, row.isNullAt(c));
              if (values[c] instanceof Long) {
                assertEquals(values[c], row.getLong(c));
              } else if (values[c] instanceof Integer) {
                assertEquals(values[c], row.getInt(c));
              }
            }
            texts.add(row.kind().shortString() + Arrays.toString(values));
            kept.add(row.toKeyValue());
          });
    }
    for (int i = 0; i < kept.size(); i++) {
      KeyValue kv = kept.get(i);
      assertEquals(texts.get(i), kv.kind().shortString() + Arrays.toString(kv.value()));
    }
    return texts;
  }

  /** The rows with every kind made +I, as a read of the table's state reports them. */
  private static List<String> asInserts(List<String> kinded) {
    return kinded.stream().map(r -> "+I" + r.substring(2)).toList();
  }

  private static List<String> withoutKinds(List<String> kinded) {
    return kinded.stream().map(r -> r.substring(2)).toList();
  }

  private static List<String> sorted(List<String> rows) {
    List<String> copy = new ArrayList<>(rows);
    copy.sort(null);
    return copy;
  }

  /** Paimon's batch read of the table's latest snapshot, kinds included, sorted. */
  private List<String> paimonKindedRows(Table table) throws Exception {
    FileStoreTable paimon = PaimonTables.open(warehouse.resolve(PATH.root()));
    PaimonRows converter = new PaimonRows(table.schema().rowType());
    ReadBuilder builder = paimon.newReadBuilder();
    List<String> rows = new ArrayList<>();
    try (RecordReader<InternalRow> reader =
        builder.newRead().createReader(builder.newScan().plan().splits())) {
      reader.forEachRemaining(
          row -> rows.add(row.getRowKind().shortString() + Arrays.toString(converter.toJava(row))));
    }
    rows.sort(null);
    return rows;
  }
}
