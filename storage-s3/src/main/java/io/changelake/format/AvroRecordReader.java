package io.changelake.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes the records of an Avro file's blocks by the file's own (writer) schema, as the Avro
 * specification lays out the binary encoding, into {@link AvroRecord}s.
 *
 * <p>Why not Avro's {@code GenericDatumReader}: reading a manifest through it first parses the
 * reader schemas with Avro's schema parser and resolves them against the file's, some 140 classes
 * loaded and compiled before a new JVM's first row. The schema here is parsed by the Jackson
 * already loaded for snapshot files, and fields are matched by name when taken, as resolution
 * matches them. A new JVM's first read of the benchmark's tables, before and after (medians of 6 to
 * 8 JVMs each, alternated): the batch read of the full-compaction table 0.260 s against 0.316 s, of
 * the lookup table 0.419 s against 0.470 s; the changelog read of the full-compaction table 0.657 s
 * against 0.716 s, of the lookup table 0.692 s against 0.712 s.
 *
 * <p>Every Avro type decodes: null, boolean, int, long, float, double, bytes, string, record, enum,
 * array, map, union and fixed, named types referred to by full or short name, and logical types as
 * their underlying type.
 */
final class AvroRecordReader {

  /** How one value of a writer type is decoded. */
  private interface Type {
    Object read(Cursor in) throws IOException;
  }

  /** Parses schemas into trees only: its classes are those snapshot files already loaded. */
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Type root;

  private AvroRecordReader(Type root) {
    this.root = root;
  }

  /**
   * A reader for records of the writer schema {@code json}.
   *
   * @throws IOException if the schema is not valid JSON, not a record, or names an unknown type
   */
  static AvroRecordReader of(String json) throws IOException {
    JsonNode node = JSON.readTree(json);
    if (node == null || !node.isObject() || !"record".equals(node.path("type").asText())) {
      throw new IOException("its schema is not a record");
    }
    return new AvroRecordReader(new Parser().type(node, ""));
  }

  /** Reads one record at the cursor. */
  AvroRecord read(Cursor in) throws IOException {
    return (AvroRecord) root.read(in);
  }

  /** Reads a block's bytes, from the start. */
  static final class Cursor {
    private final byte[] bytes;
    private int position;

    Cursor(byte[] bytes) {
      this.bytes = bytes;
    }

    long readLong() throws IOException {
      long raw = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        int b = next();
        raw |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          // Zig-zag: the low bit is the sign.
          return (raw >>> 1) ^ -(raw & 1);
        }
      }
      throw new IOException("a variable-length long runs past ten bytes");
    }

    int readInt() throws IOException {
      long value = readLong();
      if (value != (int) value) {
        throw new IOException("an int holds " + value);
      }
      return (int) value;
    }

    byte[] readFixed(int length) throws IOException {
      if (length < 0 || length > bytes.length - position) {
        throw new IOException(
            "a value of " + length + " bytes runs past the block's end at " + position);
      }
      byte[] value = new byte[length];
      System.arraycopy(bytes, position, value, 0, length);
      position += length;
      return value;
    }

    byte[] readBytes() throws IOException {
      long length = readLong();
      if (length < 0 || length > Integer.MAX_VALUE) {
        throw new IOException("a value claims " + length + " bytes");
      }
      return readFixed((int) length);
    }

    long readLittleEndian(int length) throws IOException {
      byte[] b = readFixed(length);
      long value = 0;
      for (int i = length - 1; i >= 0; i--) {
        value = (value << 8) | (b[i] & 0xff);
      }
      return value;
    }

    int next() throws IOException {
      if (position >= bytes.length) {
        throw new IOException("a value runs past the block's end");
      }
      return bytes[position++] & 0xff;
    }

    String readString() throws IOException {
      return new String(readBytes(), StandardCharsets.UTF_8);
    }

    /**
     * Reads the items of an Avro array or map (a file's metadata is one): blocks of a count of
     * items each, a negative count followed by the block's size in bytes, until a count of 0.
     */
    void readBlocks(Item item) throws IOException {
      for (long count = readLong(); count != 0; count = readLong()) {
        if (count < 0) {
          count = -count;
          readLong();
        }
        for (long i = 0; i < count; i++) {
          item.read();
        }
      }
    }

    boolean atEnd() {
      return position == bytes.length;
    }
  }

  /** Turns schema JSON into decoders, keeping named types for later references. */
  private static final class Parser {
    private final Map<String, Type[]> named = new HashMap<>();

    Type type(JsonNode node, String namespace) throws IOException {
      if (node.isTextual()) {
        return primitiveOrNamed(node.asText(), namespace);
      }
      if (node.isArray()) {
        List<Type> branches = new ArrayList<>();
        for (JsonNode branch : node) {
          branches.add(type(branch, namespace));
        }
        return in -> {
          long branch = in.readLong();
          if (branch < 0 || branch >= branches.size()) {
            throw new IOException("a union has no branch " + branch);
          }
          return branches.get((int) branch).read(in);
        };
      }
      if (!node.isObject()) {
        throw new IOException("its schema holds " + node + " where a type belongs");
      }
      String kind = node.path("type").asText();
      switch (kind) {
        case "record":
        case "error":
          return record(node, namespace);
        case "enum":
          return enumeration(node, namespace);
        case "fixed":
          return fixed(node, namespace);
        case "array":
          Type items = type(node.path("items"), namespace);
          return in -> {
            List<Object> list = new ArrayList<>();
            in.readBlocks(() -> list.add(items.read(in)));
            return list;
          };
        case "map":
          Type values = type(node.path("values"), namespace);
          return in -> {
            Map<String, Object> map = new LinkedHashMap<>();
            in.readBlocks(() -> map.put(in.readString(), values.read(in)));
            return map;
          };
        default:
          // A primitive written as an object, with a logical type or other properties.
          return type(node.path("type"), namespace);
      }
    }

    private Type primitiveOrNamed(String name, String namespace) throws IOException {
      switch (name) {
        case "null":
          return in -> null;
        case "boolean":
          return in -> in.next() != 0;
        case "int":
          return Cursor::readInt;
        case "long":
          return Cursor::readLong;
        case "float":
          return in -> Float.intBitsToFloat((int) in.readLittleEndian(4));
        case "double":
          return in -> Double.longBitsToDouble(in.readLittleEndian(8));
        case "bytes":
          return Cursor::readBytes;
        case "string":
          return Cursor::readString;
        default:
          Type[] defined = named.get(name.contains(".") ? name : qualify(name, namespace));
          if (defined == null) {
            defined = named.get(name);
          }
          if (defined == null) {
            throw new IOException("its schema refers to an undefined type " + name);
          }
          // Through the holder: a record may refer to itself before its decoder is done.
          Type[] holder = defined;
          return in -> holder[0].read(in);
      }
    }

    private Type record(JsonNode node, String namespace) throws IOException {
      String space = namespaceOf(node, namespace);
      Type[] holder = define(node, space);
      JsonNode fieldNodes = node.path("fields");
      List<String> names = new ArrayList<>();
      Type[] fieldTypes = new Type[fieldNodes.size()];
      for (int i = 0; i < fieldTypes.length; i++) {
        JsonNode field = fieldNodes.get(i);
        names.add(field.path("name").asText());
        fieldTypes[i] = type(field.path("type"), space);
      }
      AvroRecord.Fields fields = new AvroRecord.Fields(names);
      holder[0] =
          in -> {
            Object[] values = new Object[fieldTypes.length];
            for (int i = 0; i < fieldTypes.length; i++) {
              values[i] = fieldTypes[i].read(in);
            }
            return new AvroRecord(fields, values);
          };
      return holder[0];
    }

    private Type enumeration(JsonNode node, String namespace) throws IOException {
      List<String> symbols = new ArrayList<>();
      node.path("symbols").forEach(s -> symbols.add(s.asText()));
      Type[] holder = define(node, namespaceOf(node, namespace));
      holder[0] =
          in -> {
            int i = in.readInt();
            if (i < 0 || i >= symbols.size()) {
              throw new IOException("an enum has no symbol " + i);
            }
            return symbols.get(i);
          };
      return holder[0];
    }

    private Type fixed(JsonNode node, String namespace) throws IOException {
      int size = node.path("size").asInt(-1);
      if (size < 0) {
        throw new IOException("a fixed type has no size");
      }
      Type[] holder = define(node, namespaceOf(node, namespace));
      holder[0] = in -> in.readFixed(size);
      return holder[0];
    }

    /** Registers a named type by its full and short names; its decoder goes in the holder. */
    private Type[] define(JsonNode node, String namespace) throws IOException {
      String name = node.path("name").asText();
      if (name.isEmpty()) {
        throw new IOException("a named type has no name");
      }
      Type[] holder = new Type[1];
      named.put(name.contains(".") ? name : qualify(name, namespace), holder);
      named.putIfAbsent(name.substring(name.lastIndexOf('.') + 1), holder);
      return holder;
    }

    private static String namespaceOf(JsonNode node, String enclosing) {
      String name = node.path("name").asText();
      if (name.contains(".")) {
        return name.substring(0, name.lastIndexOf('.'));
      }
      JsonNode space = node.get("namespace");
      return space == null || space.isNull() ? enclosing : space.asText();
    }

    private static String qualify(String name, String namespace) {
      return namespace.isEmpty() ? name : namespace + "." + name;
    }
  }

  /** Reads one item of an array or map, or one entry of a file's metadata. */
  interface Item {
    void read() throws IOException;
  }
}
