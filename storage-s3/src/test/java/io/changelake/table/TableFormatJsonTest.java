package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Schema and snapshot files are printed byte for byte as Paimon 1.3.1 printed them, and as the
 * hand-written JSON trees did before the files were bound to records: the golden files under {@code
 * /golden} were printed by that earlier code, from the values built here.
 */
class TableFormatJsonTest {

  private static byte[] resource(String path) throws Exception {
    try (InputStream in = TableFormatJsonTest.class.getResourceAsStream(path)) {
      return in.readAllBytes();
    }
  }

  @Test
  void schemaFilesRoundTripByteForByte() throws Exception {
    for (String producer : new String[] {"lookup", "input"}) {
      String file = "/paimon-1.3.1/" + producer + "/orders/schema/schema-0";
      byte[] paimon = resource(file);
      TableSchema schema = TableSchema.fromJson(paimon, file);
      assertEquals(Orders.ROW_TYPE, schema.rowType());
      assertArrayEquals(paimon, schema.toJson(), new String(schema.toJson()));
    }
  }

  @Test
  void snapshotFilesRoundTripByteForByte() throws Exception {
    for (int id = 1; id <= 4; id++) {
      String file = "/paimon-1.3.1/lookup/orders/snapshot/snapshot-" + id;
      byte[] paimon = resource(file);
      Snapshot snapshot = Snapshot.fromJson(paimon, file);
      assertEquals(id, snapshot.id());
      assertArrayEquals(paimon, snapshot.toJson(), new String(snapshot.toJson()));
    }
  }

  /** Snapshots covering every optional field present and absent, escapes and extreme numbers. */
  static Map<String, Snapshot> goldenSnapshots() {
    Map<String, Snapshot> cases = new LinkedHashMap<>();
    cases.put(
        "snapshot-append",
        new Snapshot(
            1,
            0,
            "manifest-list-4f1d-1",
            884L,
            "manifest-list-4f1d-2",
            1022L,
            null,
            null,
            null,
            "job-1",
            1,
            CommitKind.APPEND,
            1764547200000L,
            10,
            10,
            0,
            null));
    cases.put(
        "snapshot-compact-with-changelog",
        new Snapshot(
            7,
            1,
            "manifest-list-9e0a-14",
            1020L,
            "manifest-list-9e0a-15",
            1130L,
            "manifest-list-9e0a-16",
            990L,
            null,
            "user \"\u00fc\u20ac\" \\/\t\u0001",
            Long.MAX_VALUE,
            CommitKind.COMPACT,
            1764547200123L,
            3,
            -5,
            12,
            1764547100000L));
    cases.put(
        "snapshot-without-sizes",
        new Snapshot(
            2,
            0,
            "base",
            null,
            "delta",
            null,
            "changelog",
            null,
            null,
            "",
            0,
            CommitKind.OVERWRITE,
            0,
            0,
            0,
            0,
            Long.MIN_VALUE));
    return cases;
  }

  /** Schemas with every supported type, a partition, a comment and escapes; and a bare one. */
  static Map<String, TableSchema> goldenSchemas() {
    String[][] columns = {
      {"0", "day", "INT NOT NULL"},
      {"1", "k", "BIGINT NOT NULL"},
      {"2", "c_bool", "BOOLEAN"},
      {"3", "c_tiny", "TINYINT"},
      {"4", "c_small", "SMALLINT"},
      {"5", "c_int", "INT"},
      {"6", "c_float", "FLOAT"},
      {"7", "c_double", "DOUBLE"},
      {"8", "c_dec", "DECIMAL(38, 10)"},
      {"9", "c_char", "CHAR(5) NOT NULL"},
      {"10", "c_varchar", "VARCHAR(40)"},
      {"11", "c_string", "STRING"},
      {"12", "c_binary", "BINARY(4)"},
      {"13", "c_varbinary", "VARBINARY(10)"},
      {"14", "c_bytes", "BYTES"},
      {"15", "c_date", "DATE"},
      {"16", "c_ts", "TIMESTAMP(3)"},
      {"17", "c_ts9", "TIMESTAMP(9)"},
      {"21", "c_ltz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
      {"19", "\u00e9t\u00e9 \"q\"", "STRING NOT NULL"}
    };
    List<DataField> fields = new ArrayList<>();
    for (String[] c : columns) {
      fields.add(new DataField(Integer.parseInt(c[0]), c[1], DataType.parse(c[2])));
    }
    Map<String, String> options = new LinkedHashMap<>();
    options.put("bucket", "3");
    options.put("changelog-producer", "lookup");
    options.put("fields.c_string.aggregate-function", "listagg");
    options.put("fields.c_string.list-agg-delimiter", "\u00a7 \"\\\n");
    options.put("path", "s3://bucket/wh/db.db/t");
    Map<String, TableSchema> cases = new LinkedHashMap<>();
    cases.put(
        "schema-partitioned-with-comment",
        new TableSchema(
            3,
            new RowType(fields),
            List.of("day"),
            List.of("day", "k"),
            TableOptions.of(options),
            "orders \"\u00fc\" \n line",
            1764547200456L));
    cases.put(
        "schema-no-options",
        new TableSchema(
            0,
            new RowType(
                List.of(
                    new DataField(0, "order_id", DataType.parse("BIGINT NOT NULL")),
                    new DataField(1, "amount", DataType.parse("BIGINT")))),
            List.of(),
            List.of("order_id"),
            TableOptions.of(Map.of()),
            null,
            0));
    return cases;
  }

  @Test
  void snapshotsPrintTheGoldenBytesAndReadBackEqual() throws Exception {
    for (Map.Entry<String, Snapshot> c : goldenSnapshots().entrySet()) {
      byte[] golden = resource("/golden/" + c.getKey());
      byte[] printed = c.getValue().toJson();
      assertArrayEquals(
          golden, printed, c.getKey() + ":\n" + new String(printed, StandardCharsets.UTF_8));
      assertEquals(c.getValue(), Snapshot.fromJson(golden, c.getKey()), c.getKey());
    }
  }

  @Test
  void schemasPrintTheGoldenBytesAndReadBackEqual() throws Exception {
    for (Map.Entry<String, TableSchema> c : goldenSchemas().entrySet()) {
      byte[] golden = resource("/golden/" + c.getKey());
      byte[] printed = c.getValue().toJson();
      assertArrayEquals(
          golden, printed, c.getKey() + ":\n" + new String(printed, StandardCharsets.UTF_8));
      TableSchema read = TableSchema.fromJson(golden, c.getKey());
      assertArrayEquals(golden, read.toJson(), c.getKey());
      assertEquals(c.getValue().rowType(), read.rowType(), c.getKey());
      assertEquals(c.getValue().options().asMap(), read.options().asMap(), c.getKey());
    }
  }

  @Test
  void paimonReadsTheGoldenFiles() throws Exception {
    for (Map.Entry<String, Snapshot> c : goldenSnapshots().entrySet()) {
      org.apache.paimon.Snapshot paimon =
          org.apache.paimon.Snapshot.fromJson(
              new String(resource("/golden/" + c.getKey()), StandardCharsets.UTF_8));
      Snapshot ours = c.getValue();
      assertEquals(ours.id(), paimon.id(), c.getKey());
      assertEquals(ours.commitUser(), paimon.commitUser(), c.getKey());
      assertEquals(ours.commitIdentifier(), paimon.commitIdentifier(), c.getKey());
      assertEquals(ours.commitKind().name(), paimon.commitKind().name(), c.getKey());
      assertEquals(ours.changelogManifestList(), paimon.changelogManifestList(), c.getKey());
      assertEquals(
          ours.changelogManifestListSize(), paimon.changelogManifestListSize(), c.getKey());
      assertEquals(ours.watermark(), paimon.watermark(), c.getKey());
    }
    for (Map.Entry<String, TableSchema> c : goldenSchemas().entrySet()) {
      org.apache.paimon.schema.TableSchema paimon =
          org.apache.paimon.schema.TableSchema.fromJson(
              new String(resource("/golden/" + c.getKey()), StandardCharsets.UTF_8));
      TableSchema ours = c.getValue();
      assertEquals(ours.rowType().names(), paimon.fieldNames(), c.getKey());
      assertEquals(ours.primaryKeys(), paimon.primaryKeys(), c.getKey());
      assertEquals(ours.partitionKeys(), paimon.partitionKeys(), c.getKey());
      assertEquals(ours.options().asMap(), paimon.options(), c.getKey());
      assertEquals(ours.comment(), paimon.comment(), c.getKey());
    }
  }

  @Test
  void aFileWithoutARequiredFieldIsRefusedNamingTheFileAndField() throws Exception {
    byte[] noUser =
        new String(resource("/golden/snapshot-append"), StandardCharsets.UTF_8)
            .replace("\"commitUser\" : \"job-1\",", "")
            .getBytes(StandardCharsets.UTF_8);
    IOException e = assertThrows(IOException.class, () -> Snapshot.fromJson(noUser, "snapshot-1"));
    assertTrue(e.getMessage().startsWith("snapshot-1 "), e.getMessage());
    assertTrue(e.getMessage().contains("commitUser"), e.getMessage());
    byte[] badKind =
        new String(resource("/golden/snapshot-append"), StandardCharsets.UTF_8)
            .replace("\"APPEND\"", "\"MERGE\"")
            .getBytes(StandardCharsets.UTF_8);
    e = assertThrows(IOException.class, () -> Snapshot.fromJson(badKind, "snapshot-1"));
    assertTrue(e.getMessage().contains("MERGE"), e.getMessage());
    byte[] nested =
        new String(resource("/golden/schema-no-options"), StandardCharsets.UTF_8)
            .replace("\"BIGINT\"", "{ \"type\" : \"ARRAY\", \"element\" : \"INT\" }")
            .getBytes(StandardCharsets.UTF_8);
    e = assertThrows(IOException.class, () -> TableSchema.fromJson(nested, "schema-0"));
    assertTrue(e.getMessage().contains("'amount' has a nested type"), e.getMessage());
  }
}
