package io.changelake.cli;

import io.changelake.conformance.ConformanceRun;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tables of orders (order_id, store_id, amount; key order_id) in a local warehouse, written with
 * the storage API, for the commands to read. The database is {@code shop}.
 */
final class TestWarehouse implements AutoCloseable {

  /** One row to write. */
  record Write(RowKind kind, long orderId, long storeId, long amount) {}

  private final Path root;
  private final LocalObjectStore store;
  private long commitIdentifier;

  TestWarehouse(Path root) throws IOException {
    this.root = root;
    this.store = new LocalObjectStore(root);
  }

  /** The location to pass as --warehouse. */
  String location() {
    return root.toString();
  }

  /**
   * Runs the table command {@code command} on shop.orders of this warehouse, then {@code flags}.
   */
  CommandRun onOrders(String command, String... flags) {
    String[] table = {
      command, "--warehouse", location(), "--database", "shop", "--table", "orders"
    };
    String[] all = Arrays.copyOf(table, table.length + flags.length);
    System.arraycopy(flags, 0, all, table.length, flags.length);
    return CommandRun.of(all);
  }

  /** Creates shop.{name} with one bucket and the given options. */
  Table create(String name, Map<String, String> options) throws IOException {
    return create(name, List.of(), List.of("order_id"), 1, options);
  }

  /** Creates shop.{name} partitioned by store_id, keyed by (store_id, order_id), two buckets. */
  Table createPartitioned(String name, Map<String, String> options) throws IOException {
    return create(name, List.of("store_id"), List.of("store_id", "order_id"), 2, options);
  }

  private Table create(
      String name,
      List<String> partitionKeys,
      List<String> primaryKeys,
      int buckets,
      Map<String, String> options)
      throws IOException {
    Map<String, String> all = new LinkedHashMap<>(Map.of("bucket", Integer.toString(buckets)));
    all.putAll(options);
    TableSchema schema =
        TableSchema.create(ConformanceRun.ORDERS, partitionKeys, primaryKeys, all, null);
    return Table.create(store, new TablePath("shop", name), schema);
  }

  /** Opens shop.{name}. */
  Table open(String name) throws IOException {
    return Table.open(store, new TablePath("shop", name));
  }

  /** Writes one commit's rows and commits them. */
  void commit(Table table, Write... writes) throws IOException {
    commitIdentifier++;
    try (TableWriter writer = table.newWriter()) {
      for (Write w : writes) {
        writer.write(w.kind(), new Object[] {w.orderId(), w.storeId(), w.amount()});
      }
      table.newCommit("test").commit(commitIdentifier, writer.prepareCommit(commitIdentifier));
    }
  }

  /**
   * The seed story: orders 1001 (store 10, 100) and 1002 (store 20, 50); 1001 corrected to 80 by an
   * upsert without a before-image; 1002 deleted.
   */
  Table story(String name, String producer) throws IOException {
    return story(create(name, Map.of("changelog-producer", producer)));
  }

  /** Writes the seed story into a table. */
  Table story(Table table) throws IOException {
    commit(table, insert(1001, 10, 100), insert(1002, 20, 50));
    commit(table, new Write(RowKind.UPDATE_AFTER, 1001, 10, 80));
    commit(table, new Write(RowKind.DELETE, 1002, 20, 50));
    return table;
  }

  static Write insert(long orderId, long storeId, long amount) {
    return new Write(RowKind.INSERT, orderId, storeId, amount);
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
