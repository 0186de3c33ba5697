package io.changelake.templates;

import com.fasterxml.jackson.databind.JsonNode;
import io.changelake.beam.Destination;
import io.changelake.beam.TableDefinition;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The database mode of {@link CdcToTable} ({@code --tableNameFormat}): the Debezium source tables
 * of the input, each with the changelake table it goes to, its columns (from its events' schema
 * envelope) and its primary key (from {@code --primaryKeys}), found at launch by reading the input
 * once: the files of {@code --inputFilePattern}, or from Kafka the first event in the envelope of
 * each topic of {@code --topics} or {@code --topicPattern} (Debezium writes one topic per source
 * table; {@link FirstRecords}). A Beam schema is fixed when the pipeline is built, so the tables'
 * change rows travel as rows of their union ({@link #unionSchema()}), each naming its table in
 * {@link TableColumns#DESTINATION}.
 *
 * <p>Refused at launch, naming the fix: {@code --table}, {@code --columns}, {@code
 * --schemaEvolution}, a format without {@code {table}}, a source table without a key, without an
 * event in the envelope, or named by {@code --primaryKeys} but absent, a topic that holds no event
 * in the envelope within 30 s (its table's columns are unknown: launch once Debezium has written to
 * it), two source tables formatted to one name, and one column name with two types in two tables.
 */
final class SourceTables implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How long the launch waits for each topic's first event in the envelope. */
  private static final Duration TOPIC_WAIT = Duration.ofSeconds(30);

  /** One source table ({@code db.table} as its events' {@code source} names it). */
  record SourceTable(
      String source, Destination destination, TableColumns columns, List<String> primaryKeys)
      implements Serializable {}

  private final Map<String, SourceTable> bySource;
  private final Map<Destination, SourceTable> byDestination;
  private final int buckets;
  private final Map<String, String> tableOptions;
  private final ColumnType.Unit timeUnit;

  private SourceTables(
      List<SourceTable> tables,
      int buckets,
      Map<String, String> tableOptions,
      ColumnType.Unit timeUnit) {
    this.bySource = new LinkedHashMap<>();
    this.byDestination = new LinkedHashMap<>();
    for (SourceTable t : tables) {
      bySource.put(t.source(), t);
      SourceTable clash = byDestination.put(t.destination(), t);
      if (clash != null) {
        throw new IllegalArgumentException(
            "--tableNameFormat gives source tables "
                + clash.source()
                + " and "
                + t.source()
                + " the one name "
                + t.destination()
                + ": use both {db} and {table}");
      }
    }
    this.buckets = buckets;
    this.tableOptions = Map.copyOf(tableOptions);
    this.timeUnit = timeUnit;
  }

  /**
   * Checks the database mode's options and reads the input (files, or the topics of {@code kafka})
   * for the source tables.
   *
   * @param kafka the Kafka source the options name ({@link KafkaSource#of}), or null for files
   * @throws IllegalArgumentException naming the option to fix
   */
  static SourceTables discover(CdcToTable.Options options, KafkaSource kafka) {
    OptionChecks.checkTemplate(options);
    String format = options.getTableNameFormat();
    if (kafka == null) {
      OptionChecks.required(
          "inputFilePattern",
          options.getInputFilePattern(),
          "/data/inventory/*.json (or --bootstrapServers to read Kafka)");
    }
    refuse(options.getTable(), "table", "each source table gets the name --tableNameFormat makes");
    refuse(options.getColumns(), "columns", "each source table's events' envelope gives them");
    if (Boolean.TRUE.equals(options.getSchemaEvolution())) {
      throw new IllegalArgumentException(
          "--schemaEvolution with --tableNameFormat is not offered: drop it (the tables keep the"
              + " columns of their envelope at launch)");
    }
    if (!format.contains("{table}")) {
      throw new IllegalArgumentException(
          "--tableNameFormat="
              + format
              + " is not valid: put {table} (and {db}) in it, for example {db}_{table}");
    }
    ColumnType.Unit unit = OptionChecks.checkEvents(options);
    Map<String, List<String>> keys = primaryKeys(options.getPrimaryKeys());
    Map<String, TableColumns> columns = new LinkedHashMap<>();
    String input;
    if (kafka == null) {
      input = "--inputFilePattern";
      OptionChecks.readEvents(
          options.getInputFilePattern(), line -> see(line, input, keys, columns));
    } else {
      input = kafka.topicsOption();
      topicTables(kafka, keys, columns);
    }
    List<SourceTable> tables = new ArrayList<>();
    for (Map.Entry<String, List<String>> key : keys.entrySet()) {
      TableColumns found = columns.get(key.getKey());
      if (found == null) {
        throw new IllegalArgumentException(
            "--primaryKeys names source table "
                + key.getKey()
                + ", but no event of "
                + input
                + " with a schema envelope (JSON converter with schemas.enable) comes from it:"
                + " drop it, or give its events");
      }
      String[] names = key.getKey().split("\\.", 2);
      Destination destination;
      try {
        destination =
            new Destination(
                options.getDatabase(),
                format.replace("{db}", names[0]).replace("{table}", names[1]));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--tableNameFormat=" + format + " for " + key.getKey() + ": " + e.getMessage());
      }
      tables.add(new SourceTable(key.getKey(), destination, found, key.getValue()));
    }
    SourceTables discovered =
        new SourceTables(tables, options.getBuckets(), OptionChecks.tableOptions(options), unit);
    discovered.unionSchema(); // a column of two types is refused here, at launch
    return discovered;
  }

  /** The time unit of epoch numbers in events without an envelope. */
  ColumnType.Unit timeUnit() {
    return timeUnit;
  }

  /**
   * Learns each topic's source table from its first event in the schema envelope: Debezium writes
   * one topic per source table. A topic without such an event is refused: its table's columns
   * cannot be known.
   */
  private static void topicTables(
      KafkaSource kafka, Map<String, List<String>> keys, Map<String, TableColumns> columns) {
    Map<String, Optional<FirstRecords.FirstRecord>> first =
        FirstRecords.ofEachTopic(kafka, TOPIC_WAIT, SourceTables::enveloped);
    if (first.isEmpty()) {
      throw new IllegalArgumentException(
          kafka.topicsOption() + " names no topic of the brokers: name Debezium's topics");
    }
    for (Map.Entry<String, Optional<FirstRecords.FirstRecord>> topic : first.entrySet()) {
      if (topic.getValue().isEmpty()) {
        throw new IllegalArgumentException(
            "topic "
                + topic.getKey()
                + " holds no event in the schema envelope (JSON converter with schemas.enable):"
                + " read to its end, waiting at most "
                + TOPIC_WAIT.toSeconds()
                + " s; its source table's columns are not known: launch once Debezium has"
                + " written to it (its snapshot), or leave it out of "
                + kafka.topicsOption());
      }
      see(topic.getValue().get().value(), "topic " + topic.getKey(), keys, columns);
    }
  }

  /** Whether the event is in the schema envelope and names its source table. */
  private static boolean enveloped(String event) {
    try {
      JsonNode root = DebeziumEvents.parse(event);
      return root.has("schema") && root.has("payload") && sourceOf(root) != null;
    } catch (DebeziumEvents.BadEvent e) {
      return false;
    }
  }

  /**
   * Looks at one event of {@code input}: the first event of a source table with an envelope gives
   * its columns.
   */
  private static boolean see(
      String line,
      String input,
      Map<String, List<String>> keys,
      Map<String, TableColumns> columns) {
    JsonNode root;
    try {
      root = DebeziumEvents.parse(line);
    } catch (DebeziumEvents.BadEvent e) {
      return true; // a dead letter when the pipeline reads it
    }
    String source = sourceOf(root);
    if (source == null || columns.containsKey(source)) {
      return true;
    }
    List<String> key = keys.get(source);
    if (key == null) {
      throw new IllegalArgumentException(
          "--primaryKeys has no key for source table "
              + source
              + " of "
              + input
              + ": add ;"
              + source
              + "=<key columns>");
    }
    if (!root.has("schema") || !root.has("payload")) {
      return true; // a later event of the table may have the envelope
    }
    try {
      columns.put(source, EnvelopeColumns.of(line, key));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "source table " + source + ": " + e.getMessage() + " (or --primaryKeys)");
    }
    return true;
  }

  /**
   * The event's source table, {@code db.table} from its {@code source} block, or null if it names
   * none.
   */
  static String sourceOf(JsonNode root) {
    JsonNode source = DebeziumEvents.change(root).path("source");
    String db = source.path("db").asText("");
    String table = source.path("table").asText("");
    return db.isEmpty() || table.isEmpty() ? null : db + "." + table;
  }

  /** {@code db.table=key,key;db.table=key}: the key columns of each source table. */
  private static Map<String, List<String>> primaryKeys(String spec) {
    String example = "inventory.orders=order_id;inventory.order_lines=order_id,line_no";
    OptionChecks.required("primaryKeys", spec, example);
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (String part : spec.split(";", 0)) {
      int eq = part.indexOf('=');
      String source = eq < 0 ? "" : part.substring(0, eq).trim();
      if (source.indexOf('.') <= 0 || part.substring(eq + 1).isBlank()) {
        throw OptionChecks.invalid(
            "primaryKeys",
            spec,
            "with --tableNameFormat name each source table's key as " + example);
      }
      keys.put(source, List.of(part.substring(eq + 1).trim().split("\\s*,\\s*", 0)));
    }
    return keys;
  }

  private static void refuse(String value, String option, String why) {
    if (value != null && !value.isBlank()) {
      throw new IllegalArgumentException(
          "--" + option + " with --tableNameFormat is not offered: " + why + "; drop --" + option);
    }
  }

  List<SourceTable> tables() {
    return List.copyOf(bySource.values());
  }

  /** The source table of {@code db.table}, or null. */
  SourceTable bySource(String source) {
    return bySource.get(source);
  }

  /**
   * The schema of every table's change rows: {@link TableColumns#DESTINATION}, each column of any
   * table once, nullable (a row leaves the other tables' columns null), {@link
   * TableColumns#SEQUENCE} and {@link TableColumns#ROW_KIND}.
   *
   * @throws IllegalArgumentException if two tables give one column name two types
   */
  Schema unionSchema() {
    Map<String, ColumnType> types = new LinkedHashMap<>();
    Map<String, String> from = new LinkedHashMap<>();
    for (SourceTable t : bySource.values()) {
      for (TableColumns.Column c : t.columns().columns()) {
        ColumnType seen = types.putIfAbsent(c.name(), c.type());
        from.putIfAbsent(c.name(), t.source());
        if (seen != null && !seen.equals(c.type())) {
          throw new IllegalArgumentException(
              "column '"
                  + c.name()
                  + "' is "
                  + seen
                  + " in source table "
                  + from.get(c.name())
                  + " but "
                  + c.type()
                  + " in "
                  + t.source()
                  + ": --tableNameFormat writes the tables' rows in one schema, one type per"
                  + " column name; write one of them with its own --table launch");
        }
      }
    }
    Schema.Builder union = Schema.builder().addStringField(TableColumns.DESTINATION);
    types.forEach((name, type) -> union.addNullableField(name, type.fieldType()));
    return union
        .addStringField(TableColumns.SEQUENCE)
        .addStringField(TableColumns.ROW_KIND)
        .build();
  }

  /**
   * How the write creates a destination's table: its source table's columns and {@link
   * TableColumns#SEQUENCE}, its key, {@code --buckets}, {@code --producer} and {@code
   * --tableOptions}.
   */
  TableDefinition definition(Destination destination) {
    SourceTable table = byDestination.get(destination);
    if (table == null) {
      throw new IllegalArgumentException("no source table goes to " + destination);
    }
    List<String> columns = new ArrayList<>();
    for (TableColumns.Column c : table.columns().columns()) {
      columns.add(c.name());
    }
    columns.add(TableColumns.SEQUENCE);
    return new TableDefinition(columns, table.primaryKeys(), List.of(), buckets, tableOptions);
  }
}
