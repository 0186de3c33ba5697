package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AvroContainerTest {

  private static final String FIELDS =
      "{\"name\":\"_KIND\",\"type\":\"int\"},"
          + "{\"name\":\"_PARTITION\",\"type\":\"bytes\"},"
          + "{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"file\",\"fields\":["
          + "{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
          + "{\"name\":\"_ROW_COUNT\",\"type\":\"long\"}]}}";

  private static final Schema WRITTEN = record(FIELDS);

  private static Schema record(String fields) {
    return new Schema.Parser()
        .parse("{\"type\":\"record\",\"name\":\"entry\",\"fields\":[" + fields + "]}");
  }

  /** Enough records for several blocks of 64,000 bytes. */
  private static List<GenericRecord> records(int count) {
    List<GenericRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      GenericRecord file = new GenericData.Record(WRITTEN.getField("_FILE").schema());
      file.put("_FILE_NAME", "data-" + i + "-0.parquet");
      file.put("_ROW_COUNT", (long) i * 1000);
      GenericRecord entry = new GenericData.Record(WRITTEN);
      entry.put("_KIND", i % 2);
      entry.put("_PARTITION", ByteBuffer.wrap(new byte[] {(byte) i, 1, 2, 3}));
      entry.put("_FILE", file);
      records.add(entry);
    }
    return records;
  }

  private static List<String> described(List<GenericRecord> records) {
    List<String> lines = new ArrayList<>();
    for (GenericRecord r : records) {
      GenericRecord file = (GenericRecord) r.get("_FILE");
      ByteBuffer partition = ((ByteBuffer) r.get("_PARTITION")).duplicate();
      lines.add(
          r.get("_KIND")
              + " "
              + partition.get(0)
              + " "
              + file.get("_FILE_NAME")
              + " "
              + file.get("_ROW_COUNT"));
    }
    return lines;
  }

  /** Reads a file as {@link #described} describes Avro's records. */
  private static List<String> readDescribed(byte[] bytes) throws IOException {
    return AvroContainer.read(
        bytes,
        "test",
        r ->
            r.intValue("_KIND")
                + " "
                + r.bytes("_PARTITION")[0]
                + " "
                + r.record("_FILE").string("_FILE_NAME")
                + " "
                + r.record("_FILE").longValue("_ROW_COUNT"));
  }

  @Test
  void whatItWritesAvrosOwnReaderReadsAcrossSeveralBlocks() throws IOException {
    List<GenericRecord> written = records(5_000);
    byte[] bytes = AvroContainer.write(WRITTEN, written);
    List<GenericRecord> read = new ArrayList<>();
    try (DataFileStream<GenericRecord> avro =
        new DataFileStream<>(new SeekableByteArrayInput(bytes), new GenericDatumReader<>())) {
      assertEquals("zstandard", avro.getMetaString("avro.codec"));
      while (avro.hasNext()) {
        read.add(avro.next());
      }
    }
    assertEquals(described(written), described(read));
    // The file ends with the sync marker; the header holds it once, and every block after it.
    byte[] sync = Arrays.copyOfRange(bytes, bytes.length - 16, bytes.length);
    assertTrue(occurrences(bytes, sync) > 2, "one block only");
    assertEquals(described(written), readDescribed(bytes));
  }

  private static int occurrences(byte[] bytes, byte[] marker) {
    int count = 0;
    for (int i = 0; i + marker.length <= bytes.length; i++) {
      if (Arrays.equals(bytes, i, i + marker.length, marker, 0, marker.length)) {
        count++;
      }
    }
    return count;
  }

  @ParameterizedTest
  @ValueSource(strings = {"null", "deflate", "zstandard", "snappy"})
  void readsWhatAvroWritesWithEachCodecAndAFieldTheWriterLackedAsNull(String codec)
      throws IOException {
    List<GenericRecord> written = records(5_000);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataFileWriter<GenericRecord> avro =
        new DataFileWriter<>(new GenericDatumWriter<>(WRITTEN))) {
      avro.setCodec(CodecFactory.fromString(codec));
      avro.create(WRITTEN, out);
      for (GenericRecord r : written) {
        avro.append(r);
      }
    }
    assertEquals(described(written), readDescribed(out.toByteArray()));
    assertEquals(
        List.of(true),
        AvroContainer.read(out.toByteArray(), "test", r -> r.optionalInt("_TOTAL_BUCKETS") == null)
            .stream()
            .distinct()
            .toList());
  }

  @Test
  void aRequiredFieldTheFileLacksFailsNamingTheFileAndTheField() throws IOException {
    byte[] bytes = AvroContainer.write(WRITTEN, records(3));
    IOException e =
        assertThrows(
            IOException.class,
            () -> AvroContainer.read(bytes, "manifest m-2", r -> r.intValue("_TOTAL_BUCKETS")));
    assertTrue(
        e.getMessage().startsWith("manifest m-2 is not a readable Avro file"), e.getMessage());
    assertTrue(e.getMessage().contains("'_TOTAL_BUCKETS'"), e.getMessage());
  }

  @Test
  void filesOfManyWriterSchemasEachReadByTheirOwnPastTheReadersBound() throws IOException {
    // More schemas than the readers kept (many tables of many writers): each file still reads by
    // its own, the extra field of each in its place.
    for (int i = 0; i < 200; i++) {
      Schema schema = record(FIELDS + ",{\"name\":\"_EXTRA_" + i + "\",\"type\":\"int\"}");
      GenericRecord record = records(1).get(0);
      GenericRecord withExtra = new GenericData.Record(schema);
      for (Schema.Field f : WRITTEN.getFields()) {
        withExtra.put(f.name(), record.get(f.name()));
      }
      withExtra.put("_EXTRA_" + i, i * 3);
      byte[] bytes = AvroContainer.write(schema, List.of(withExtra));
      String extra = "_EXTRA_" + i;
      assertEquals(List.of(i * 3), AvroContainer.read(bytes, "test", r -> r.intValue(extra)));
      assertEquals(described(List.of(record)), readDescribed(bytes));
    }
  }

  @Test
  void aFileWithNoRecordsReadsEmpty() throws IOException {
    assertEquals(List.of(), readDescribed(AvroContainer.write(WRITTEN, List.of())));
  }

  @Test
  void aDamagedSyncMarkerFailsNamingTheFile() throws IOException {
    byte[] bytes = AvroContainer.write(WRITTEN, records(10));
    bytes[bytes.length - 1] ^= 1;
    IOException e =
        assertThrows(IOException.class, () -> AvroContainer.read(bytes, "manifest m-1", r -> r));
    assertTrue(
        e.getMessage().startsWith("manifest m-1 is not a readable Avro file"), e.getMessage());
    assertTrue(e.getMessage().contains("sync marker"), e.getMessage());
  }

  @Test
  void bytesThatAreNotAvroFailNamingTheFile() {
    byte[] json = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
    IOException e =
        assertThrows(
            IOException.class, () -> AvroContainer.read(json, "manifest list l-1", r -> r));
    assertTrue(
        e.getMessage().startsWith("manifest list l-1 is not a readable Avro file"), e.getMessage());
    assertTrue(e.getMessage().contains("magic"), e.getMessage());
  }
}
