package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our data and changelog files take exactly as many bytes as Paimon 1.3.1's for the same rows: the
 * file size is part of the table's state, since universal compaction picks runs by their sizes (a
 * smaller file once made changelake compact other runs than Paimon, fuzz seed 1335). The rows are
 * those of the differential fuzzer's tables ({@code orders}: a BIGINT key, BIGINT, STRING and
 * BOOLEAN columns, nullable, and a column that is always null), from one row to files of several
 * pages with dictionaries that overflow. Beyond the size, the footers must agree page for page: the
 * same row groups, column chunks of the same sizes, encodings and statistics, and column and offset
 * indexes of the same lengths.
 */
class KeyValueFileSizeMatchesPaimonTest {

  private static final RowType VALUE_TYPE =
      RowType.of(
          new String[] {"order_id", "store_id", "amount", "note", "flag", "region", "unset"},
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.bigint(),
            DataType.bigint(),
            DataType.string(),
            DataType.booleanType(),
            DataType.bigint(),
            DataType.string()
          });
  private static final RowType KEY_TYPE = VALUE_TYPE.project(new int[] {0});

  @TempDir Path dir;

  /**
   * A row set: how many keys, how many versions of each, how long the notes are, and how many pages
   * a column of the file (0 the key, 6 the notes) takes at least.
   */
  record Rows(
      String name, int keys, boolean updatePairs, int noteLength, int column, int minPages) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> rowSets() {
    return Stream.of(
            new Rows("one row", 1, false, 8, 0, 1),
            new Rows("a few rows", 5, false, 8, 0, 1),
            new Rows("a hundred rows", 100, false, 8, 0, 1),
            // Past Parquet's 20,000 rows a page, and past one page's dictionary check.
            new Rows("several pages by row count", 45_000, false, 8, 0, 3),
            // Pages of 1 MiB by bytes, and a STRING dictionary past its 1 MiB that falls back.
            new Rows("several pages by bytes", 6_000, false, 700, 6, 3),
            // A changelog file: -U and +U of every key, so keys repeat within the file.
            new Rows("changelog with repeated keys", 3_000, true, 8, 0, 1))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rowSets")
  void fileTakesAsManyBytesAsPaimonsForTheSameRows(Rows set) throws Exception {
    List<KeyValue> rows = rows(set);
    Path paimonTable = dir.resolve("paimon");
    PaimonReference.WrittenFile data =
        PaimonReference.write(
            paimonTable,
            VALUE_TYPE,
            List.of("order_id"),
            rows,
            set.updatePairs() ? Map.of("changelog-producer", "input") : Map.of());
    Path theirs = set.updatePairs() ? PaimonReference.changelogFile(paimonTable) : data.file();
    LocalObjectStore store = new LocalObjectStore(dir.resolve("ours"));
    KeyValueFileMeta ours =
        KeyValueFiles.write(
            store, "data.parquet", KEY_TYPE, VALUE_TYPE, rows, ParquetFileOptions.DEFAULTS);

    Path our = dir.resolve("ours/data.parquet");
    assertSameLayout(KeyValueFiles.footer(theirs), KeyValueFiles.footer(our));
    int columns = VALUE_TYPE.size() + 3;
    for (int c = 0; c < columns; c++) {
      assertEquals(pages(theirs, c), pages(our, c), "pages of column " + c);
    }
    assertTrue(pages(our, set.column()) >= set.minPages(), "pages of column " + set.column());
    assertEquals(Files.size(theirs), ours.fileSize(), "file size");
    if (!set.updatePairs()) {
      assertEquals(data.meta().fileSize(), ours.fileSize(), "file size in the metadata");
    }
  }

  /** The pages of a column over all row groups of a file. */
  private static int pages(Path file, int column) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      int pages = 0;
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        pages += reader.readOffsetIndex(block.getColumns().get(column)).getPageCount();
      }
      return pages;
    }
  }

  /** Row groups, column chunks, encodings, statistics and index lengths, column by column. */
  private static void assertSameLayout(ParquetMetadata theirs, ParquetMetadata ours) {
    assertEquals(
        theirs.getFileMetaData().getCreatedBy(), ours.getFileMetaData().getCreatedBy(), "writer");
    assertEquals(
        theirs.getFileMetaData().getKeyValueMetaData(),
        ours.getFileMetaData().getKeyValueMetaData(),
        "key-value metadata");
    assertEquals(theirs.getBlocks().size(), ours.getBlocks().size(), "row groups");
    for (int b = 0; b < theirs.getBlocks().size(); b++) {
      BlockMetaData their = theirs.getBlocks().get(b);
      BlockMetaData our = ours.getBlocks().get(b);
      assertEquals(their.getRowCount(), our.getRowCount(), "rows of row group " + b);
      for (int c = 0; c < their.getColumns().size(); c++) {
        assertSameChunk(their.getColumns().get(c), our.getColumns().get(c));
      }
    }
  }

  private static void assertSameChunk(ColumnChunkMetaData theirs, ColumnChunkMetaData ours) {
    String column = theirs.getPath().toDotString();
    assertEquals(theirs.getPath(), ours.getPath());
    assertEquals(theirs.getEncodings(), ours.getEncodings(), column + " encodings");
    assertEquals(
        theirs.getEncodingStats().getDataEncodings(),
        ours.getEncodingStats().getDataEncodings(),
        column + " page encodings");
    assertEquals(theirs.getFirstDataPageOffset(), ours.getFirstDataPageOffset(), column);
    assertEquals(theirs.getDictionaryPageOffset(), ours.getDictionaryPageOffset(), column);
    assertEquals(theirs.getTotalSize(), ours.getTotalSize(), column + " bytes");
    assertEquals(
        theirs.getTotalUncompressedSize(),
        ours.getTotalUncompressedSize(),
        column + " uncompressed bytes");
    assertEquals(
        theirs.getStatistics().toString(), ours.getStatistics().toString(), column + " stats");
    assertEquals(
        theirs.getSizeStatistics().getDefinitionLevelHistogram(),
        ours.getSizeStatistics().getDefinitionLevelHistogram(),
        column + " definition level histogram");
    assertEquals(
        theirs.getSizeStatistics().getUnencodedByteArrayDataBytes(),
        ours.getSizeStatistics().getUnencodedByteArrayDataBytes(),
        column + " unencoded bytes");
    assertEquals(
        theirs.getColumnIndexReference().getLength(),
        ours.getColumnIndexReference().getLength(),
        column + " column index");
    assertEquals(
        theirs.getOffsetIndexReference().getLength(),
        ours.getOffsetIndexReference().getLength(),
        column + " offset index");
    assertEquals(theirs.getBloomFilterLength(), ours.getBloomFilterLength(), column + " bloom");
  }

  /**
   * The rows in key order, numbered 0 to n-1 in that order as Paimon numbers what it is given: for
   * a changelog set a -U and a +U of every key, else one row a key of any kind.
   */
  private static List<KeyValue> rows(Rows set) {
    Random random = new Random(set.keys() * 31L + set.noteLength());
    List<KeyValue> rows = new ArrayList<>();
    for (int k = 0; k < set.keys(); k++) {
      List<RowKind> kinds =
          set.updatePairs()
              ? List.of(RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER)
              : List.of(RowKind.values()[random.nextInt(10) < 7 ? 0 : 1 + random.nextInt(3)]);
      for (RowKind kind : kinds) {
        long key = k * 3L - 40;
        Object[] value = {
          key,
          random.nextInt(4) == 0 ? null : (long) random.nextInt(5),
          (long) random.nextInt(100_000) - 50_000,
          random.nextInt(3) == 0 ? null : note(random, set.noteLength()),
          random.nextInt(5) == 0 ? null : random.nextBoolean(),
          1L,
          null
        };
        rows.add(new KeyValue(new Object[] {key}, rows.size(), kind, value));
      }
    }
    return rows;
  }

  private static String note(Random random, int length) {
    StringBuilder note = new StringBuilder("note-").append(random.nextInt(1_000));
    while (note.length() < length) {
      note.append((char) ('a' + random.nextInt(26)));
    }
    return note.toString();
  }
}
