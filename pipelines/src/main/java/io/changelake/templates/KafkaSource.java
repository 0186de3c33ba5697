package io.changelake.templates;

import io.changelake.beam.SourcePosition;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.NullableCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The Kafka source of the CDC templates, through Beam's KafkaIO: Debezium JSON values of {@code
 * --topics} (or {@code --topicPattern}) as {@code KV(event, source position)}, the position being
 * the record's topic-partition ({@code <topic>-<partition>}) and offset ({@link SourcePosition});
 * tombstones (null values, which Debezium sends after a delete for log compaction) come as empty
 * events, which change nothing, and are counted ({@code tombstones} in {@code
 * changelake.templates}).
 *
 * <p><b>Secrets.</b> The extra consumer properties ({@code --kafkaProperties}, {@code
 * --kafkaPropertiesFile}: {@code security.protocol}, {@code sasl.*}, {@code ssl.*}, ...) never go
 * into KafkaIO's consumer config, which KafkaIO shows as DisplayData: a consumer factory adds them
 * on the worker. The printed pipeline options hold {@code --kafkaProperties} with the values of
 * {@code security.*}, {@code sasl.*} and {@code ssl.*} keys masked, and nothing here logs or throws
 * a property value; Kafka's own consumer log masks password-type settings.
 *
 * <p><b>Offsets and exactly-once.</b> Nothing auto-commits and KafkaIO never commits. Each change
 * row carries its record's position through the table write, which settles it only once the
 * snapshot holding the row is committed; records that never reach the table (tombstones, bad
 * events, refused rows) settle as they are skipped or dead-lettered. {@link OffsetTracker} commits
 * to {@code --consumerGroup} the end of each partition's run of settled offsets, with the table
 * commit identifier as metadata: a new job started from the group's offsets re-reads every event
 * the table may lack, and re-applying one it holds is harmless ({@code _sequence} is the table's
 * {@code sequence.field}: the newest position wins, an equal one is the same change). A job that
 * keeps its state resumes from it instead. Where a group starts: {@link OffsetTracker#placeGroup}.
 */
final class KafkaSource implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final List<String> SECRET_PREFIXES = List.of("security.", "sasl.", "ssl.");

  /** Consumer settings the templates decide: a property of these names is refused. */
  private static final List<String> OWN_KEYS =
      List.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
          ConsumerConfig.GROUP_ID_CONFIG,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG);

  private final String bootstrapServers;
  private final List<String> topics;
  private final String topicPattern;
  private final String consumerGroup;
  private final String startingOffsets;
  private final Instant startTime;
  private final Map<String, String> properties;

  private KafkaSource(
      String bootstrapServers,
      List<String> topics,
      String topicPattern,
      String consumerGroup,
      String startingOffsets,
      Instant startTime,
      Map<String, String> properties) {
    this.bootstrapServers = bootstrapServers;
    this.topics = topics;
    this.topicPattern = topicPattern;
    this.consumerGroup = consumerGroup;
    this.startingOffsets = startingOffsets;
    this.startTime = startTime;
    this.properties = properties;
  }

  /**
   * The source the options name, or null when they name files; masks the secrets in {@code
   * --kafkaProperties} in the options themselves.
   *
   * @throws IllegalArgumentException naming the option to fix
   */
  static KafkaSource of(CdcOptions options) {
    if (options.getBootstrapServers() == null || options.getBootstrapServers().isBlank()) {
      for (String option :
          List.of(
              "topics",
              "topicPattern",
              "consumerGroup",
              "kafkaProperties",
              "kafkaPropertiesFile")) {
        if (kafkaOption(options, option) != null) {
          throw new IllegalArgumentException(
              "--"
                  + option
                  + " needs --bootstrapServers: give the Kafka brokers, or drop it to read"
                  + " --inputFilePattern");
        }
      }
      return null;
    }
    if (options.getInputFilePattern() != null) {
      throw new IllegalArgumentException(
          "--inputFilePattern and --bootstrapServers both name a source: give one of them");
    }
    for (String server : options.getBootstrapServers().split(",", 0)) {
      if (!server.trim().matches("[^:\\s]+:\\d{1,5}")) {
        throw invalid(
            "bootstrapServers", options.getBootstrapServers(), "write host:port,host:port");
      }
    }
    boolean topics = options.getTopics() != null && !options.getTopics().isBlank();
    boolean pattern = options.getTopicPattern() != null && !options.getTopicPattern().isBlank();
    if (topics == pattern) {
      throw new IllegalArgumentException(
          "--topics or --topicPattern: give exactly one, for example --topics=dbserver1.shop.orders");
    }
    if (pattern) {
      try {
        Pattern.compile(options.getTopicPattern());
      } catch (PatternSyntaxException e) {
        throw invalid("topicPattern", options.getTopicPattern(), "give a Java regular expression");
      }
    }
    if (options.getConsumerGroup() == null || options.getConsumerGroup().isBlank()) {
      throw new IllegalArgumentException(
          "--consumerGroup is missing: give it, for example --consumerGroup=changelake-orders");
    }
    String starting = options.getStartingOffsets();
    Instant startTime = null;
    if (!"earliest".equals(starting) && !"latest".equals(starting)) {
      startTime = timeOf(starting);
    }
    Map<String, String> properties = new LinkedHashMap<>();
    if (options.getKafkaPropertiesFile() != null) {
      properties.putAll(fromFile(options.getKafkaPropertiesFile()));
    }
    if (options.getKafkaProperties() != null && !options.getKafkaProperties().isBlank()) {
      properties.putAll(fromPairs(options.getKafkaProperties()));
      options.setKafkaProperties(masked(properties, options.getKafkaProperties()));
    }
    for (String key : properties.keySet()) {
      if (OWN_KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "Kafka property '"
                + key
                + "' is set by the template: use --bootstrapServers or"
                + " --consumerGroup, or drop it (offsets are committed by the template)");
      }
    }
    return new KafkaSource(
        options.getBootstrapServers().trim(),
        topics ? Arrays.stream(options.getTopics().split(",")).map(String::trim).toList() : null,
        pattern ? options.getTopicPattern() : null,
        options.getConsumerGroup(),
        startTime == null ? starting : null,
        startTime,
        Map.copyOf(properties));
  }

  private static String kafkaOption(CdcOptions options, String option) {
    switch (option) {
      case "topics":
        return options.getTopics();
      case "topicPattern":
        return options.getTopicPattern();
      case "consumerGroup":
        return options.getConsumerGroup();
      case "kafkaProperties":
        return options.getKafkaProperties();
      default:
        return options.getKafkaPropertiesFile();
    }
  }

  private static Instant timeOf(String text) {
    try {
      return text.matches("\\d+")
          ? Instant.ofEpochMilli(Long.parseLong(text))
          : Instant.parse(text);
    } catch (DateTimeParseException | NumberFormatException e) {
      throw invalid(
          "startingOffsets",
          text,
          "use earliest, latest, an ISO-8601 time such as 2026-12-01T10:00:00Z, or epoch"
              + " milliseconds");
    }
  }

  private static Map<String, String> fromFile(String file) {
    Properties loaded = new Properties();
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      loaded.load(in);
    } catch (IOException e) {
      throw invalid(
          "kafkaPropertiesFile",
          file,
          "name a readable Java properties file (" + e.getClass().getSimpleName() + ")");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    for (String key : loaded.stringPropertyNames()) {
      properties.put(key, loaded.getProperty(key));
    }
    return properties;
  }

  private static Map<String, String> fromPairs(String pairs) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (String pair : pairs.split(";", 0)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        // Never echo the text: it may hold a secret.
        throw new IllegalArgumentException(
            "--kafkaProperties is not valid: write key=value;key=value (a part has no '=')");
      }
      properties.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return properties;
  }

  private static boolean secret(String key) {
    return SECRET_PREFIXES.stream().anyMatch(key::startsWith);
  }

  /** The pairs with the values of secret keys replaced by {@code *****}. */
  private static String masked(Map<String, String> properties, String pairs) {
    List<String> parts = new ArrayList<>();
    for (String key : fromPairs(pairs).keySet()) {
      parts.add(key + "=" + (secret(key) ? "*****" : properties.get(key)));
    }
    return String.join(";", parts);
  }

  private static IllegalArgumentException invalid(String option, String value, String fix) {
    return new IllegalArgumentException("--" + option + "=" + value + " is not valid: " + fix);
  }

  /** The option naming the topics, as given: {@code --topics=...} or {@code --topicPattern=...}. */
  String topicsOption() {
    return topics != null
        ? "--topics=" + String.join(",", topics)
        : "--topicPattern=" + topicPattern;
  }

  /** The events: {@code KV(Debezium JSON, source position)}, tombstones as empty events. */
  PTransform<PBegin, PCollection<KV<String, Row>>> read() {
    return new Read(this);
  }

  /** Commits the settled positions to the consumer group ({@link OffsetTracker}). */
  OffsetTracker commitOffsets() {
    return new OffsetTracker(this);
  }

  /**
   * The settings of a consumer of these brokers: the extra properties, no auto-commit, and the
   * consumer group if {@code inGroup}. It holds the secrets: never log or show it.
   */
  Map<String, Object> consumerConfig(boolean inGroup) {
    Map<String, Object> config = new HashMap<>(properties);
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    if (inGroup) {
      config.put(ConsumerConfig.GROUP_ID_CONFIG, consumerGroup);
    }
    return config;
  }

  /** The time {@code --startingOffsets} names, or null for earliest or latest. */
  Instant startTime() {
    return startTime;
  }

  /** Whether a partition the group has no offset for starts at its beginning. */
  boolean startsEarliest() {
    return "earliest".equals(startingOffsets);
  }

  /** The partitions of the topics the options name. */
  List<TopicPartition> partitions(Consumer<?, ?> consumer, Duration timeout) {
    List<TopicPartition> partitions = new ArrayList<>();
    Pattern pattern = topicPattern == null ? null : Pattern.compile(topicPattern);
    for (Map.Entry<String, List<PartitionInfo>> topic : consumer.listTopics(timeout).entrySet()) {
      if (topics != null
          ? topics.contains(topic.getKey())
          : pattern.matcher(topic.getKey()).matches()) {
        topic.getValue().forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
      }
    }
    return partitions;
  }

  private static final class Read extends PTransform<PBegin, PCollection<KV<String, Row>>> {
    private static final long serialVersionUID = 1L;
    private final KafkaSource source;

    Read(KafkaSource source) {
      this.source = source;
    }

    @Override
    public PCollection<KV<String, Row>> expand(PBegin begin) {
      Map<String, Object> config = new HashMap<>();
      config.put(ConsumerConfig.GROUP_ID_CONFIG, source.consumerGroup);
      config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
      // The launch placed the group (placeGroup); a partition without an offset is a new one.
      config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      KafkaIO.Read<String, String> read =
          KafkaIO.<String, String>read()
              .withBootstrapServers(source.bootstrapServers)
              .withKeyDeserializerAndCoder(
                  StringDeserializer.class, NullableCoder.of(StringUtf8Coder.of()))
              .withValueDeserializerAndCoder(
                  StringDeserializer.class, NullableCoder.of(StringUtf8Coder.of()))
              .withConsumerConfigUpdates(config)
              .withConsumerFactoryFn(new ConsumerWithProperties(source.properties));
      read =
          source.topics != null
              ? read.withTopics(source.topics)
              : read.withTopicPattern(source.topicPattern);
      return begin
          .apply("ReadKafka", read)
          .apply("Positions", ParDo.of(new EventFn()))
          .setCoder(EVENT_CODER);
    }
  }

  /** The coder of events with their source positions (null for events from files). */
  static final KvCoder<String, Row> EVENT_CODER =
      KvCoder.of(StringUtf8Coder.of(), NullableCoder.of(RowCoder.of(SourcePosition.SCHEMA)));

  /** A record's value (empty for a tombstone) and position. */
  private static final class EventFn extends DoFn<KafkaRecord<String, String>, KV<String, Row>> {
    private static final long serialVersionUID = 1L;
    private final Counter tombstones = Metrics.counter("changelake.templates", "tombstones");

    @ProcessElement
    public void process(
        @Element KafkaRecord<String, String> record, OutputReceiver<KV<String, Row>> out) {
      String value = record.getKV().getValue();
      if (value == null) {
        tombstones.inc();
      }
      Row position =
          SourcePosition.of(
              new TopicPartition(record.getTopic(), record.getPartition()).toString(),
              record.getOffset());
      out.output(KV.of(value == null ? "" : value, position));
    }
  }

  /**
   * Creates the consumers KafkaIO asks for, with the extra properties added on the worker, so they
   * never show in KafkaIO's DisplayData; its text names the keys, never the values.
   */
  private static final class ConsumerWithProperties
      implements SerializableFunction<Map<String, Object>, Consumer<byte[], byte[]>> {
    private static final long serialVersionUID = 1L;
    private final Map<String, String> properties;

    ConsumerWithProperties(Map<String, String> properties) {
      this.properties = properties;
    }

    @Override
    public Consumer<byte[], byte[]> apply(Map<String, Object> config) {
      Map<String, Object> all = new HashMap<>(config);
      all.putAll(properties);
      return new KafkaConsumer<>(all);
    }

    @Override
    public String toString() {
      return "consumer with properties " + properties.keySet();
    }
  }

  @Override
  public String toString() {
    return "Kafka "
        + bootstrapServers
        + " "
        + (topics != null ? topics : topicPattern)
        + " group "
        + consumerGroup
        + ", properties "
        + properties.keySet();
  }
}
