package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.table.Table;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TagCommandTest {

  @TempDir Path dir;

  private static CommandRun tag(TestWarehouse warehouse, String... flags) {
    return warehouse.onOrders("tag", flags);
  }

  @Test
  void tagsAreCreatedListedReadAndDeleted() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = warehouse.create("orders", Map.of());
      warehouse.commit(table, TestWarehouse.insert(1, 10, 100));
      warehouse.commit(table, TestWarehouse.insert(2, 10, 200));

      CommandRun first = tag(warehouse, "--create", "first", "--snapshot", "1");
      assertEquals(0, first.exitCode(), first.err());
      assertTrue(first.out().contains("tagged snapshot 1"), first.out());
      assertEquals(0, tag(warehouse, "--create", "latest").exitCode());
      assertTrue(Files.exists(dir.resolve("shop.db/orders/tag/tag-first")));

      CommandRun list = tag(warehouse);
      assertTrue(list.out().contains("tags of"), list.out());
      assertTrue(list.out().contains("  first  snapshot 1"), list.out());
      assertTrue(list.out().contains("  latest  snapshot 2"), list.out());
      assertEquals(1, table.newRead().readAll(table.tags().read("first")).size());

      CommandRun again = tag(warehouse, "--create", "first");
      assertEquals(2, again.exitCode());
      assertTrue(again.err().contains("tag 'first' already exists"), again.err());

      assertEquals(0, tag(warehouse, "--delete", "first").exitCode());
      assertTrue(table.tags().get("first").isEmpty());
      assertTrue(table.tags().get("latest").isPresent());
    }
  }

  @Test
  void aTableWithAnOptionChangelakeLacksIsRefusedByNameNotCrashedOn() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = warehouse.create("orders", Map.of());
      warehouse.commit(table, TestWarehouse.insert(1, 10, 100));
      // Another engine switched deletion vectors on: a new schema with the option.
      Path schemas = dir.resolve("shop.db/orders/schema");
      String first = Files.readString(schemas.resolve("schema-0"), StandardCharsets.UTF_8);
      Files.writeString(
          schemas.resolve("schema-1"),
          first
              .replaceFirst("\"id\" : 0,", "\"id\" : 1,")
              .replace(
                  "\"options\" : {",
                  "\"options\" : {\n    \"deletion-vectors.enabled\" : \"true\","),
          StandardCharsets.UTF_8);

      CommandRun expire =
          CommandRun.of(
              "expire",
              "--warehouse",
              warehouse.location(),
              "--database",
              "shop",
              "--table",
              "orders");
      assertEquals(2, expire.exitCode(), expire.err());
      assertTrue(expire.err().contains("'deletion-vectors.enabled'"), expire.err());
      assertTrue(expire.err().contains("deletion vectors"), expire.err());
    }
  }
}
