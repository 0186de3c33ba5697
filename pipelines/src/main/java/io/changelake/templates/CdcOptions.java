package io.changelake.templates;

import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;

/**
 * Options of the templates that read Debezium change events, from files or from Kafka, into a
 * table. The events come from exactly one of {@code --inputFilePattern} and {@code
 * --bootstrapServers}.
 */
public interface CdcOptions extends TemplateOptions, StreamingOptions {

  @Description(
      "Glob of the change-event files, one Debezium JSON event a line (any Beam file system)."
          + " Give it or --bootstrapServers.")
  String getInputFilePattern();

  void setInputFilePattern(String value);

  @Description(
      "Keep watching --inputFilePattern for new files and run until cancelled; without it the"
          + " files present at start are read once and the pipeline ends.")
  @Override
  boolean isStreaming();

  @Override
  void setStreaming(boolean value);

  @Description("Streaming: seconds between looks for new files.")
  @Default.Integer(10)
  Integer getFilePollIntervalSeconds();

  void setFilePollIntervalSeconds(Integer value);

  @Description(
      "The table the changes are written into, created if missing. Required, unless"
          + " cdc-to-table's --tableNameFormat names a table per source table.")
  String getTable();

  void setTable(String value);

  @Description(
      "Columns of the table as name:TYPE, comma-separated; types BOOLEAN, INT, BIGINT, DOUBLE,"
          + " STRING, DECIMAL(p,s), DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, BYTES. Example:"
          + " order_id:BIGINT,store_id:BIGINT,amount:DECIMAL(10,2). Without it the columns are"
          + " read from the first event's schema envelope (JSON converter with schemas.enable).")
  String getColumns();

  void setColumns(String value);

  @Description(
      "Primary-key columns of the table, comma-separated. Required for files; from Kafka it may"
          + " be left out, and then the first record's key gives the columns (Debezium keys each"
          + " record by the source table's primary key). With --tableNameFormat: each source"
          + " table's key, as db.table=key,key;db.table=key.")
  String getPrimaryKeys();

  void setPrimaryKeys(String value);

  @Description(
      "Changelog producer of the table: none, input, lookup or full-compaction. lookup is right"
          + " whatever the events carry; input only when updates carry before-images.")
  @Default.String("lookup")
  String getProducer();

  void setProducer(String value);

  @Description("Buckets of the table: its write parallelism.")
  @Default.Integer(1)
  Integer getBuckets();

  void setBuckets(Integer value);

  @Description(
      "More table options as key=value pairs separated by ';', in Paimon's names (for example"
          + " full-compaction.delta-commits=4).")
  String getTableOptions();

  void setTableOptions(String value);

  @Description(
      "Epoch unit of TIME and TIMESTAMP numbers in events without a schema envelope: millis"
          + " (io.debezium.time.Timestamp, Time), micros (MicroTimestamp, MicroTime) or nanos."
          + " With an envelope each field's schema names its unit.")
  @Default.String("micros")
  String getTimeUnit();

  void setTimeUnit(String value);

  @Description(
      "Follow the source table's schema while the pipeline runs: an event carrying a column the"
          + " table lacks adds it (nullable, last), one whose column type widens (INT to BIGINT,"
          + " DECIMAL precision up) widens it, through an alter of the table. Types come from the"
          + " schema envelope, else from the JSON value (whole numbers BIGINT, other numbers"
          + " DOUBLE, strings STRING, booleans BOOLEAN). A change that is no widening (a new kind,"
          + " a key column's type) sends the event to the dead letters. Without it, fields that are"
          + " not columns are ignored.")
  @Default.Boolean(false)
  Boolean getSchemaEvolution();

  void setSchemaEvolution(Boolean value);

  @Description(
      "Kafka bootstrap servers (host:port,...): read the events from Kafka instead of files."
          + " The pipeline then runs until cancelled.")
  String getBootstrapServers();

  void setBootstrapServers(String value);

  @Description("Kafka topics to read, comma-separated (or --topicPattern).")
  String getTopics();

  void setTopics(String value);

  @Description("A Java regular expression of the Kafka topics to read, instead of --topics.")
  String getTopicPattern();

  void setTopicPattern(String value);

  @Description(
      "Kafka consumer group (group.id); the template commits to it, per partition, the offset up"
          + " to which every record is in a committed table snapshot or the dead letters. Required"
          + " with --bootstrapServers.")
  String getConsumerGroup();

  void setConsumerGroup(String value);

  @Description(
      "Where a consumer group without committed offsets starts: earliest, latest, or a time"
          + " (ISO-8601 such as 2026-12-01T10:00:00Z, or epoch milliseconds) from which to read;"
          + " committed to the group at launch.")
  @Default.String("earliest")
  String getStartingOffsets();

  void setStartingOffsets(String value);

  @Description(
      "More Kafka consumer properties as key=value pairs separated by ';', for example"
          + " security.protocol=SASL_SSL;sasl.mechanism=PLAIN. Secrets belong in"
          + " --kafkaPropertiesFile; values of security.*, sasl.* and ssl.* keys are never"
          + " logged or displayed.")
  String getKafkaProperties();

  void setKafkaProperties(String value);

  @Description(
      "A Java properties file of Kafka consumer properties (security.protocol, sasl.jaas.config,"
          + " ssl.truststore.password, ...), read at launch; the secrets it holds are never logged"
          + " or displayed.")
  String getKafkaPropertiesFile();

  void setKafkaPropertiesFile(String value);
}
