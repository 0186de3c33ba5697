package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonTables;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CdcToTable} end to end on the DirectRunner, from change-event files into a local table,
 * read afterwards by changelake and by Apache Paimon 1.3.1.
 */
class CdcToTableTest {

  @TempDir Path folder;

  private static final TablePath ORDERS = new TablePath("shop", "orders");

  private static String event(String op, String after, long lsn) {
    return "{\"before\":null,\"after\":"
        + after
        + ",\"op\":\""
        + op
        + "\",\"ts_ms\":1,\"source\":{\"connector\":\"postgresql\",\"lsn\":"
        + lsn
        + "}}";
  }

  /** An event in the schema envelope whose after-image declares {@code store_id} a string. */
  private static String storeAsString(long lsn) {
    return "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"after\",\"type\":\"struct\","
        + "\"fields\":[{\"field\":\"order_id\",\"type\":\"int64\"},"
        + "{\"field\":\"store_id\",\"type\":\"string\"},"
        + "{\"field\":\"amount\",\"type\":\"int32\"}]}]},"
        + "\"payload\":"
        + event("c", "{\"order_id\":5,\"store_id\":\"north\",\"amount\":1}", lsn)
        + "}";
  }

  private PipelineResult.State run(Path input, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--inputFilePattern=" + input,
                "--warehouse=" + folder.resolve("lake"),
                "--database=shop",
                "--table=orders",
                "--columns=order_id:BIGINT,store_id:INT,amount:INT",
                "--primaryKeys=order_id",
                "--buckets=2",
                "--deadLetterDir=" + folder.resolve("dead"),
                "--runner=DirectRunner"));
    args.addAll(Arrays.asList(more));
    return TemplateCatalog.CDC_TO_TABLE.run(args.toArray(String[]::new)).waitUntilFinish();
  }

  /** Rows as text, sorted, without the {@code _sequence} column. */
  private static List<String> text(List<Object[]> rows, TableSchema schema) {
    int sequence = schema.rowType().indexOf(TableColumns.SEQUENCE);
    return rows.stream()
        .map(
            row -> {
              List<Object> values = new ArrayList<>(Arrays.asList(row));
              values.remove(sequence);
              return values.toString();
            })
        .sorted()
        .toList();
  }

  @Test
  void followsAnAddedAndAWidenedColumnWithSchemaEvolution() throws Exception {
    Path input = folder.resolve("in/orders.json");
    Files.createDirectories(input.getParent());
    Files.write(
        input,
        List.of(
            event("c", "{\"order_id\":1,\"store_id\":10,\"amount\":100}", 100),
            event("c", "{\"order_id\":2,\"store_id\":20,\"amount\":50,\"remark\":\"gift\"}", 108),
            event("u", "{\"order_id\":1,\"store_id\":10,\"amount\":5000000000}", 116),
            event("c", "{\"order_id\":3,\"store_id\":30,\"amount\":7,\"tags\":[1,2]}", 124),
            storeAsString(132),
            event("c", "{\"order_id\":4,\"store_id\":40,\"amount\":9}", 140)));

    assertEquals(PipelineResult.State.DONE, run(input, "--schemaEvolution=true"));

    Path table = folder.resolve("lake").resolve(ORDERS.root());
    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      Table orders = Table.open(store, ORDERS);
      TableSchema schema = orders.schema();
      assertEquals(
          "[order_id BIGINT NOT NULL, store_id INT, amount BIGINT, _sequence STRING NOT NULL, remark STRING]",
          schema.rowType().fields().stream()
              .map(f -> f.name() + " " + f.type())
              .toList()
              .toString());
      List<String> expected =
          List.of("[1, 10, 5000000000, null]", "[2, 20, 50, gift]", "[4, 40, 9, null]");
      assertEquals(expected, text(orders.newRead().readAll(), schema));
      assertEquals(expected, text(PaimonTables.readAll(PaimonTables.open(table), schema), schema));
    }
    List<String> dead = WrittenDeadLetters.sortedLines(folder.resolve("dead"));
    assertEquals(2, dead.size(), dead.toString());
    assertTrue(
        dead.get(1).contains("wrong type of 'store_id' in after: expected INT, found"),
        dead.get(1));
    assertTrue(
        dead.get(0).contains("field 'tags' holds a JSON array, for which no column type"),
        dead.get(0));
  }

  @Test
  void withoutSchemaEvolutionIgnoresFieldsThatAreNoColumns() throws Exception {
    Path input = folder.resolve("in/orders.json");
    Files.createDirectories(input.getParent());
    Files.write(
        input,
        List.of(
            event("c", "{\"order_id\":2,\"store_id\":20,\"amount\":50,\"remark\":\"gift\"}", 108)));

    assertEquals(PipelineResult.State.DONE, run(input));

    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      Table orders = Table.open(store, ORDERS);
      assertEquals(0, orders.schema().id());
      assertEquals(List.of("[2, 20, 50]"), text(orders.newRead().readAll(), orders.schema()));
    }
  }
}
