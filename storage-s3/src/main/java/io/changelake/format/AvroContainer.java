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
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.SeekableByteArrayInput;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro container files with the record schemas Paimon uses for manifests and manifest lists (copied
 * from files Paimon 1.3.1 wrote), compressed with zstandard as Paimon does.
 *
 * <p>Writing goes through Avro's {@code GenericDatumWriter} with our schemas. Reading decodes each
 * file by its own (writer) schema with {@link AvroRecordReader}, and the caller takes fields by
 * name, so files from older Paimon versions with fewer fields read with the missing fields as null.
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

  /** Turns one record read into what the file holds. */
  @FunctionalInterface
  interface RecordMapper<T> {
    T map(AvroRecord record) throws IOException;
  }

  /**
   * The records of a file, each mapped as read.
   *
   * @param what the file, named in errors: "manifest manifest/manifest-1"
   * @throws IOException naming the file if it is not Avro, or a record is not what {@code mapper}
   *     expects
   */
  static <T> List<T> read(byte[] bytes, String what, RecordMapper<T> mapper) throws IOException {
    try {
      return readBlocks(bytes, mapper);
    } catch (IOException | RuntimeException e) {
      throw new IOException(what + " is not a readable Avro file: " + e.getMessage(), e);
    }
  }

  private static <T> List<T> readBlocks(byte[] bytes, RecordMapper<T> mapper) throws IOException {
    AvroRecordReader.Cursor in = new AvroRecordReader.Cursor(bytes);
    if (!Arrays.equals(in.readFixed(MAGIC.length), MAGIC)) {
      throw new IOException("it does not begin with Avro's magic bytes");
    }
    Map<String, byte[]> metadata = new HashMap<>();
    in.readBlocks(() -> metadata.put(in.readString(), in.readBytes()));
    byte[] sync = in.readFixed(SYNC_SIZE);
    byte[] codecName = metadata.get(CODEC_KEY);
    String codec = codecName == null ? NULL : new String(codecName, StandardCharsets.UTF_8);
    if (!codec.equals(NULL) && !codec.equals(DEFLATE) && !codec.equals(ZSTANDARD)) {
      return readThroughAvro(bytes, mapper);
    }
    byte[] writerSchema = metadata.get(SCHEMA_KEY);
    if (writerSchema == null) {
      throw new IOException("its header has no " + SCHEMA_KEY);
    }
    AvroRecordReader reader = recordReader(new String(writerSchema, StandardCharsets.UTF_8));
    List<T> records = new ArrayList<>();
    while (!in.atEnd()) {
      long count = in.readLong();
      long size = in.readLong();
      if (count < 0 || size < 0 || size > bytes.length) {
        throw new IOException("a block claims " + count + " records in " + size + " bytes");
      }
      byte[] block = in.readFixed((int) size);
      if (!Arrays.equals(sync, in.readFixed(SYNC_SIZE))) {
        throw new IOException("a block's sync marker differs from the header's");
      }
      AvroRecordReader.Cursor blockIn = new AvroRecordReader.Cursor(decompress(codec, block));
      for (long i = 0; i < count; i++) {
        records.add(mapper.map(reader.read(blockIn)));
      }
    }
    return records;
  }

  /**
   * The readers of the writer schemas of files read, by their JSON: a table's manifests share one
   * or two. Bounded for a JVM that reads many tables of many Paimon versions.
   */
  private static final Map<String, AvroRecordReader> READERS = new ConcurrentHashMap<>();

  private static final int MAX_READERS = 64;

  private static AvroRecordReader recordReader(String json) throws IOException {
    AvroRecordReader known = READERS.get(json);
    if (known != null) {
      return known;
    }
    AvroRecordReader parsed = AvroRecordReader.of(json);
    if (READERS.size() >= MAX_READERS) {
      READERS.clear();
    }
    READERS.putIfAbsent(json, parsed);
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

  private static <T> List<T> readThroughAvro(byte[] bytes, RecordMapper<T> mapper)
      throws IOException {
    List<T> records = new ArrayList<>();
    Map<Schema, AvroRecord.Fields> known = new HashMap<>();
    try (DataFileStream<GenericRecord> reader =
        new DataFileStream<>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      while (reader.hasNext()) {
        records.add(mapper.map(AvroRecord.of(reader.next(), known)));
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

  static GenericRecord stats(Schema statsSchema, SimpleStats stats) {
    GenericRecord record = record(statsSchema);
    record.put("_MIN_VALUES", bytes(stats.minValues()));
    record.put("_MAX_VALUES", bytes(stats.maxValues()));
    record.put(
        "_NULL_COUNTS", stats.nullCounts() == null ? null : new ArrayList<>(stats.nullCounts()));
    return record;
  }

  /** The statistics record of a manifest's field: minimums, maximums and null counts. */
  static SimpleStats stats(AvroRecord record) throws IOException {
    return new SimpleStats(
        new SerializedRow(record.bytes("_MIN_VALUES")),
        new SerializedRow(record.bytes("_MAX_VALUES")),
        record.longs("_NULL_COUNTS"));
  }
}
