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
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

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

  /**
   * A stream of rounds, round r an +I of orders 0 to {@code keysPerRound[r - 1]} - 1 (store {@code
   * key % 5}, amount {@code r * 1000 + key}, so amount orders a key's versions) followed by
   * processing time moved twice past {@code interval}: a write that commits every {@code interval}
   * commits each round on its own.
   */
  static TestStream<Row> rounds(Duration interval, int... keysPerRound) {
    TestStream.Builder<Row> events = TestStream.create(RowCoder.of(SCHEMA));
    for (int r = 1; r <= keysPerRound.length; r++) {
      List<Row> rows = new ArrayList<>();
      for (long key = 0; key < keysPerRound[r - 1]; key++) {
        rows.add(change("+I", key, key % 5, r * 1000L + key));
      }
      events =
          events
              .addElements(rows.get(0), rows.subList(1, rows.size()).toArray(new Row[0]))
              .advanceProcessingTime(interval.plus(Duration.millis(1)))
              .advanceProcessingTime(interval.plus(Duration.millis(1)));
    }
    return events.advanceWatermarkToInfinity();
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
