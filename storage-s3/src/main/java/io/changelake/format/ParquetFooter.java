package io.changelake.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The footer of a Parquet file, decoded from its Thrift structures: the schema, the writer, and
 * where each row group's column chunks lie and how they are encoded.
 *
 * <p>Why not Parquet's {@code ParquetFileReader}: it converts the footer into {@code
 * ParquetMetadata}, whose class initialiser builds a Jackson {@code ObjectMapper} (some 370 classes
 * of Parquet's shaded Jackson, for a {@code toJSON} nobody calls), with statistics, encryption and
 * Hadoop input-format classes nothing here reads. A JVM's first read of a table paid for all of
 * them before its first row. What is kept is what {@link KeyValueFileReader} reads: the schema's
 * structure, names, repetitions, physical types and field ids (the values are decoded by the
 * table's own types, so the schema carries no logical-type annotations), and per column chunk its
 * codec, encodings, value count and byte range.
 *
 * <p>Encrypted files and column chunks kept in another file are refused with a message naming the
 * file.
 */
final class ParquetFooter {

  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENCRYPTED_MAGIC = "PARE".getBytes(StandardCharsets.US_ASCII);

  /** Footer length (4 bytes) and magic (4 bytes) at the end of every file. */
  private static final int TAIL = 8;

  /** One column chunk of a row group: where its pages lie and how they are written. */
  record Chunk(
      CompressionCodecName codec,
      Set<Encoding> encodings,
      long valueCount,
      long start,
      long size) {}

  /** One row group: its row count and its column chunks by column path. */
  record RowGroup(long rowCount, Map<List<String>, Chunk> chunks) {

    /**
     * The chunk of {@code column}.
     *
     * @throws IllegalStateException if the row group has none
     */
    Chunk chunk(ColumnDescriptor column, String file) {
      Chunk chunk = chunks.get(Arrays.asList(column.getPath()));
      if (chunk == null) {
        throw new IllegalStateException(
            file + " has no chunk of column " + String.join(".", column.getPath()));
      }
      return chunk;
    }
  }

  private final MessageType schema;
  private final String createdBy;
  private final List<RowGroup> rowGroups;

  private ParquetFooter(MessageType schema, String createdBy, List<RowGroup> rowGroups) {
    this.schema = schema;
    this.createdBy = createdBy;
    this.rowGroups = rowGroups;
  }

  /**
   * Reads the footer of the {@code length}-byte file {@code in} reads, named {@code file} in
   * messages.
   *
   * @throws IOException if the file is not a readable, unencrypted Parquet file
   */
  static ParquetFooter read(SeekableInputStream in, long length, String file) throws IOException {
    if (length < MAGIC.length + TAIL) {
      throw new IOException(file + " is not a Parquet file: it has only " + length + " bytes");
    }
    byte[] tail = new byte[TAIL];
    in.seek(length - TAIL);
    in.readFully(tail);
    byte[] magic = Arrays.copyOfRange(tail, 4, TAIL);
    if (Arrays.equals(magic, ENCRYPTED_MAGIC)) {
      throw new IOException(file + " is an encrypted Parquet file, which changelake does not read");
    }
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException(file + " is not a Parquet file: it does not end with PAR1");
    }
    long footerLength = Integer.toUnsignedLong(BytesUtils.readIntLittleEndian(tail, 0));
    if (footerLength > length - TAIL - MAGIC.length) {
      throw new IOException(
          file + " is corrupt: its footer claims " + footerLength + " of its " + length + " bytes");
    }
    byte[] footer = new byte[(int) footerLength];
    in.seek(length - TAIL - footerLength);
    in.readFully(footer);
    FileMetaData metadata;
    try {
      metadata = Util.readFileMetaData(new ByteArrayInputStream(footer));
    } catch (IOException | RuntimeException e) {
      throw new IOException(file + " has a corrupt footer: " + e.getMessage(), e);
    }
    return new ParquetFooter(
        schema(metadata.getSchema(), file), metadata.getCreated_by(), rowGroups(metadata, file));
  }

  /** The file's schema. */
  MessageType schema() {
    return schema;
  }

  /** The writer the file names ({@code created_by}), or null. */
  String createdBy() {
    return createdBy;
  }

  List<RowGroup> rowGroups() {
    return rowGroups;
  }

  /** The rows of all row groups. */
  long rowCount() {
    long rows = 0;
    for (RowGroup group : rowGroups) {
      rows += group.rowCount();
    }
    return rows;
  }

  private static List<RowGroup> rowGroups(FileMetaData metadata, String file) throws IOException {
    List<RowGroup> groups = new ArrayList<>();
    for (org.apache.parquet.format.RowGroup group : metadata.getRow_groups()) {
      Map<List<String>, Chunk> chunks = new HashMap<>();
      for (ColumnChunk chunk : group.getColumns()) {
        ColumnMetaData column = chunk.getMeta_data();
        if (column == null) {
          throw new IOException(
              file + " has an encrypted column chunk, which changelake does not read");
        }
        if (chunk.isSetFile_path()) {
          throw new IOException(
              file
                  + " keeps column "
                  + String.join(".", column.getPath_in_schema())
                  + " in another file ("
                  + chunk.getFile_path()
                  + "), which changelake does not read");
        }
        // As Parquet's reader: the chunk starts at its dictionary page when there is one before
        // the first data page.
        long start = column.getData_page_offset();
        if (column.isSetDictionary_page_offset()
            && column.getDictionary_page_offset() > 0
            && column.getDictionary_page_offset() < start) {
          start = column.getDictionary_page_offset();
        }
        Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
        for (org.apache.parquet.format.Encoding encoding : column.getEncodings()) {
          encodings.add(Encoding.valueOf(encoding.name()));
        }
        chunks.put(
            List.copyOf(column.getPath_in_schema()),
            new Chunk(
                CompressionCodecName.fromParquet(column.getCodec()),
                encodings,
                column.getNum_values(),
                start,
                column.getTotal_compressed_size()));
      }
      groups.add(new RowGroup(group.getNum_rows(), chunks));
    }
    return List.copyOf(groups);
  }

  /** The schema from its elements, the root first and each group followed by its children. */
  private static MessageType schema(List<SchemaElement> elements, String file) throws IOException {
    if (elements.isEmpty()) {
      throw new IOException(file + " has an empty schema");
    }
    Iterator<SchemaElement> rest = elements.subList(1, elements.size()).iterator();
    SchemaElement root = elements.get(0);
    try {
      return new MessageType(root.getName(), children(root.getNum_children(), rest));
    } catch (RuntimeException e) {
      throw new IOException(file + " has a malformed schema: " + e.getMessage(), e);
    }
  }

  private static List<Type> children(int count, Iterator<SchemaElement> elements) {
    List<Type> children = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      if (!elements.hasNext()) {
        throw new IllegalArgumentException("a group claims more children than the schema holds");
      }
      children.add(type(elements.next(), elements));
    }
    return children;
  }

  private static Type type(SchemaElement element, Iterator<SchemaElement> rest) {
    Type.Repetition repetition = Type.Repetition.valueOf(element.getRepetition_type().name());
    Type type;
    if (element.isSetType()) {
      PrimitiveTypeName name =
          element.getType() == org.apache.parquet.format.Type.BYTE_ARRAY
              ? PrimitiveTypeName.BINARY
              : PrimitiveTypeName.valueOf(element.getType().name());
      Types.PrimitiveBuilder<org.apache.parquet.schema.PrimitiveType> primitive =
          Types.primitive(name, repetition);
      if (name == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
        primitive.length(element.getType_length());
      }
      type = primitive.named(element.getName());
    } else {
      type =
          new GroupType(repetition, element.getName(), children(element.getNum_children(), rest));
    }
    return element.isSetField_id() ? type.withId(element.getField_id()) : type;
  }
}
