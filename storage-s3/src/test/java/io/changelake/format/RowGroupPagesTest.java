package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ParquetFooter} and {@link RowGroupPages} against Parquet's own file reader, on files
 * Parquet's own writer wrote: the same schema and row groups, and every column of every row group
 * reads the same values through Parquet's column reader, whichever the page version, encodings and
 * codec, nested and repeated columns included; and so does every column {@link DecodedColumnChunk}
 * reads over pages that share one decompressed array.
 */
class RowGroupPagesTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id = 1; optional binary s = 2; optional int32 few = 3;"
              + " optional double d = 4; optional boolean b = 5; repeated int32 tags = 6;"
              + " optional group g = 7 { optional int64 a = 8; required binary z = 9; }"
              + " required fixed_len_byte_array(3) fixed = 10; }");

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, dictionary {1}, {2}")
  @CsvSource({
    "PARQUET_1_0, true, ZSTD",
    "PARQUET_1_0, false, SNAPPY",
    "PARQUET_2_0, true, GZIP",
    "PARQUET_2_0, false, UNCOMPRESSED",
    "PARQUET_2_0, true, ZSTD",
    "PARQUET_1_0, false, ZSTD",
    "PARQUET_2_0, false, ZSTD"
  })
  void readsEveryColumnOfEveryRowGroupAsParquetsOwnReaderDoes(
      WriterVersion version, boolean dictionary, CompressionCodecName codec) throws IOException {
    Path file = dir.resolve("f.parquet");
    write(file, version, dictionary, codec, 12_000);
    int sharedArrayColumns = 0;
    try (LocalObjectStore store = new LocalObjectStore(dir);
        ParquetFileReader parquet = ParquetFiles.open(file)) {
      ObjectInputFile input =
          new ObjectInputFile(store, "f.parquet", Files.size(file), KeyValueFileReader.READ_AHEAD);
      try (ObjectInputFile.Stream in = input.newStream()) {
        ParquetFooter footer = ParquetFooter.read(in, input.getLength(), "f.parquet");
        assertEquals(SCHEMA, footer.schema());
        assertEquals(parquet.getFooter().getFileMetaData().getCreatedBy(), footer.createdBy());
        assertEquals(parquet.getRecordCount(), footer.rowCount());
        assertEquals(parquet.getRowGroups().size(), footer.rowGroups().size());
        assertTrue(footer.rowGroups().size() > 1, "several row groups");
        ColumnDescriptor[] columns = SCHEMA.getColumns().toArray(ColumnDescriptor[]::new);
        PageDecompression decompression = new PageDecompression(new PlainParquetConfiguration());
        try {
          for (int g = 0; g < footer.rowGroups().size(); g++) {
            ParquetFooter.RowGroup group = footer.rowGroups().get(g);
            for (ColumnChunkMetaData chunk : parquet.getRowGroups().get(g).getColumns()) {
              ColumnDescriptor column = SCHEMA.getColumnDescription(chunk.getPath().toArray());
              assertEquals(chunk.getEncodings(), group.chunk(column, "f").encodings());
              assertEquals(chunk.getCodec(), group.chunk(column, "f").codec());
            }
            PageReadStore theirs = parquet.readNextRowGroup();
            RowGroupPages ours = new RowGroupPages(in, group, columns, decompression, "f");
            assertEquals(theirs.getRowCount(), ours.getRowCount());
            RowGroupPages again = new RowGroupPages(in, group, columns, decompression, "f");
            for (ColumnDescriptor column : columns) {
              List<String> expected = values(theirs, column);
              assertEquals(expected, values(ours, column), column + " of row group " + g);
              if (DecodedColumnChunk.keepsNoPage(column)
                  && DecodedColumnChunk.decodes(again.encodings(column), column)) {
                sharedArrayColumns++;
                assertEquals(
                    expected,
                    decodedValues(again, column),
                    column + " of row group " + g + ", its pages sharing one array");
              }
            }
          }
        } finally {
          decompression.release();
        }
      }
    }
    assertTrue(sharedArrayColumns > 4, "id, few, d and b read over pages sharing one array");
  }

  /**
   * Every value of a column as {@link #values} gives it, read by {@link DecodedColumnChunk} over
   * {@link RowGroupPages#getTransientPageReader}: pages decompressed into one array, page after
   * page.
   */
  private static List<String> decodedValues(RowGroupPages pages, ColumnDescriptor column)
      throws IOException {
    DecodedColumnChunk decoded =
        new DecodedColumnChunk(
            column, pages.getTransientPageReader(column), ColumnCodec.of(DataType.bigint()));
    List<String> values = new ArrayList<>();
    for (long r = 0; r < pages.getRowCount(); r++) {
      Object value = decoded.read();
      values.add("0/" + (value == null ? 0 : column.getMaxDefinitionLevel()) + "/" + value);
    }
    return values;
  }

  @Test
  void aFileThatIsNotParquetIsRefusedByName() throws IOException {
    assertEquals(
        "data-1.parquet is not a Parquet file: it does not end with PAR1",
        footerFailure("{\"id\": 1, \"padding\": true}", "data-1.parquet"));
  }

  @Test
  void anEncryptedFileIsRefusedByName() throws IOException {
    assertEquals(
        "data-2.parquet is an encrypted Parquet file, which changelake does not read",
        footerFailure("PARE-some-encrypted-footer-0000PARE", "data-2.parquet"));
  }

  /** The message reading the footer of a file holding {@code content} fails with. */
  private String footerFailure(String content, String name) throws IOException {
    byte[] bytes = content.getBytes(StandardCharsets.US_ASCII);
    Files.write(dir.resolve(name), bytes);
    try (LocalObjectStore store = new LocalObjectStore(dir);
        SeekableInputStream in =
            new ObjectInputFile(store, name, bytes.length, 1 << 20).newStream()) {
      return assertThrows(IOException.class, () -> ParquetFooter.read(in, bytes.length, name))
          .getMessage();
    }
  }

  /** Every value and level of a column, through Parquet's column reader over {@code pages}. */
  private static List<String> values(PageReadStore pages, ColumnDescriptor column) {
    ColumnReader reader =
        new ColumnReadStoreImpl(pages, new Skip(SCHEMA), SCHEMA, "test").getColumnReader(column);
    List<String> values = new ArrayList<>();
    for (long i = 0; i < reader.getTotalValueCount(); i++) {
      int definition = reader.getCurrentDefinitionLevel();
      String value = "null";
      if (definition == column.getMaxDefinitionLevel()) {
        value =
            switch (column.getPrimitiveType().getPrimitiveTypeName()) {
              case INT64 -> Long.toString(reader.getLong());
              case INT32 -> Integer.toString(reader.getInteger());
              case DOUBLE -> Double.toString(reader.getDouble());
              case BOOLEAN -> Boolean.toString(reader.getBoolean());
              default -> Arrays.toString(reader.getBinary().getBytes());
            };
      }
      values.add(reader.getCurrentRepetitionLevel() + "/" + definition + "/" + value);
      reader.consume();
    }
    return values;
  }

  private static void write(
      Path file, WriterVersion version, boolean dictionary, CompressionCodecName codec, int rows)
      throws IOException {
    Random random = new Random(11);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ParquetFiles.smallPages(file, SCHEMA, version, dictionary, codec)) {
      for (int r = 0; r < rows; r++) {
        Group group = groups.newGroup().append("id", random.nextLong());
        if (random.nextInt(4) > 0) {
          group.append("s", "s" + random.nextInt(r < rows / 2 ? 30 : 100_000));
        }
        if (random.nextInt(4) > 0) {
          group.append("few", random.nextInt(10));
        }
        if (random.nextInt(4) > 0) {
          group.append("d", random.nextDouble());
        }
        if (random.nextInt(4) > 0) {
          group.append("b", random.nextBoolean());
        }
        for (int t = random.nextInt(4); t > 0; t--) {
          group.append("tags", random.nextInt(100));
        }
        if (random.nextInt(4) > 0) {
          Group nested = group.addGroup("g");
          if (random.nextBoolean()) {
            nested.append("a", random.nextLong());
          }
          nested.append("z", "z" + random.nextInt(50));
        }
        group.append("fixed", new String(new char[] {'a', 'b', (char) ('a' + r % 26)}));
        writer.write(group);
      }
    }
  }

  /** Values are taken from the column readers directly: no converter is called. */
  private static final class Skip extends GroupConverter {
    private final GroupType type;

    Skip(GroupType type) {
      this.type = type;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      Type field = type.getType(fieldIndex);
      return field.isPrimitive() ? new PrimitiveConverter() {} : new Skip(field.asGroupType());
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
