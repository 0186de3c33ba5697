package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.schema.TableSchema;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/** Schema and snapshot files are printed byte for byte as Paimon 1.3.1 printed them. */
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
}
