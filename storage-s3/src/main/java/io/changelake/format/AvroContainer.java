package io.changelake.format;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.avro.NameValidator;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro container files with the record schemas Paimon uses for manifests and manifest lists (copied
 * from files Paimon 1.3.1 wrote), compressed with zstandard as Paimon does.
 *
 * <p>Reading resolves a file's own writer schema against ours, so files from older Paimon versions
 * with fewer fields read with the missing fields as null.
 *
 * <p>The container itself (header, blocks, sync markers, as the Avro specification lays them out)
 * is written and read here, not by Avro's {@code DataFileWriter} and {@code DataFileStream}: those
 * resolve the codec through Avro's {@code CodecFactory}, whose first use registers every codec it
 * knows, loading snappy's native library and a secure random generator on the way. That cost a
 * tenth of a second of the first changelog read of a JVM (a fresh JVM reading the benchmark's
 * lookup table, 0.88 s against 0.99 s with the factory loaded beforehand), the read a batch job or
 * a query pays every time. Blocks compressed with null, deflate or zstandard are read here; a file
 * with another codec (snappy, bzip2, xz: a table written with another {@code manifest.compression})
 * is read through {@code DataFileStream}.
 */
final class AvroContainer {

  private static final int ZSTD_LEVEL = 1;

  private static final byte[] MAGIC = {'O', 'b', 'j', 1};
  private static final int SYNC_SIZE = 16;
  private static final String SCHEMA_KEY = "avro.schema";
  private static final String CODEC_KEY = "avro.codec";
  private static final String NULL = "null";
  private static final String DEFLATE = "deflate";
  private static final String ZSTANDARD = "zstandard";

  /** Bytes of records per block before compression: Avro's own default sync interval. */
  private static final int BLOCK_BYTES = 64_000;

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
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(file, null);
    out.writeFixed(MAGIC);
    out.writeMapStart();
    out.setItemCount(2);
    out.startItem();
    out.writeString(SCHEMA_KEY);
    out.writeBytes(schema.toString().getBytes(StandardCharsets.UTF_8));
    out.startItem();
    out.writeString(CODEC_KEY);
    out.writeBytes(ZSTANDARD.getBytes(StandardCharsets.UTF_8));
    out.writeMapEnd();
    // The marker only has to be unlikely inside the data: a reader resynchronising after a
    // damaged block looks for it.
    byte[] sync = new byte[SYNC_SIZE];
    ThreadLocalRandom.current().nextBytes(sync);
    out.writeFixed(sync);
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(schema);
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    BinaryEncoder blockOut = EncoderFactory.get().directBinaryEncoder(block, null);
    int count = 0;
    for (GenericRecord record : records) {
      writer.write(record, blockOut);
      count++;
      if (block.size() >= BLOCK_BYTES) {
        writeBlock(out, count, block, sync);
        count = 0;
      }
    }
    if (count > 0) {
      writeBlock(out, count, block, sync);
    }
    out.flush();
    return file.toByteArray();
  }

  private static void writeBlock(
      BinaryEncoder out, int count, ByteArrayOutputStream block, byte[] sync) throws IOException {
    byte[] compressed = Zstd.compress(block.toByteArray(), ZSTD_LEVEL);
    block.reset();
    out.writeLong(count);
    out.writeLong(compressed.length);
    out.writeFixed(compressed);
    out.writeFixed(sync);
  }

  static List<GenericRecord> read(Schema schema, byte[] bytes, String what) throws IOException {
    try {
      return readBlocks(schema, bytes);
    } catch (IOException | RuntimeException e) {
      throw new IOException(what + " is not a readable Avro file: " + e.getMessage(), e);
    }
  }

  private static List<GenericRecord> readBlocks(Schema schema, byte[] bytes) throws IOException {
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(bytes, null);
    byte[] magic = new byte[MAGIC.length];
    in.readFixed(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException("it does not begin with Avro's magic bytes");
    }
    Map<String, byte[]> metadata = new HashMap<>();
    for (long items = in.readMapStart(); items != 0; items = in.mapNext()) {
      for (long i = 0; i < items; i++) {
        String key = in.readString();
        ByteBuffer value = in.readBytes(null);
        byte[] array = new byte[value.remaining()];
        value.get(array);
        metadata.put(key, array);
      }
    }
    byte[] sync = new byte[SYNC_SIZE];
    in.readFixed(sync);
    byte[] codecName = metadata.get(CODEC_KEY);
    String codec = codecName == null ? NULL : new String(codecName, StandardCharsets.UTF_8);
    if (!codec.equals(NULL) && !codec.equals(DEFLATE) && !codec.equals(ZSTANDARD)) {
      return readThroughAvro(schema, bytes);
    }
    byte[] writerSchema = metadata.get(SCHEMA_KEY);
    if (writerSchema == null) {
      throw new IOException("its header has no " + SCHEMA_KEY);
    }
    Schema written = writerSchema(new String(writerSchema, StandardCharsets.UTF_8));
    GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(written, schema);
    List<GenericRecord> records = new ArrayList<>();
    byte[] blockSync = new byte[SYNC_SIZE];
    BinaryDecoder blockIn = null;
    while (!in.isEnd()) {
      long count = in.readLong();
      long size = in.readLong();
      if (count < 0 || size < 0 || size > bytes.length) {
        throw new IOException("a block claims " + count + " records in " + size + " bytes");
      }
      byte[] block = new byte[(int) size];
      in.readFixed(block);
      in.readFixed(blockSync);
      if (!Arrays.equals(sync, blockSync)) {
        throw new IOException("a block's sync marker differs from the header's");
      }
      blockIn = DecoderFactory.get().binaryDecoder(decompress(codec, block), blockIn);
      for (long i = 0; i < count; i++) {
        records.add(reader.read(null, blockIn));
      }
    }
    return records;
  }

  /**
   * The writer schemas of files read, by their JSON: a table's manifests share one or two, and Avro
   * keeps the resolution of a writer schema against a reader schema per schema object, so a schema
   * parsed anew for every file would be resolved anew for every file too. Bounded for a JVM that
   * reads many tables of many Paimon versions.
   */
  private static final Map<String, Schema> WRITER_SCHEMAS = new ConcurrentHashMap<>();

  private static final int MAX_WRITER_SCHEMAS = 64;

  static Schema writerSchema(String json) {
    Schema known = WRITER_SCHEMAS.get(json);
    if (known != null) {
      return known;
    }
    // As leniently as Avro's own reader parses a file's schema.
    Schema parsed =
        new Schema.Parser(NameValidator.NO_VALIDATION).setValidateDefaults(false).parse(json);
    if (WRITER_SCHEMAS.size() >= MAX_WRITER_SCHEMAS) {
      WRITER_SCHEMAS.clear();
    }
    WRITER_SCHEMAS.putIfAbsent(json, parsed);
    return parsed;
  }

  private static byte[] decompress(String codec, byte[] block) throws IOException {
    switch (codec) {
      case NULL:
        return block;
      case ZSTANDARD:
        // A stream, not one call: a frame written by a stream (Avro's codec) may not record its
        // decompressed size.
        try (InputStream in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(block))) {
          return in.readAllBytes();
        }
      default:
        return inflate(block);
    }
  }

  /** Avro's deflate codec: raw deflate (RFC 1951), no zlib header or checksum. */
  private static byte[] inflate(byte[] block) throws IOException {
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(block);
      ByteArrayOutputStream out = new ByteArrayOutputStream(block.length * 4);
      byte[] buffer = new byte[8192];
      while (!inflater.finished()) {
        int n = inflater.inflate(buffer);
        if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
          throw new IOException("a deflate block ends early");
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new IOException("a deflate block is corrupt: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }

  private static List<GenericRecord> readThroughAvro(Schema schema, byte[] bytes)
      throws IOException {
    List<GenericRecord> records = new ArrayList<>();
    try (DataFileStream<GenericRecord> reader =
        new DataFileStream<>(
            new SeekableByteArrayInput(bytes), new GenericDatumReader<>(null, schema))) {
      while (reader.hasNext()) {
        records.add(reader.next());
      }
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
