package io.changelake.templates;

import io.changelake.store.S3Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.beam.sdk.io.FileSystems;
import org.apache.beam.sdk.io.fs.MatchResult;

/**
 * The checks a template makes on its options before it builds a pipeline, so that a wrong option
 * fails at launch, not on a worker. Each message starts with the option and says how to fix it.
 */
final class OptionChecks {

  static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");

  private OptionChecks() {}

  /** Checks the options every template has. */
  static void checkTemplate(TemplateOptions options) {
    checkWarehouse(options);
    required("deadLetterDir", options.getDeadLetterDir(), "/tmp/lake-dead-letters");
    positive("commitIntervalSeconds", options.getCommitIntervalSeconds());
  }

  /** Checks where the warehouse is and how to reach it. */
  static void checkWarehouse(WarehouseOptions options) {
    required("warehouse", options.getWarehouse(), "s3://bucket/prefix or /tmp/lake");
    required("database", options.getDatabase(), "default");
    if (options.getS3Endpoint() != null) {
      try {
        URI endpoint = new URI(options.getS3Endpoint());
        if (endpoint.getScheme() == null || endpoint.getHost() == null) {
          throw invalid(
              "s3Endpoint", options.getS3Endpoint(), "give a URL such as http://localhost:4566");
        }
      } catch (URISyntaxException e) {
        throw invalid(
            "s3Endpoint", options.getS3Endpoint(), "give a URL such as http://localhost:4566");
      }
    }
    if ((options.getS3AccessKeyId() == null) != (options.getS3SecretAccessKey() == null)) {
      throw new IllegalArgumentException(
          "--s3AccessKeyId and --s3SecretAccessKey go together: give both, or neither to use the"
              + " default credential chain");
    }
  }

  /**
   * Checked options of reading change events: the table's columns, its primary key in key order,
   * and where the events are.
   */
  record Cdc(
      TableColumns columns,
      List<String> primaryKeys,
      KafkaSource kafka,
      ColumnType.Unit timeUnit) {}

  /**
   * Checks the options of reading change events into a table. Without {@code --columns} the columns
   * come from the first event's schema envelope; without {@code --primaryKeys}, from Kafka, the
   * primary key comes from the first record's key (Debezium keys each record by the source table's
   * primary key). Both are read here, at launch.
   */
  static Cdc checkCdc(CdcOptions options) {
    checkTemplate(options);
    KafkaSource kafka = KafkaSource.of(options);
    if (kafka == null) {
      required(
          "inputFilePattern",
          options.getInputFilePattern(),
          "/data/orders/*.json (or --bootstrapServers to read Kafka)");
    }
    required("table", options.getTable(), "orders");
    boolean noColumns = options.getColumns() == null || options.getColumns().isBlank();
    boolean noKeys = options.getPrimaryKeys() == null || options.getPrimaryKeys().isBlank();
    if (noKeys && kafka == null) {
      throw new IllegalArgumentException(
          "--primaryKeys is missing: give it, for example --primaryKeys=order_id (read from"
              + " Kafka, the record keys give it)");
    }
    ColumnType.Unit timeUnit = checkEvents(options);
    FirstRecords.FirstRecord first = null;
    if (kafka != null && (noColumns || noKeys)) {
      try {
        first = FirstRecords.ofAnyTopic(kafka, Duration.ofSeconds(30));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            missing(noColumns, noKeys) + " and " + e.getMessage() + ": give them");
      }
    }
    List<String> primaryKeys;
    if (noKeys) {
      try {
        primaryKeys = EnvelopeColumns.keyOf(first.key());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--primaryKeys is missing and the first record's key cannot give it: "
                + e.getMessage()
                + "; give --primaryKeys");
      }
    } else {
      primaryKeys = Arrays.stream(options.getPrimaryKeys().split(",")).map(String::trim).toList();
    }
    if (noColumns) {
      String event = first != null ? first.value() : firstLine(options.getInputFilePattern());
      try {
        return new Cdc(
            evolving(EnvelopeColumns.of(event, primaryKeys), options),
            primaryKeys,
            kafka,
            timeUnit);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--columns is missing and the first event cannot give them: "
                + e.getMessage()
                + "; give --columns");
      }
    }
    try {
      return new Cdc(
          evolving(TableColumns.parse(options.getColumns(), primaryKeys), options),
          primaryKeys,
          kafka,
          timeUnit);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--columns="
              + options.getColumns()
              + (noKeys ? " with the record key's columns " : " with --primaryKeys=")
              + String.join(",", primaryKeys)
              + ": "
              + e.getMessage());
    }
  }

  /**
   * Checks the options of how events are read and their tables made, the same for one table and for
   * many: {@code --timeUnit}, {@code --producer}, {@code --buckets}, {@code
   * --filePollIntervalSeconds} and {@code --tableOptions}.
   *
   * @return the time unit of epoch numbers in events without an envelope
   */
  static ColumnType.Unit checkEvents(CdcOptions options) {
    ColumnType.Unit timeUnit;
    try {
      timeUnit =
          ColumnType.Unit.valueOf(String.valueOf(options.getTimeUnit()).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw invalid("timeUnit", options.getTimeUnit(), "use millis, micros or nanos");
    }
    if (!PRODUCERS.contains(options.getProducer())) {
      throw invalid(
          "producer", options.getProducer(), "use one of " + String.join(", ", PRODUCERS));
    }
    positive("buckets", options.getBuckets());
    positive("filePollIntervalSeconds", options.getFilePollIntervalSeconds());
    tableOptions(options);
    return timeUnit;
  }

  /** The columns, evolving with the source's under {@code --schemaEvolution}. */
  private static TableColumns evolving(TableColumns columns, CdcOptions options) {
    return Boolean.TRUE.equals(options.getSchemaEvolution()) ? columns.evolving() : columns;
  }

  private static String missing(boolean noColumns, boolean noKeys) {
    if (noColumns && noKeys) {
      return "--columns and --primaryKeys are missing";
    }
    return noColumns ? "--columns is missing" : "--primaryKeys is missing";
  }

  /** The first non-blank line of the first file the pattern matches. */
  private static String firstLine(String pattern) {
    String[] first = {null};
    readEvents(
        pattern,
        line -> {
          first[0] = line;
          return false;
        });
    if (first[0] == null) {
      throw new IllegalArgumentException(
          "--columns is missing and --inputFilePattern="
              + pattern
              + " has no event to read them"
              + " from: give --columns");
    }
    return first[0];
  }

  /**
   * Reads the non-blank lines of the files the pattern matches, at launch, while {@code more}
   * returns true.
   */
  static void readEvents(String pattern, Predicate<String> more) {
    try {
      MatchResult match = FileSystems.match(pattern);
      for (MatchResult.Metadata file : match.metadata()) {
        try (BufferedReader lines =
            new BufferedReader(
                new InputStreamReader(
                    Channels.newInputStream(FileSystems.open(file.resourceId())),
                    StandardCharsets.UTF_8))) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            if (!line.isBlank() && !more.test(line)) {
              return;
            }
          }
        }
      }
    } catch (IOException e) {
      throw invalid(
          "inputFilePattern", pattern, "cannot read it for the columns: " + e.getMessage());
    }
  }

  /** Checks the options of keeping an aggregate table. */
  static void checkAggregate(AggregateOptions options) {
    checkTemplate(options);
    required("groupColumn", options.getGroupColumn(), "store_id");
    required("valueColumn", options.getValueColumn(), "amount");
    required("aggregateTable", options.getAggregateTable(), "store_totals");
    positive("aggregateBuckets", options.getAggregateBuckets());
    if (options.getGroupColumn().equals(options.getValueColumn())) {
      throw invalid(
          "valueColumn", options.getValueColumn(), "sum a column other than --groupColumn");
    }
  }

  /** Checks that the aggregate's columns are columns of the table the events are written to. */
  static void checkAggregateOf(TableColumns columns, AggregateOptions options) {
    if (columns.column(options.getGroupColumn()) == null) {
      throw invalid("groupColumn", options.getGroupColumn(), "name one of --columns");
    }
    TableColumns.Column value = columns.column(options.getValueColumn());
    if (value == null) {
      throw invalid("valueColumn", options.getValueColumn(), "name one of --columns");
    }
    ColumnType.Kind kind = value.type().kind();
    if (kind != ColumnType.Kind.INT
        && kind != ColumnType.Kind.BIGINT
        && kind != ColumnType.Kind.DOUBLE) {
      throw invalid(
          "valueColumn", options.getValueColumn(), "name an INT, BIGINT or DOUBLE column");
    }
  }

  /** The options of the table to create: {@code --producer} and {@code --tableOptions}. */
  static Map<String, String> tableOptions(CdcOptions options) {
    Map<String, String> table = new LinkedHashMap<>();
    table.put("changelog-producer", options.getProducer());
    if (options.getTableOptions() == null || options.getTableOptions().isBlank()) {
      return table;
    }
    for (String pair : options.getTableOptions().split(";", 0)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw invalid("tableOptions", options.getTableOptions(), "write key=value;key=value");
      }
      String key = pair.substring(0, eq).trim();
      if (key.equals("changelog-producer") || key.equals("bucket")) {
        throw invalid(
            "tableOptions",
            options.getTableOptions(),
            "set '" + key + "' with --" + (key.equals("bucket") ? "buckets" : "producer"));
      }
      if (key.equals("sequence.field")) {
        throw invalid(
            "tableOptions",
            options.getTableOptions(),
            "drop 'sequence.field': the template orders changes by "
                + TableColumns.SEQUENCE
                + ", the event's source position");
      }
      table.put(key, pair.substring(eq + 1).trim());
    }
    return table;
  }

  /** How to reach S3, from the {@code --s3*} options. */
  static S3Settings s3Settings(WarehouseOptions options) {
    S3Settings.Builder s3 = S3Settings.builder();
    if (options.getS3Endpoint() != null) {
      s3.endpoint(URI.create(options.getS3Endpoint()));
    }
    if (options.getS3Region() != null) {
      s3.region(options.getS3Region());
    }
    s3.pathStyleAccess(Boolean.TRUE.equals(options.getS3PathStyleAccess()));
    if (options.getS3AccessKeyId() != null) {
      s3.staticCredentials(options.getS3AccessKeyId(), options.getS3SecretAccessKey());
    }
    return s3.build();
  }

  static void required(String option, String value, String example) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "--" + option + " is missing: give it, for example --" + option + "=" + example);
    }
  }

  static void positive(String option, Integer value) {
    if (value == null || value < 1) {
      throw invalid(option, String.valueOf(value), "give a whole number of at least 1");
    }
  }

  static IllegalArgumentException invalid(String option, String value, String fix) {
    return new IllegalArgumentException("--" + option + "=" + value + " is not valid: " + fix);
  }
}
