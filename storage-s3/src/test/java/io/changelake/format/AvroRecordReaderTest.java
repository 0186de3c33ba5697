package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/** The binary decoding of {@link AvroRecordReader}, record by record against Avro's own reader. */
class AvroRecordReaderTest {

  /**
   * Every Avro type: primitives, a logical type, enum, fixed, a nested record referred to again by
   * its short name and by its full name, arrays of a union, a map of records, a union of several
   * branches, a namespace of its own, and a record that refers to itself.
   */
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "entry", "namespace": "org.example", "fields": [
                {"name": "flag", "type": "boolean"},
                {"name": "small", "type": "int"},
                {"name": "big", "type": "long"},
                {"name": "ratio", "type": "float"},
                {"name": "exact", "type": "double"},
                {"name": "raw", "type": "bytes"},
                {"name": "text", "type": "string"},
                {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
                {"name": "color", "type": {"type": "enum", "name": "Color",
                  "symbols": ["RED", "GREEN", "BLUE"]}},
                {"name": "hash", "type": {"type": "fixed", "name": "Hash", "size": 4}},
                {"name": "stats", "type": {"type": "record", "name": "Stats", "fields": [
                  {"name": "min", "type": "bytes"},
                  {"name": "nulls", "type": ["null", {"type": "array",
                    "items": ["null", "long"]}]}]}},
                {"name": "moreStats", "type": "Stats"},
                {"name": "otherStats", "type": ["null", "org.example.Stats"]},
                {"name": "names", "type": {"type": "array", "items": "string"}},
                {"name": "byName", "type": {"type": "map", "values": "Stats"}},
                {"name": "choice", "type": ["null", "int", "string", "Color"]},
                {"name": "foreign", "type": {"type": "record", "name": "Foreign",
                  "namespace": "com.other", "fields": [{"name": "id", "type": "long"}]}},
                {"name": "chain", "type": ["null", {"type": "record", "name": "Link",
                  "fields": [{"name": "value", "type": "int"},
                             {"name": "next", "type": ["null", "Link"]}]}]}
              ]}
              """);

  @Test
  void randomRecordsOfEveryTypeReadAsAvrosOwnReaderReadsThem() throws IOException {
    Random random = new Random(7);
    AvroRecordReader reader = AvroRecordReader.of(SCHEMA.toString());
    Map<Schema, AvroRecord.Fields> known = new HashMap<>();
    for (int round = 0; round < 500; round++) {
      List<GenericRecord> records = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(20); i++) {
        records.add(randomEntry(random));
      }
      byte[] block = encode(records);
      BinaryDecoder avro = DecoderFactory.get().binaryDecoder(block, null);
      GenericDatumReader<GenericRecord> avroReader = new GenericDatumReader<>(SCHEMA);
      AvroRecordReader.Cursor ours = new AvroRecordReader.Cursor(block);
      for (int i = 0; i < records.size(); i++) {
        String expected = AvroRecord.of(avroReader.read(null, avro), known).toString();
        assertEquals(expected, reader.read(ours).toString(), "round " + round + ", record " + i);
      }
      assertTrue(ours.atEnd(), "every byte of the block read");
    }
  }

  @Test
  void aBlockThatEndsInsideARecordFailsRatherThanReadingPastIt() throws IOException {
    byte[] block = encode(List.of(randomEntry(new Random(1))));
    byte[] cut = java.util.Arrays.copyOf(block, block.length / 2);
    AvroRecordReader reader = AvroRecordReader.of(SCHEMA.toString());
    IOException e =
        assertThrows(IOException.class, () -> reader.read(new AvroRecordReader.Cursor(cut)));
    assertTrue(e.getMessage().contains("past the block's end"), e.getMessage());
  }

  @Test
  void aSchemaReferringToAnUndefinedTypeIsRefusedNamingIt() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                AvroRecordReader.of(
                    "{\"type\":\"record\",\"name\":\"r\",\"fields\":"
                        + "[{\"name\":\"f\",\"type\":\"Missing\"}]}"));
    assertTrue(e.getMessage().contains("Missing"), e.getMessage());
  }

  private static byte[] encode(List<GenericRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(SCHEMA);
    for (GenericRecord r : records) {
      writer.write(r, encoder);
    }
    encoder.flush();
    return out.toByteArray();
  }

  private static GenericRecord randomEntry(Random random) {
    GenericRecord r = new GenericData.Record(SCHEMA);
    r.put("flag", random.nextBoolean());
    r.put("small", random.nextInt());
    r.put("big", random.nextBoolean() ? random.nextLong() : (long) random.nextInt(100) - 50);
    r.put("ratio", random.nextFloat() * 1000 - 500);
    r.put("exact", random.nextGaussian() * 1e9);
    r.put("raw", ByteBuffer.wrap(randomBytes(random, random.nextInt(300))));
    r.put("text", randomText(random));
    r.put("at", random.nextLong() >>> 20);
    Schema color = SCHEMA.getField("color").schema();
    r.put(
        "color", new GenericData.EnumSymbol(color, color.getEnumSymbols().get(random.nextInt(3))));
    r.put("hash", new GenericData.Fixed(SCHEMA.getField("hash").schema(), randomBytes(random, 4)));
    Schema stats = SCHEMA.getField("stats").schema();
    r.put("stats", randomStats(random, stats));
    r.put("moreStats", randomStats(random, stats));
    r.put("otherStats", random.nextBoolean() ? null : randomStats(random, stats));
    List<String> names = new ArrayList<>();
    for (int i = random.nextInt(5); i > 0; i--) {
      names.add(randomText(random));
    }
    r.put("names", names);
    Map<String, GenericRecord> byName = new HashMap<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      byName.put(randomText(random), randomStats(random, stats));
    }
    r.put("byName", byName);
    switch (random.nextInt(4)) {
      case 0 -> r.put("choice", null);
      case 1 -> r.put("choice", random.nextInt());
      case 2 -> r.put("choice", randomText(random));
      default -> r.put("choice", new GenericData.EnumSymbol(color, "GREEN"));
    }
    GenericRecord foreign = new GenericData.Record(SCHEMA.getField("foreign").schema());
    foreign.put("id", random.nextLong());
    r.put("foreign", foreign);
    Schema link = SCHEMA.getField("chain").schema().getTypes().get(1);
    GenericRecord chain = null;
    for (int i = random.nextInt(4); i > 0; i--) {
      GenericRecord next = new GenericData.Record(link);
      next.put("value", random.nextInt(1000));
      next.put("next", chain);
      chain = next;
    }
    r.put("chain", chain);
    return r;
  }

  private static GenericRecord randomStats(Random random, Schema stats) {
    GenericRecord s = new GenericData.Record(stats);
    s.put("min", ByteBuffer.wrap(randomBytes(random, random.nextInt(20))));
    if (random.nextInt(4) == 0) {
      s.put("nulls", null);
    } else {
      List<Long> nulls = new ArrayList<>();
      for (int i = random.nextInt(6); i > 0; i--) {
        nulls.add(random.nextInt(3) == 0 ? null : (long) random.nextInt(1_000_000));
      }
      s.put("nulls", nulls);
    }
    return s;
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Text with characters of one to four UTF-8 bytes. */
  private static String randomText(Random random) {
    StringBuilder text = new StringBuilder();
    String[] pieces = {"a", "Z", "é", "€", "𝄞", "_", "9"};
    for (int i = random.nextInt(12); i > 0; i--) {
      text.append(pieces[random.nextInt(pieces.length)]);
    }
    return text.toString();
  }
}
