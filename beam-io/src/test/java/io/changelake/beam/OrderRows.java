package io.changelake.beam;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.ChangelogScan;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.KeyValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Test fixture: the orders of the seed story as Beam rows ({@code order_id}, {@code store_id},
 * {@code amount}, {@code op}), and reads of what a write left in the table.
 */
final class OrderRows {

  static final Schema SCHEMA =
      Schema.builder()
          .addInt64Field("order_id")
          .addNullableField("store_id", Schema.FieldType.INT64)
          .addNullableField("amount", Schema.FieldType.INT64)
          .addNullableField("op", Schema.FieldType.STRING)
          .build();

  static final TablePath PATH = new TablePath("shop", "orders");

  private OrderRows() {}

  static Row order(long orderId, long storeId, long amount) {
    return Row.withSchema(SCHEMA).addValues(orderId, storeId, amount, "+I").build();
  }

  static Row change(String op, Long orderId, Long storeId, Long amount) {
    return Row.withSchema(SCHEMA).addValues(orderId, storeId, amount, op).build();
  }

  /** A write of the orders table into {@code warehouse}, created with the given options. */
  static ChangelakeWrite write(String warehouse, java.util.Map<String, String> options) {
    return ChangelakeIO.write()
        .to(warehouse, PATH.database(), PATH.table())
        .withPrimaryKeys(List.of("order_id"))
        .withTableOptions(options)
        .withRowKindField("op");
  }

  /** The table's rows, as our reader merges them. */
  static List<Object[]> readAll(String warehouse, S3Settings s3) throws Exception {
    try (ObjectStore store = ObjectStores.open(warehouse, s3)) {
      return Table.open(store, PATH).newRead().readAll();
    }
  }

  /** Every snapshot's changelog in snapshot order, as {@code +I[1001, 10, 100]} texts. */
  static List<String> changelog(String warehouse) throws IOException {
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table table = Table.open(store, PATH);
      ChangelogScan scan = table.newChangelogScan();
      List<String> changes = new ArrayList<>();
      for (long id : table.snapshots().listIds()) {
        Snapshot s = table.snapshots().read(id);
        for (ChangelogTask task : scan.changes(s)) {
          try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
            while (reader.hasNext()) {
              KeyValue kv = reader.next();
              changes.add(kv.kind().shortString() + Arrays.deepToString(kv.value()));
            }
          }
        }
      }
      return changes;
    }
  }
}
