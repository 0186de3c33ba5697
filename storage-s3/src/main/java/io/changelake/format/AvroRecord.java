package io.changelake.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * One record of a manifest, manifest list or index manifest as read: its values by field name, as
 * the file's own (writer) schema declared them. A field the writer did not have reads as null, as
 * Avro's schema resolution reads a field added with a null default; the typed accessors refuse a
 * required field that is missing or of another type, naming it.
 *
 * <p>Values are Java's own: {@code Integer}, {@code Long}, {@code Float}, {@code Double}, {@code
 * Boolean}, {@code String} (strings and enum symbols), {@code byte[]} (bytes and fixed), {@code
 * List} (arrays), {@code Map<String, Object>} (maps), {@code AvroRecord} and null.
 */
final class AvroRecord {

  /** A record type's field names, shared by every record of that type in a file. */
  static final class Fields {
    private final List<String> names;
    private final Map<String, Integer> index = new HashMap<>();

    /** The record type's field names, in the schema's order. */
    Fields(List<String> names) {
      this.names = List.copyOf(names);
      for (int i = 0; i < names.size(); i++) {
        index.put(names.get(i), i);
      }
    }
  }

  private final Fields fields;
  private final Object[] values;

  AvroRecord(Fields fields, Object[] values) {
    this.fields = fields;
    this.values = values;
  }

  /**
   * A record Avro's own reader returned, as this class holds it.
   *
   * @param known the field names of the record types met so far, by schema, filled here: records of
   *     one file share them, as {@link AvroRecordReader}'s do
   */
  static AvroRecord of(GenericRecord record, Map<Schema, Fields> known) {
    List<Schema.Field> schemaFields = record.getSchema().getFields();
    Fields fields =
        known.computeIfAbsent(
            record.getSchema(),
            s -> new Fields(schemaFields.stream().map(Schema.Field::name).toList()));
    Object[] values = new Object[schemaFields.size()];
    for (Schema.Field f : schemaFields) {
      values[f.pos()] = javaValue(record.get(f.pos()), known);
    }
    return new AvroRecord(fields, values);
  }

  private static Object javaValue(Object avro, Map<Schema, Fields> known) {
    if (avro instanceof GenericRecord nested) {
      return of(nested, known);
    } else if (avro instanceof CharSequence) {
      // Avro's Utf8 among them.
      return avro.toString();
    } else if (avro instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.duplicate();
      byte[] bytes = new byte[view.remaining()];
      view.get(bytes);
      return bytes;
    } else if (avro instanceof GenericFixed fixed) {
      return fixed.bytes().clone();
    } else if (avro instanceof List<?> list) {
      List<Object> converted = new ArrayList<>(list.size());
      for (Object item : list) {
        converted.add(javaValue(item, known));
      }
      return converted;
    } else if (avro instanceof Map<?, ?> map) {
      Map<String, Object> converted = new LinkedHashMap<>();
      map.forEach((k, v) -> converted.put(k.toString(), javaValue(v, known)));
      return converted;
    } else if (avro instanceof GenericEnumSymbol<?> symbol) {
      return symbol.toString();
    }
    return avro;
  }

  /** The field's value, or null when it is null or the file's schema has no such field. */
  Object get(String field) {
    Integer i = fields.index.get(field);
    return i == null ? null : values[i];
  }

  /** A required string field. */
  String string(String field) throws IOException {
    return required(field, String.class);
  }

  /** A required bytes field. */
  byte[] bytes(String field) throws IOException {
    return required(field, byte[].class);
  }

  /** A required int field. */
  int intValue(String field) throws IOException {
    return required(field, Integer.class);
  }

  /** An optional int field: null when null or absent. */
  Integer optionalInt(String field) throws IOException {
    return optional(field, Integer.class);
  }

  /** A required long field; an int is widened, as Avro's resolution promotes it. */
  long longValue(String field) throws IOException {
    return present(field, optionalLong(field));
  }

  /** An optional long field, an int widened: null when null or absent. */
  Long optionalLong(String field) throws IOException {
    Object value = get(field);
    if (value instanceof Integer i) {
      return i.longValue();
    }
    return optional(field, Long.class);
  }

  /** A required record field. */
  AvroRecord record(String field) throws IOException {
    return required(field, AvroRecord.class);
  }

  /** An optional array of strings: null when null or absent. */
  List<String> strings(String field) throws IOException {
    return list(field, String.class, false);
  }

  /** An optional array of nullable longs: null when null or absent. */
  List<Long> longs(String field) throws IOException {
    return list(field, Long.class, true);
  }

  private <T> List<T> list(String field, Class<T> itemType, boolean nullItems) throws IOException {
    List<?> list = optional(field, List.class);
    if (list == null) {
      return null;
    }
    List<T> items = new ArrayList<>(list.size());
    for (Object item : list) {
      if (item == null ? !nullItems : !itemType.isInstance(item)) {
        throw new IOException(
            "'" + field + "' holds " + describe(item) + ", not " + itemType.getSimpleName());
      }
      items.add(itemType.cast(item));
    }
    return items;
  }

  private <T> T required(String field, Class<T> type) throws IOException {
    return present(field, optional(field, type));
  }

  private static <T> T present(String field, T value) throws IOException {
    if (value == null) {
      throw new IOException("its record has no '" + field + "'");
    }
    return value;
  }

  private <T> T optional(String field, Class<T> type) throws IOException {
    Object value = get(field);
    if (value != null && !type.isInstance(value)) {
      throw new IOException(
          "'" + field + "' holds " + describe(value) + ", not " + type.getSimpleName());
    }
    return type.cast(value);
  }

  /**
   * The fields and values, in the schema's order, a map's entries by key: {@code {_KIND=0,
   * _PARTITION=[1, 2]}}.
   */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("{");
    for (int i = 0; i < values.length; i++) {
      text.append(i == 0 ? "" : ", ").append(fields.names.get(i)).append('=');
      appendValue(text, values[i]);
    }
    return text.append('}').toString();
  }

  private static void appendValue(StringBuilder text, Object value) {
    if (value instanceof byte[] bytes) {
      text.append(Arrays.toString(bytes));
    } else if (value instanceof List<?> list) {
      text.append('[');
      for (int i = 0; i < list.size(); i++) {
        appendValue(text.append(i == 0 ? "" : ", "), list.get(i));
      }
      text.append(']');
    } else if (value instanceof Map<?, ?> map) {
      // By key: an Avro map has no order, and Avro's own reader keeps none.
      text.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : new TreeMap<>(map).entrySet()) {
        text.append(first ? "" : ", ").append(e.getKey()).append('=');
        appendValue(text, e.getValue());
        first = false;
      }
      text.append('}');
    } else {
      text.append(value);
    }
  }

  private static String describe(Object value) {
    return value == null ? "null" : "a " + value.getClass().getSimpleName();
  }
}
