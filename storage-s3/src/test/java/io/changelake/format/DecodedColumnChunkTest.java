package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.DataType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class DecodedColumnChunkTest {

  private static final MessageType SCHEMA =
      MessageTypeParser.parseMessageType(
          "message m { required int64 id; optional int64 few; optional int32 i;"
              + " optional double d; optional float f; optional boolean b; optional binary s;"
              + " required fixed_len_byte_array(5) fixed; optional int96 ts; }");

  /** Physical values are compared as they are: a codec whose conversion is the identity. */
  private static final ColumnCodec PHYSICAL = ColumnCodec.of(DataType.bigint());

  private static final ColumnCodec BYTES = ColumnCodec.of(DataType.bytes());

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}, dictionary {1}")
  @CsvSource({"PARQUET_1_0, true", "PARQUET_1_0, false", "PARQUET_2_0, true", "PARQUET_2_0, false"})
  void decodesEveryPageAsParquetsOwnReaderDoes(WriterVersion version, boolean dictionary)
      throws IOException {
    Path file = dir.resolve(version + "-" + dictionary + ".parquet");
    write(file, version, dictionary, 20_000);
    int decodedChunks = 0;
    int assembledChunks = 0;
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      for (int block = 0; block < reader.getRowGroups().size(); block++) {
        for (ColumnChunkMetaData chunk : reader.getRowGroups().get(block).getColumns()) {
          ColumnDescriptor column = SCHEMA.getColumnDescription(chunk.getPath().toArray());
          List<Object> expected = parquetValues(file, block, column);
          boolean decoded = DecodedColumnChunk.decodes(chunk.getEncodings(), column);
          if (ColumnValues.UNBOXED.contains(column.getPrimitiveType().getPrimitiveTypeName())) {
            assertEquals(
                expected,
                primitiveValues(file, block, column, decoded),
                column + " read unboxed in " + chunk.getEncodings());
          }
          if (!decoded) {
            assembledChunks++;
            continue;
          }
          decodedChunks++;
          assertEquals(
              expected,
              decodedValues(file, block, column, PHYSICAL),
              column + " in " + chunk.getEncodings());
          if (!column.getPrimitiveType().getPrimitiveTypeName().javaType.isPrimitive()) {
            // Byte columns: every row gets an array of its own, also from a dictionary.
            List<Object> bytes = decodedValues(file, block, column, BYTES);
            assertEquals(text(expected), text(bytes), column + " as bytes");
            assertEquals(
                bytes.stream().filter(b -> b != null).count(),
                bytes.stream()
                    .filter(b -> b != null)
                    .map(System::identityHashCode)
                    .distinct()
                    .count(),
                column + ": no array shared between rows");
          }
        }
      }
    }
    assertTrue(decodedChunks > 0, "some chunks are decoded here");
    if (version == WriterVersion.PARQUET_2_0 && !dictionary) {
      // Delta encodings: read by Parquet's own reader.
      assertTrue(assembledChunks > 0, "delta-encoded chunks are left to Parquet's reader");
    } else if (version == WriterVersion.PARQUET_1_0) {
      assertEquals(0, assembledChunks, "every v1 chunk is decoded here");
    }
  }

  /** Every width Parquet writes, checked against Parquet's own packers. */
  static IntStream bitWidths() {
    return IntStream.rangeClosed(1, 32);
  }

  @ParameterizedTest(name = "bit width {0}")
  @MethodSource("bitWidths")
  void decodesRunsAndBitPackedGroupsOfEveryWidth(int bitWidth) {
    // An RLE run of 5, then 3 bit-packed groups whose last one is cut at the page end; the array
    // ends with the page, so that the last group's values are read without a whole long after
    // them.
    int max = bitWidth == 32 ? -1 : (1 << bitWidth) - 1;
    int[] expected = new int[5 + 20];
    Arrays.fill(expected, 0, 5, max);
    Random random = new Random(bitWidth);
    for (int i = 5; i < expected.length; i++) {
      expected[i] = random.nextInt() & max;
    }
    expected[6] = max;
    byte[] page = new byte[64 + 3 * bitWidth];
    int pos = 0;
    page[pos++] = (byte) (5 << 1);
    for (int i = 0; i < (bitWidth + 7) / 8; i++) {
      page[pos++] = (byte) (max >>> (8 * i));
    }
    page[pos++] = (byte) ((3 << 1) | 1);
    int[] packed = new int[24];
    System.arraycopy(expected, 5, packed, 0, 20);
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    for (int g = 0; g < 3; g++) {
      packer.pack8Values(packed, 8 * g, page, pos);
      pos += bitWidth;
    }
    byte[] encoded = Arrays.copyOf(page, pos);
    int[] decoded = new int[expected.length + 7];
    assertEquals(pos, RleHybridDecoder.decode(encoded, 0, pos, bitWidth, decoded, expected.length));
    assertEquals(
        Arrays.toString(expected), Arrays.toString(Arrays.copyOf(decoded, expected.length)));
    assertEquals(
        Arrays.toString(Arrays.copyOfRange(packed, 20, 24)),
        Arrays.toString(Arrays.copyOfRange(decoded, 25, 29)),
        "the last group is unpacked whole");
    // The same page with room after it: the values are read a long at a time.
    int[] roomy = new int[expected.length + 7];
    RleHybridDecoder.decode(page, 0, pos, bitWidth, roomy, expected.length);
    assertEquals(Arrays.toString(decoded), Arrays.toString(roomy));
  }

  private static void write(Path file, WriterVersion version, boolean dictionary, int rows)
      throws IOException {
    Random random = new Random(7);
    SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
    try (ParquetWriter<Group> writer =
        ParquetFiles.smallPages(
            file, SCHEMA, version, dictionary, CompressionCodecName.UNCOMPRESSED)) {
      for (int r = 0; r < rows; r++) {
        Group group = groups.newGroup().append("id", random.nextLong());
        if (random.nextInt(5) > 0) {
          group.append("few", (long) random.nextInt(10));
        }
        if (random.nextInt(5) > 0) {
          group.append("i", random.nextInt(r < rows / 2 ? 20 : 1_000_000));
        }
        if (random.nextInt(5) > 0) {
          group.append("d", random.nextDouble());
        }
        if (random.nextInt(5) > 0) {
          group.append("f", random.nextFloat());
        }
        if (random.nextInt(5) > 0) {
          group.append("b", random.nextBoolean());
        }
        if (random.nextInt(5) > 0) {
          group.append("s", "s" + random.nextInt(r < rows / 2 ? 30 : 100_000));
        }
        byte[] fixed = new byte[5];
        random.nextBytes(fixed);
        group.append("fixed", Binary.fromConstantByteArray(fixed));
        if (random.nextInt(5) > 0) {
          byte[] int96 = new byte[12];
          random.nextBytes(int96);
          group.append("ts", Binary.fromConstantByteArray(int96));
        }
        writer.write(group);
      }
    }
  }

  private static PageReadStore rowGroup(ParquetFileReader reader, int block) throws IOException {
    reader.setRequestedSchema(SCHEMA);
    for (int skipped = 0; skipped < block; skipped++) {
      reader.skipNextRowGroup();
    }
    return reader.readNextRowGroup();
  }

  private static List<String> text(List<Object> values) {
    List<String> texts = new ArrayList<>();
    for (Object value : values) {
      texts.add(
          value == null
              ? null
              : Arrays.toString(
                  value instanceof Binary binary ? binary.getBytes() : (byte[]) value));
    }
    return texts;
  }

  private static List<Object> decodedValues(
      Path file, int block, ColumnDescriptor column, ColumnCodec codec) throws IOException {
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      PageReadStore group = rowGroup(reader, block);
      DecodedColumnChunk decoded =
          new DecodedColumnChunk(column, group.getPageReader(column), codec);
      List<Object> values = new ArrayList<>();
      for (long r = 0; r < group.getRowCount(); r++) {
        values.add(decoded.read());
      }
      return values;
    }
  }

  /**
   * A chunk's values read by {@link ColumnValues#readPrimitives} in stretches of 333 rows, across
   * pages, boxed here to compare: by this package's decoder, or by Parquet's reader when it does
   * not decode the chunk.
   */
  private static List<Object> primitiveValues(
      Path file, int block, ColumnDescriptor column, boolean decoded) throws IOException {
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      PageReadStore group = rowGroup(reader, block);
      PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
      // The codec of the table type stored as the physical type, which keeps it as stored.
      ColumnCodec codec =
          ColumnCodec.of(
              switch (type) {
                case INT64 -> DataType.bigint();
                case INT32 -> DataType.intType();
                case DOUBLE -> DataType.doubleType();
                case FLOAT -> DataType.floatType();
                default -> DataType.booleanType();
              });
      ColumnValues values =
          decoded
              ? new DecodedColumnChunk(column, group.getPageReader(column), codec)
              : new AssembledColumn(
                  new ColumnReadStoreImpl(group, new Skip(), SCHEMA, "test")
                      .getColumnReader(column),
                  column,
                  codec);
      List<Object> result = new ArrayList<>();
      int stretch = 333;
      Object into = java.lang.reflect.Array.newInstance(type.javaType, stretch);
      boolean[] nulls = column.getMaxDefinitionLevel() > 0 ? new boolean[stretch] : null;
      for (long done = 0; done < group.getRowCount(); done += stretch) {
        int n = (int) Math.min(stretch, group.getRowCount() - done);
        values.readPrimitives(into, nulls, n);
        for (int i = 0; i < n; i++) {
          result.add(nulls != null && nulls[i] ? null : java.lang.reflect.Array.get(into, i));
        }
      }
      return result;
    }
  }

  private static List<Object> parquetValues(Path file, int block, ColumnDescriptor column)
      throws IOException {
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      PageReadStore group = rowGroup(reader, block);
      ColumnReader values =
          new ColumnReadStoreImpl(group, new Skip(), SCHEMA, "test").getColumnReader(column);
      List<Object> result = new ArrayList<>();
      PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
      for (long r = 0; r < group.getRowCount(); r++) {
        Object value = null;
        if (values.getCurrentDefinitionLevel() == column.getMaxDefinitionLevel()) {
          switch (type) {
            case INT64:
              value = values.getLong();
              break;
            case INT32:
              value = values.getInteger();
              break;
            case DOUBLE:
              value = values.getDouble();
              break;
            case FLOAT:
              value = values.getFloat();
              break;
            case BOOLEAN:
              value = values.getBoolean();
              break;
            default:
              value = values.getBinary();
          }
        }
        values.consume();
        result.add(value);
      }
      return result;
    }
  }

  private static final class Skip extends GroupConverter {
    @Override
    public Converter getConverter(int fieldIndex) {
      return new PrimitiveConverter() {};
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
