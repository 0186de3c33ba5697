package io.changelake.beam;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.joda.time.Duration;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * One write of rows for three tables of different columns and keys, one of them partitioned, each
 * created on its first row ({@link ChangelakeWrite#toDestinations}): every table reads back with
 * our reader and Paimon 1.3.1's as the newest version of each key by the sequence field, each
 * table's snapshots carry its own commit user, and rows that cannot reach a table are dead letters
 * naming their destination.
 */
public class MultiTableWriteTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  /** The union of the three tables' columns, with the destination, the sequence and the kind. */
  static final Schema UNION =
      Schema.builder()
          .addNullableField("destination", Schema.FieldType.STRING)
          .addNullableField("order_id", Schema.FieldType.INT64)
          .addNullableField("amount", Schema.FieldType.INT64)
          .addNullableField("customer_id", Schema.FieldType.INT64)
          .addNullableField("name", Schema.FieldType.STRING)
          .addNullableField("day", Schema.FieldType.STRING)
          .addNullableField("sku", Schema.FieldType.STRING)
          .addNullableField("qty", Schema.FieldType.INT32)
          .addInt64Field("seq")
          .addStringField("op")
          .build();

  static final TablePath ORDERS = new TablePath("shop", "orders");
  static final TablePath CUSTOMERS = new TablePath("shop", "customers");
  static final TablePath STOCK = new TablePath("stock", "levels");

  /** Each destination's table; {@code shop.broken}'s definition fails, as a user's may. */
  static TableDefinition define(Destination destination) {
    return switch (destination.toString()) {
      case "shop.orders" ->
          TableDefinition.of(List.of("order_id", "amount", "seq"), List.of("order_id"))
              .withBuckets(2)
              .withOptions(Map.of("changelog-producer", "lookup"));
      case "shop.customers" ->
          TableDefinition.of(List.of("customer_id", "name", "seq"), List.of("customer_id"));
      case "stock.levels" ->
          TableDefinition.of(List.of("day", "sku", "qty", "seq"), List.of("day", "sku"))
              .withPartitionKeys(List.of("day"));
      case "shop.partials" ->
          TableDefinition.of(List.of("order_id", "amount", "seq"), List.of("order_id"))
              .withOptions(Map.of("merge-engine", "partial-update"));
      default -> throw new IllegalStateException("no table is defined for " + destination);
    };
  }

  private static Row order(long seq, String op, long id, long amount) {
    return Row.withSchema(UNION)
        .addValues("shop.orders", id, amount, null, null, null, null, null, seq, op)
        .build();
  }

  private static Row customer(long seq, String op, long id, String name) {
    return Row.withSchema(UNION)
        .addValues("shop.customers", null, null, id, name, null, null, null, seq, op)
        .build();
  }

  private static Row stock(long seq, String day, String sku, int qty) {
    return Row.withSchema(UNION)
        .addValues("stock.levels", null, null, null, null, day, sku, qty, seq, "+I")
        .build();
  }

  private static Row routedTo(String destination, long seq) {
    return routedTo(destination, seq, "+I");
  }

  private static Row routedTo(String destination, long seq, String op) {
    return Row.withSchema(UNION)
        .addValues(destination, 1L, 1L, null, null, null, null, null, seq, op)
        .build();
  }

  /** The rows of the first and the second commit: later versions of keys come second. */
  static List<List<Row>> rounds() {
    List<Row> first = new ArrayList<>();
    List<Row> second = new ArrayList<>();
    for (long i = 0; i < 50; i++) {
      first.add(order(10 + i, "+I", i, 100 + i));
      // Arrives before the version it replaces, yet wins by its sequence.
      second.add(0, order(1000 + i, "+U", i, 2 * i));
      first.add(customer(10 + i, "+I", i, "c" + i));
      first.add(stock(10 + i, "2026-12-0" + (1 + i % 3), "sku" + i, (int) i));
    }
    second.add(customer(2000, "-D", 7, "c7"));
    second.add(customer(2001, "+U", 8, "renamed"));
    second.add(stock(2002, "2026-12-01", "sku0", 99));
    second.add(routedTo(null, 3000));
    second.add(routedTo("shop.broken", 3001));
    // The writer, not the assigner, refuses this one: partial-update takes no retraction here.
    first.add(routedTo("shop.partials", 3002));
    second.add(routedTo("shop.partials", 3003, "-D"));
    return List.of(first, second);
  }

  static List<Object[]> expectedOrders() {
    List<Object[]> rows = new ArrayList<>();
    for (long i = 0; i < 50; i++) {
      rows.add(new Object[] {i, 2 * i, 1000 + i});
    }
    return rows;
  }

  static List<Object[]> expectedCustomers() {
    List<Object[]> rows = new ArrayList<>();
    for (long i = 0; i < 50; i++) {
      if (i == 8) {
        rows.add(new Object[] {8L, "renamed", 2001L});
      } else if (i != 7) {
        rows.add(new Object[] {i, "c" + i, 10 + i});
      }
    }
    return rows;
  }

  static List<Object[]> expectedStock() {
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"2026-12-01", "sku0", 99, 2002L});
    for (long i = 1; i < 50; i++) {
      rows.add(new Object[] {"2026-12-0" + (1 + i % 3), "sku" + i, (int) i, 10 + i});
    }
    return rows;
  }

  static final List<String> DEAD_LETTER_REASONS =
      List.of(
          "destination (none): destination 'null' is not database.table (for example"
              + " shop.orders)",
          "destination shop.broken: its table definition failed: java.lang.IllegalStateException:"
              + " no table is defined for shop.broken",
          "destination shop.partials: merge-engine 'partial-update' cannot take the retraction"
              + " -D of key [1] without a rule for it; set one of: 'ignore-delete' = 'true' (drop"
              + " retractions), 'partial-update.remove-record-on-delete' = 'true' (a -D removes"
              + " the row), or 'fields.<s>.sequence-group' (a retraction nulls the group's"
              + " columns; add 'partial-update.remove-record-on-sequence-group' = '<s>' to remove"
              + " the row on a -D of that group)");

  private ChangelakeWrite write(String warehouse) {
    return ChangelakeIO.write()
        .toDestinations(warehouse, Destination.ofField("destination"), MultiTableWriteTest::define)
        .withRowKindField("op")
        .withSequenceField("seq")
        .withCommitUser("multi")
        .withCommitInterval(Duration.standardSeconds(10));
  }

  private void run(PCollection<Row> input, String warehouse) {
    WriteResult result = input.apply(write(warehouse));
    PAssert.that(
            result
                .getDeadLetters()
                .apply(
                    MapElements.into(TypeDescriptors.strings())
                        .via(d -> d.getFailure().getDescription())))
        .containsInAnyOrder(DEAD_LETTER_REASONS);
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
  }

  /** Reads the table with ours and with Paimon's reader, checks both and the commit user. */
  private static int assertTable(String warehouse, TablePath path, List<Object[]> expected)
      throws Exception {
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table table = Table.open(store, path);
      Rows.assertSameRows(expected, table.newRead().readAll());
      Rows.assertSameRows(
          expected,
          PaimonTables.readAll(
              PaimonTables.open(Path.of(warehouse).resolve(path.root())), table.schema()));
      List<Long> ids = table.snapshots().listIds();
      for (long id : ids) {
        Snapshot snapshot = table.snapshots().read(id);
        assertEquals(
            "snapshot " + id + " of " + path,
            "multi-" + path.database() + "." + path.table(),
            snapshot.commitUser());
      }
      return ids.size();
    }
  }

  @Test
  public void oneBoundedWriteCreatesAndFillsEachTableWithItsOwnCommitUser() throws Exception {
    String warehouse = folder.newFolder().toString();
    List<Row> rows = new ArrayList<>();
    rounds().forEach(rows::addAll);
    run(pipeline.apply(Create.of(rows).withRowSchema(UNION)), warehouse);

    assertEquals(1, assertTable(warehouse, ORDERS, expectedOrders()));
    assertEquals(1, assertTable(warehouse, CUSTOMERS, expectedCustomers()));
    assertEquals(1, assertTable(warehouse, STOCK, expectedStock()));
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table stock = Table.open(store, STOCK);
      assertEquals(List.of("day"), stock.schema().partitionKeys());
      assertEquals(List.of("day", "sku"), stock.schema().primaryKeys());
      assertEquals("2", Table.open(store, ORDERS).options().asMap().get("bucket"));
    }
  }

  @Test
  public void aStreamingWriteOverSeveralCommitsGivesTheSameTables() throws Exception {
    String warehouse = folder.newFolder().toString();
    List<List<Row>> rounds = rounds();
    Duration past = Duration.standardSeconds(11);
    TestStream<Row> events =
        TestStream.create(RowCoder.of(UNION))
            .addElements(
                rounds.get(0).get(0),
                rounds.get(0).subList(1, rounds.get(0).size()).toArray(new Row[0]))
            .advanceProcessingTime(past)
            .advanceProcessingTime(past)
            .addElements(
                rounds.get(1).get(0),
                rounds.get(1).subList(1, rounds.get(1).size()).toArray(new Row[0]))
            .advanceProcessingTime(past)
            .advanceProcessingTime(past)
            .advanceWatermarkToInfinity();
    run(pipeline.apply(events), warehouse);

    assertTrue(assertTable(warehouse, ORDERS, expectedOrders()) >= 2);
    assertTrue(assertTable(warehouse, CUSTOMERS, expectedCustomers()) >= 2);
    assertTrue(assertTable(warehouse, STOCK, expectedStock()) >= 2);
  }

  @Test
  public void singleTableSettingsAndAMissingRouterFieldAreRefusedWhenApplied() {
    String warehouse = folder.getRoot().toString();
    PCollection<Row> input = pipeline.apply(Create.empty(UNION));
    DeadLetterTest.assertMessage(
        "to(warehouse, database, table) and toDestinations(warehouse, router, definitions)"
            + " exclude each other",
        () -> input.apply(write(warehouse).to(warehouse, "shop", "orders")));
    DeadLetterTest.assertMessage(
        "withPrimaryKeys describes the one table of to(...)",
        () -> input.apply(write(warehouse).withPrimaryKeys(List.of("order_id"))));
    DeadLetterTest.assertMessage(
        "withBuckets describes the one table of to(...)",
        () -> input.apply(write(warehouse).withBuckets(2)));
    DeadLetterTest.assertMessage(
        "withTableOptions describes the one table of to(...)",
        () -> input.apply(write(warehouse).withTableOptions(Map.of())));
    DeadLetterTest.assertMessage(
        "withSchemaEvolution() is not offered with toDestinations",
        () -> input.apply(write(warehouse).withSchemaEvolution()));
    DeadLetterTest.assertMessage(
        "Destination.ofField('qty'), ...): the input has no STRING field of that name",
        () ->
            input.apply(
                write(warehouse)
                    .toDestinations(
                        warehouse, Destination.ofField("qty"), MultiTableWriteTest::define)));
    DeadLetterTest.assertMessage(
        "Destination.ofField('table'), ...): the input has no STRING field of that name",
        () ->
            input.apply(
                write(warehouse)
                    .toDestinations(
                        warehouse, Destination.ofField("table"), MultiTableWriteTest::define)));
    PCollection<Row> unbounded =
        pipeline.apply(
            "Unbounded", TestStream.create(RowCoder.of(UNION)).advanceWatermarkToInfinity());
    DeadLetterTest.assertMessage(
        "an unbounded write of updates or deletes needs the order of each key's changes",
        () ->
            unbounded.apply(
                ChangelakeIO.write()
                    .toDestinations(
                        warehouse, Destination.ofField("destination"), MultiTableWriteTest::define)
                    .withRowKindField("op")));
    pipeline.enableAbandonedNodeEnforcement(false);
  }
}
