package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Rows;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch read on the DirectRunner: every type arrives as its Beam type with the value the table
 * holds; snapshot by id and by time, projection and partition filter.
 */
class ReadRowsTest {

  private static final TablePath PAYMENTS = new TablePath("shop", "payments");
  private static final RowType ROW_TYPE =
      RowType.of(
          new String[] {"region", "payment_id", "amount", "day", "created", "paid", "note", "ok"},
          new DataType[] {
            DataType.string().notNull(),
            DataType.bigint().notNull(),
            DataType.decimal(10, 2),
            DataType.date(),
            DataType.timestamp(6),
            DataType.timestampLtz(3),
            DataType.bytes(),
            DataType.booleanType()
          });

  @TempDir java.nio.file.Path warehouse;

  private LocalObjectStore store;
  private Table table;
  private final List<Object[]> firstCommit = new ArrayList<>();

  private static Object[] payment(String region, long id) {
    return new Object[] {
      region,
      id,
      new BigDecimal(id + ".25"),
      LocalDate.of(2024, 3, (int) id),
      LocalDateTime.of(2024, 3, (int) id, 10, 0, 0, 123_456_000),
      Instant.ofEpochMilli(1_700_000_000_000L + id),
      new byte[] {(byte) id},
      id % 2 == 0
    };
  }

  @BeforeEach
  void writePayments() throws Exception {
    store = new LocalObjectStore(warehouse);
    table =
        Table.create(
            store,
            PAYMENTS,
            TableSchema.create(
                ROW_TYPE,
                List.of("region"),
                List.of("region", "payment_id"),
                Map.of("bucket", "2"),
                null));
    try (TableWriter writer = table.newWriter()) {
      for (long id = 1; id <= 6; id++) {
        Object[] row = payment(id % 2 == 0 ? "eu" : "us", id);
        firstCommit.add(row);
        writer.write(RowKind.INSERT, row);
      }
      table.newCommit("payments").commit(1, writer.prepareCommit(1));
      Thread.sleep(5);
      writer.write(RowKind.INSERT, payment("eu", 8));
      writer.write(RowKind.DELETE, payment("us", 1));
      table.newCommit("payments").commit(2, writer.prepareCommit(2));
    }
  }

  private List<Object[]> read(ReadRows read) {
    Pipeline pipeline = Pipeline.create();
    CollectedRows<Row> rows = new CollectedRows<>();
    rows.collect(pipeline.apply(read));
    pipeline.run().waitUntilFinish();
    return rows.elements().stream().map(r -> r.getValues().toArray()).toList();
  }

  private ReadRows payments() {
    return ChangelakeIO.read().from(warehouse.toString(), PAYMENTS.database(), PAYMENTS.table());
  }

  @Test
  void theLatestSnapshotReadsAsTheTableWithEveryTypeMapped() throws Exception {
    Rows.assertSameRows(table.newRead().readAll(), read(payments()));
    Pipeline pipeline = Pipeline.create();
    Schema schema = pipeline.apply(payments()).getSchema();
    assertEquals(FieldType.STRING.withNullable(false), schema.getField("region").getType());
    assertEquals(FieldType.DECIMAL.withNullable(true), schema.getField("amount").getType());
    assertEquals(FieldType.BYTES.withNullable(true), schema.getField("note").getType());
  }

  @Test
  void aSnapshotIsReadByIdAndByTime() throws Exception {
    Rows.assertSameRows(firstCommit, read(payments().atSnapshot(1)));
    long firstTime = table.snapshots().read(1).timeMillis();
    Rows.assertSameRows(firstCommit, read(payments().asOfTimestamp(firstTime)));
  }

  @Test
  void projectionAndPartitionFilterKeepTheChosenColumnsOfTheChosenPartitions() throws Exception {
    List<Object[]> expected = new ArrayList<>();
    for (Object[] row : table.newRead().readAll()) {
      if (row[0].equals("eu")) {
        expected.add(new Object[] {row[1], row[2]});
      }
    }
    Rows.assertSameRows(
        expected,
        read(
            payments()
                .withColumns("payment_id", "amount")
                .withPartitionFilter(p -> p.getString("region").equals("eu"))));
  }
}
