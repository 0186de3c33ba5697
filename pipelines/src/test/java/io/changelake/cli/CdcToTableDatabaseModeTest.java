package io.changelake.cli;

import static io.changelake.templates.DebeziumEnvelopes.CUSTOMERS;
import static io.changelake.templates.DebeziumEnvelopes.ORDERS;
import static io.changelake.templates.DebeziumEnvelopes.VISITS;
import static io.changelake.templates.DebeziumEnvelopes.customer;
import static io.changelake.templates.DebeziumEnvelopes.order;
import static io.changelake.templates.DebeziumEnvelopes.visit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.templates.DebeziumEnvelopes;
import io.changelake.templates.DebeziumEnvelopes.Field;
import io.changelake.templates.TemplateCatalog;
import io.changelake.templates.WrittenDeadLetters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDC template's database mode ({@code --tableNameFormat}): one run over the change events of
 * three Debezium source tables of two source databases writes three changelake tables, each with
 * its own columns and key, read back by changelake and by Paimon 1.3.1 and audited correct by
 * {@code ./changelake audit}; bad events go to the dead letters naming their destination.
 */
class CdcToTableDatabaseModeTest {

  @TempDir Path folder;

  private long lsn = 100;

  /** A PostgreSQL Debezium event of {@code db.table} in the schema envelope, at the next lsn. */
  private String event(
      String db, String table, List<Field> fields, String op, String before, String after) {
    lsn += 8;
    return DebeziumEnvelopes.event(db, table, fields, op, before, after, lsn, null);
  }

  /** Writes the three tables' events, interleaved, into two files. */
  private Path writeEvents() throws Exception {
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();
    for (long i = 1; i <= 20; i++) {
      first.add(event("inventory", "orders", ORDERS, "c", "null", order(i, i % 3, 10 * i)));
      first.add(
          event("inventory", "customers", CUSTOMERS, "r", "null", customer(i, "c" + i, i % 4)));
      first.add(event("crm", "visits", VISITS, "c", "null", visit(i, i, "/p" + i)));
    }
    for (long i = 1; i <= 20; i += 2) {
      second.add(
          event("inventory", "orders", ORDERS, "u", order(i, i % 3, 10 * i), order(i, 5, i)));
      second.add(event("crm", "visits", VISITS, "d", visit(i, i, "/p" + i), "null"));
    }
    second.add(event("inventory", "customers", CUSTOMERS, "u", "null", customer(4, "renamed", 2)));
    second.add(event("inventory", "customers", CUSTOMERS, "d", customer(5, "c5", 1), "null"));
    // Bad events: a wrong type in a known table, and an event naming no source table.
    second.add(
        event(
            "inventory",
            "orders",
            ORDERS,
            "c",
            "null",
            "{\"order_id\":99,\"store_id\":1,\"amount\":\"many\"}"));
    second.add(
        "{\"before\":null,\"after\":"
            + order(98, 1, 1)
            + ",\"op\":\"c\",\"ts_ms\":1,\"source\":{\"lsn\":9999}}");
    Path input = folder.resolve("in");
    Files.createDirectories(input);
    Files.write(input.resolve("1.json"), first);
    Files.write(input.resolve("2.json"), second);
    return input;
  }

  private String[] args(Path input, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--inputFilePattern=" + input.resolve("*.json"),
                "--warehouse=" + folder.resolve("lake"),
                "--database=lake",
                "--tableNameFormat={db}_{table}",
                "--primaryKeys=inventory.orders=order_id;inventory.customers=customer_id;"
                    + "crm.visits=visit_id",
                "--buckets=2",
                "--deadLetterDir=" + folder.resolve("dead"),
                "--runner=DirectRunner"));
    for (String option : more) {
      // A later --x replaces the run's own --x: Beam would take both as a list.
      String name = option.substring(0, option.indexOf('=') + 1);
      args.removeIf(a -> a.startsWith(name));
      args.add(option);
    }
    return args.toArray(String[]::new);
  }

  /** The table's rows without its {@code _sequence} column, by ours and by Paimon's reader. */
  private List<Object[]> rows(String table, List<String> columns) throws Exception {
    TablePath path = new TablePath("lake", table);
    try (LocalObjectStore store = new LocalObjectStore(folder.resolve("lake"))) {
      Table opened = Table.open(store, path);
      List<String> names = opened.schema().rowType().fields().stream().map(f -> f.name()).toList();
      List<String> expectedNames = new ArrayList<>(columns);
      expectedNames.add("_sequence");
      assertEquals(expectedNames, names);
      List<Object[]> ours = withoutSequence(opened.newRead().readAll());
      Rows.assertSameRows(
          ours,
          withoutSequence(
              PaimonTables.readAll(
                  PaimonTables.open(folder.resolve("lake").resolve(path.root())),
                  opened.schema())));
      return ours;
    }
  }

  private static List<Object[]> withoutSequence(List<Object[]> rows) {
    return rows.stream().map(r -> Arrays.copyOf(r, r.length - 1)).toList();
  }

  @Test
  void writesEachSourceTableIntoItsOwnTableAuditedCorrect() throws Exception {
    Path input = writeEvents();

    CommandRun run = CommandRun.of(commandLine(List.of("run", "cdc-to-table"), args(input)));
    assertEquals(0, run.exitCode(), run.out() + run.err());

    List<Object[]> orders = new ArrayList<>();
    for (long i = 1; i <= 20; i++) {
      orders.add(i % 2 == 1 ? new Object[] {i, 5L, i} : new Object[] {i, i % 3, 10 * i});
    }
    Rows.assertSameRows(
        orders, rows("inventory_orders", List.of("order_id", "store_id", "amount")));
    List<Object[]> customers = new ArrayList<>();
    for (long i = 1; i <= 20; i++) {
      if (i == 4) {
        customers.add(new Object[] {4L, "renamed", 2L});
      } else if (i != 5) {
        customers.add(new Object[] {i, "c" + i, i % 4});
      }
    }
    Rows.assertSameRows(
        customers, rows("inventory_customers", List.of("customer_id", "name", "store_id")));
    List<Object[]> visits = new ArrayList<>();
    for (long i = 2; i <= 20; i += 2) {
      visits.add(new Object[] {i, i, "/p" + i});
    }
    Rows.assertSameRows(visits, rows("crm_visits", List.of("visit_id", "customer_id", "page")));

    Map<String, String[]> audits = new LinkedHashMap<>();
    audits.put("inventory_orders", new String[] {"--sum", "amount", "--group-by", "store_id"});
    audits.put("inventory_customers", new String[] {"--group-by", "store_id"});
    audits.put("crm_visits", new String[0]);
    for (Map.Entry<String, String[]> audit : audits.entrySet()) {
      CommandRun audited =
          CommandRun.of(
              commandLine(
                  List.of(
                      "audit",
                      "--warehouse",
                      folder.resolve("lake").toString(),
                      "--database",
                      "lake",
                      "--table",
                      audit.getKey()),
                  audit.getValue()));
      assertEquals(0, audited.exitCode(), audit.getKey() + ": " + audited.out() + audited.err());
      assertTrue(
          audited.out().contains("PASS: the changelog reproduces the table"),
          audit.getKey() + ": " + audited.out());
    }

    List<String> dead = WrittenDeadLetters.sortedLines(folder.resolve("dead"));
    assertEquals(2, dead.size(), dead.toString());
    assertTrue(
        dead.stream()
            .anyMatch(
                d ->
                    d.contains(
                        "destination lake.inventory_orders: wrong type of 'amount' in after")),
        dead.toString());
    assertTrue(
        dead.stream()
            .anyMatch(
                d ->
                    d.contains(
                        "destination (none): the event names no source table (source.db and"
                            + " source.table)")),
        dead.toString());
  }

  @Test
  void optionsThatDoNotFitTheDatabaseModeFailAtLaunchNamingTheFix() throws Exception {
    Path input = writeEvents();
    assertLaunchFails(
        "--table with --tableNameFormat is not offered", args(input, "--table=orders"));
    assertLaunchFails(
        "--inputFilePattern and --bootstrapServers both name a source: give one of them",
        args(input, "--bootstrapServers=localhost:9092", "--topics=t", "--consumerGroup=g"));
    assertLaunchFails(
        "--schemaEvolution with --tableNameFormat is not offered",
        args(input, "--schemaEvolution=true"));
    assertLaunchFails(
        "--primaryKeys has no key for source table crm.visits",
        args(input, "--primaryKeys=inventory.orders=order_id;inventory.customers=customer_id"));
    assertLaunchFails(
        "--tableNameFormat={db} is not valid: put {table} (and {db}) in it",
        args(input, "--tableNameFormat={db}"));
    assertLaunchFails(
        "--columns with --tableNameFormat is not offered", args(input, "--columns=a:INT"));
  }

  private static void assertLaunchFails(String expected, String[] args) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TemplateCatalog.CDC_TO_TABLE.run(args));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }

  /** The words, then the arrays' words: a command line. */
  private static String[] commandLine(List<String> words, String[] more) {
    List<String> all = new ArrayList<>(words);
    all.addAll(Arrays.asList(more));
    return all.toArray(String[]::new);
  }
}
