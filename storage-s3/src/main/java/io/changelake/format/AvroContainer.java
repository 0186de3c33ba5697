package io.changelake.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * Avro container files with the record schemas Paimon uses for manifests and manifest lists (copied
 * from files Paimon 1.3.1 wrote), compressed with zstandard as Paimon does.
 *
 * <p>Reading resolves a file's own writer schema against ours, so files from older Paimon versions
 * with fewer fields read with the missing fields as null.
 */
final class AvroContainer {

  private static final int ZSTD_LEVEL = 1;

  private AvroContainer() {}

  static Schema schema(String resource) {
    try (InputStream in = AvroContainer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the Avro schema resource " + resource + " is missing");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] write(Schema schema, List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> writer =
        new DataFileWriter<>(new GenericDatumWriter<>(schema))) {
      writer.setCodec(CodecFactory.zstandardCodec(ZSTD_LEVEL));
      writer.create(schema, out);
      for (GenericRecord record : records) {
        writer.append(record);
      }
    }
    return out.toByteArray();
  }

  static List<GenericRecord> read(Schema schema, byte[] bytes, String what) throws IOException {
    List<GenericRecord> records = new ArrayList<>();
    try (DataFileStream<GenericRecord> reader =
        new DataFileStream<>(
            new SeekableByteArrayInput(bytes), new GenericDatumReader<>(null, schema))) {
      while (reader.hasNext()) {
        records.add(reader.next());
      }
    } catch (IOException | RuntimeException e) {
      throw new IOException(what + " is not a readable Avro file: " + e.getMessage(), e);
    }
    return records;
  }

  static GenericRecord record(Schema schema) {
    return new GenericData.Record(schema);
  }

  /** The record schema of a field, looking through a nullable union. */
  static Schema recordField(Schema schema, String field) {
    Schema fieldSchema = schema.getField(field).schema();
    if (fieldSchema.getType() == Schema.Type.UNION) {
      for (Schema branch : fieldSchema.getTypes()) {
        if (branch.getType() != Schema.Type.NULL) {
          return branch;
        }
      }
    }
    return fieldSchema;
  }

  static ByteBuffer bytes(SerializedRow row) {
    return ByteBuffer.wrap(row.bytes());
  }

  static SerializedRow row(Object avroBytes) {
    ByteBuffer buffer = ((ByteBuffer) avroBytes).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return new SerializedRow(bytes);
  }

  static GenericRecord stats(Schema statsSchema, SimpleStats stats) {
    GenericRecord record = record(statsSchema);
    record.put("_MIN_VALUES", bytes(stats.minValues()));
    record.put("_MAX_VALUES", bytes(stats.maxValues()));
    record.put(
        "_NULL_COUNTS", stats.nullCounts() == null ? null : new ArrayList<>(stats.nullCounts()));
    return record;
  }

  @SuppressWarnings("unchecked")
  static SimpleStats stats(GenericRecord record) {
    List<Long> nullCounts = null;
    Object counts = record.get("_NULL_COUNTS");
    if (counts != null) {
      nullCounts = new ArrayList<>((List<Long>) counts);
    }
    return new SimpleStats(
        row(record.get("_MIN_VALUES")), row(record.get("_MAX_VALUES")), nullCounts);
  }

  @SuppressWarnings("unchecked")
  static List<String> strings(Object avroArray) {
    if (avroArray == null) {
      return null;
    }
    List<String> strings = new ArrayList<>();
    for (Object s : (List<Object>) avroArray) {
      strings.add(s.toString());
    }
    return strings;
  }
}
