package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.table.Table;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlterCommandTest {

  @TempDir Path dir;

  @Test
  void eachAlterWritesTheNextSchemaAndTheRowsReadOnUnderIt() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "lookup");

      CommandRun add =
          warehouse.onOrders(
              "alter", "add-column", "remark", "STRING", "--after", "store_id", "--comment", "why");
      assertEquals(0, add.exitCode(), add.err());
      assertTrue(add.out().contains("schema 1 of "), add.out());
      assertTrue(add.out().contains("  add column remark STRING after store_id"), add.out());
      assertEquals(0, warehouse.onOrders("alter", "rename-column", "amount", "total").exitCode());
      assertEquals(0, warehouse.onOrders("alter", "comment", "the orders").exitCode());
      CommandRun set = warehouse.onOrders("alter", "set-option", "snapshot.num-retained.min=5");
      assertEquals(0, set.exitCode(), set.err());
      assertEquals(
          0, warehouse.onOrders("alter", "reset-option", "snapshot.num-retained.min").exitCode());

      Table table = warehouse.open("orders");
      assertEquals(5, table.schema().id());
      assertEquals(
          List.of("order_id", "store_id", "remark", "total"), table.schema().rowType().names());
      List<Object[]> rows = table.newRead().readAll();
      assertEquals(1, rows.size());
      assertArrayEquals(new Object[] {1001L, 10L, null, 80L}, rows.get(0));

      CommandRun inspect = warehouse.onOrders("inspect");
      String out = inspect.out();
      assertTrue(out.contains("schema history 6 versions\n"), out);
      assertTrue(out.contains("     created\n"), out);
      assertTrue(out.contains("     add column remark STRING after store_id\n"), out);
      assertTrue(out.contains("     rename column amount to total\n"), out);
      assertTrue(out.contains("     comment on table\n"), out);
      assertTrue(out.contains("     set snapshot.num-retained.min=5\n"), out);
      assertTrue(out.contains("     reset snapshot.num-retained.min\n"), out);
    }
  }

  @Test
  void aRefusedAlterPrintsTheReasonAndWritesNothing() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun dropKey = warehouse.onOrders("alter", "drop-column", "order_id");
      assertEquals(2, dropKey.exitCode());
      assertTrue(
          dropKey.err().contains("cannot drop column order_id: 'order_id' is a key column"),
          dropKey.err());
      CommandRun narrow = warehouse.onOrders("alter", "alter-column-type", "amount", "INT");
      assertEquals(2, narrow.exitCode());
      assertTrue(narrow.err().contains("only widening is allowed"), narrow.err());
      CommandRun engine = warehouse.onOrders("alter", "set-option", "merge-engine=first-row");
      assertEquals(2, engine.exitCode());
      assertTrue(engine.err().contains("table that holds data"), engine.err());

      assertEquals(0, warehouse.open("orders").schema().id());
    }
  }
}
