package io.changelake.it.templates;

import static io.changelake.templates.DebeziumEnvelopes.CUSTOMERS;
import static io.changelake.templates.DebeziumEnvelopes.ORDERS;
import static io.changelake.templates.DebeziumEnvelopes.VISITS;
import static io.changelake.templates.DebeziumEnvelopes.customer;
import static io.changelake.templates.DebeziumEnvelopes.order;
import static io.changelake.templates.DebeziumEnvelopes.visit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.templates.DebeziumEnvelopes;
import io.changelake.templates.DebeziumEnvelopes.Field;
import io.changelake.templates.TemplateCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import kafka.testkit.KafkaClusterTestKit;
import kafka.testkit.TestKitNodes;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CDC templates reading Debezium topics from a real Kafka broker (KRaft, started in-process by
 * the test): events of a PostgreSQL-like source with the schema envelope (no {@code --columns}, no
 * {@code --primaryKeys}: the envelope gives the columns, the record key the primary key) into a
 * table and on into an aggregate, and events of a MySQL-like source without an envelope, delivered
 * in the wrong order across two binlog files, into a table that still ends right.
 *
 * <p>And the consumer group's offsets: while a pipeline runs they never pass an event whose change
 * is not in a committed snapshot; tombstones, a bad event and transaction markers (offsets without
 * a record) do not hold them back; a pipeline cancelled mid-stream and a new one started from the
 * group's offsets end with the table and the aggregate of the seed story.
 *
 * <p>And the aggregate across a stop between the table's commit and its own: the next run applies
 * what the table holds beyond the aggregate, once, although the group's offsets are past those
 * events and no event comes again.
 *
 * <p>And the offsets Kafka no longer holds: on a compacted topic the tracker passes the offsets the
 * cleaner removed, and a new pipeline from the group's offsets ends right; and a partition held by
 * a table commit still to come shows in the {@code heldPartitions} and {@code heldOffsets} metrics
 * until the commit releases it.
 *
 * <p>And the database mode ({@code --tableNameFormat}): three Debezium topics of three source
 * tables in two source databases go to three tables, each read back and audited correct by {@code
 * ./changelake audit}, with the group's offsets at the topics' ends and each partition's commit
 * metadata naming its own table; a topic without an event in the envelope is refused at launch.
 */
class CdcFromKafkaIT {

  private static KafkaClusterTestKit kafka;

  @TempDir Path local;

  @BeforeAll
  static void startKafka() throws Exception {
    kafka =
        new KafkaClusterTestKit.Builder(
                new TestKitNodes.Builder()
                    .setCombined(true)
                    .setNumBrokerNodes(1)
                    .setNumControllerNodes(1)
                    .build())
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("offsets.topic.num.partitions", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            // The log cleaner looks for compactable topics every 100 ms, not every 15 s.
            .setConfigProp("log.cleaner.backoff.ms", "100")
            .build();
    kafka.format();
    kafka.startup();
    kafka.waitForReadyBrokers();
  }

  @AfterAll
  static void stopKafka() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  private static void produce(String topic, int partitions, List<String[]> keyedValues)
      throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      for (String[] kv : keyedValues) {
        producer.send(new ProducerRecord<>(topic, kv[0], kv[1])).get();
      }
    }
  }

  /**
   * A PostgreSQL-like event with the schema envelope: amount BIGINT, price DECIMAL(10,2),
   * placed_at.
   */
  private static String[] postgres(
      String op, long order, long store, long oldAmount, long amount, long lsn) {
    String schema =
        "{\"type\":\"struct\",\"fields\":["
            + image("before")
            + ","
            + image("after")
            + ","
            + "{\"type\":\"struct\",\"field\":\"source\",\"fields\":[]},"
            + "{\"type\":\"string\",\"field\":\"op\"},{\"type\":\"int64\",\"field\":\"ts_ms\"}]}";
    String before = op.equals("c") ? "null" : row(order, store, oldAmount);
    String after = op.equals("d") ? "null" : row(order, store, amount);
    String payload =
        "{\"before\":"
            + before
            + ",\"after\":"
            + after
            + ",\"op\":\""
            + op
            + "\",\"ts_ms\":1,"
            + "\"source\":{\"connector\":\"postgresql\",\"db\":\"shop\",\"table\":\"orders\",\"lsn\":"
            + lsn
            + ",\"snapshot\":\"false\"}}";
    return new String[] {
      "{\"schema\":{},\"payload\":{\"order_id\":" + order + "}}",
      "{\"schema\":" + schema + ",\"payload\":" + payload + "}"
    };
  }

  private static String image(String field) {
    return "{\"type\":\"struct\",\"optional\":true,\"field\":\""
        + field
        + "\",\"fields\":["
        + "{\"type\":\"int64\",\"optional\":false,\"field\":\"order_id\"},"
        + "{\"type\":\"int64\",\"field\":\"store_id\"},"
        + "{\"type\":\"int64\",\"field\":\"amount\"},"
        + "{\"type\":\"bytes\",\"name\":\"org.apache.kafka.connect.data.Decimal\","
        + "\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"},\"field\":\"price\"},"
        + "{\"type\":\"int64\",\"name\":\"io.debezium.time.MicroTimestamp\",\"field\":\"placed_at\"}]}";
  }

  private static String row(long order, long store, long amount) {
    String price =
        Base64.getEncoder()
            .encodeToString(java.math.BigInteger.valueOf(amount * 100 + 5).toByteArray());
    return "{\"order_id\":"
        + order
        + ",\"store_id\":"
        + store
        + ",\"amount\":"
        + amount
        + ",\"price\":\""
        + price
        + "\",\"placed_at\":1764596700000000}";
  }

  /** An event produced to a chosen partition: where it landed, and what the table must show. */
  private record Sent(int partition, long offset, long order, long lsn) {}

  private static KafkaProducer<String, String> producer(String transactionalId) {
    Map<String, Object> config = new java.util.HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    if (transactionalId != null) {
      config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    }
    return new KafkaProducer<>(config);
  }

  /** Sends to partition {@code order % 2}; a change's key and LSN are kept for the checks. */
  private static Sent send(
      KafkaProducer<String, String> producer, String topic, long order, long lsn, String[] kv)
      throws Exception {
    long offset =
        producer.send(new ProducerRecord<>(topic, (int) (order % 2), kv[0], kv[1])).get().offset();
    return new Sent((int) (order % 2), offset, order, lsn);
  }

  private static String[] tombstone(long order) {
    return new String[] {"{\"order_id\":" + order + "}", null};
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void postgresTopicWithEnvelopeIntoATableThenAnAggregate() throws Exception {
    produce(
        "pg.shop.orders",
        2,
        List.of(
            postgres("c", 1001, 10, 0, 100, 100),
            postgres("c", 1002, 20, 0, 50, 110),
            postgres("u", 1001, 10, 100, 80, 200),
            postgres("d", 1002, 20, 50, 50, 300),
            tombstone(1002),
            postgres("c", 1003, 20, 0, 70, 310),
            new String[] {"{\"order_id\":9}", "{not json"}));
    Path properties = local.resolve("consumer.properties");
    Files.writeString(
        properties, "security.protocol=PLAINTEXT\nssl.truststore.password=never-shown-4711\n");
    String warehouse = local.resolve("lake").toString();
    Path deadLetters = local.resolve("dead");
    TemplateRun.Running pipeline =
        TemplateRun.startWatched(
            TemplateCatalog.CDC_TO_AGGREGATE,
            List.of(
                "--bootstrapServers=" + kafka.bootstrapServers(),
                "--topics=pg.shop.orders",
                "--consumerGroup=changelake-pg",
                "--kafkaPropertiesFile=" + properties,
                "--warehouse=" + warehouse,
                "--database=shop",
                "--table=orders",
                // No --columns and no --primaryKeys: the envelope and the record key give them.
                "--producer=lookup",
                "--buckets=2",
                "--commitIntervalSeconds=2",
                "--groupColumn=store_id",
                "--valueColumn=amount",
                "--aggregateTable=store_totals",
                "--deadLetterDir=" + deadLetters,
                "--blockOnRun=false"));
    try (pipeline;
        ObjectStore store = ObjectStores.open(warehouse)) {
      awaitRows(pipeline, store, "store_totals", List.of("[10, 80, 1]", "[20, 70, 1]"));
      assertEquals(
          List.of(
              "[1001, 10, 80, 80.05, 2025-12-01T13:45, 1p:00000000000000c8:1]",
              "[1003, 20, 70, 70.05, 2025-12-01T13:45, 1p:0000000000000136:1]"),
          withSequence(store, "orders"));
      awaitTrue(
          pipeline,
          "a dead letter for the unparsable event",
          () -> {
            try {
              return TemplateRun.deadLetters(deadLetters).stream()
                  .anyMatch(l -> l.contains("unparsable JSON"));
            } catch (java.io.IOException e) {
              return false;
            }
          },
          () -> "");
    }
    assertFalse(pipeline.toString().contains("never-shown-4711"));
  }

  /** A MySQL-like event without envelope at a binlog file and position. */
  private static String[] mysql(
      String op, long order, long amountBefore, long amount, String file, long pos) {
    String before =
        op.equals("c") ? "null" : "{\"order_id\":" + order + ",\"amount\":" + amountBefore + "}";
    String after = "{\"order_id\":" + order + ",\"amount\":" + amount + "}";
    return new String[] {
      "{\"order_id\":" + order + "}",
      "{\"before\":"
          + before
          + ",\"after\":"
          + after
          + ",\"op\":\""
          + op
          + "\",\"ts_ms\":5,"
          + "\"source\":{\"connector\":\"mysql\",\"file\":\""
          + file
          + "\",\"pos\":"
          + pos
          + ",\"row\":0,\"snapshot\":\"false\"}}"
    };
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void mysqlTopicDeliveredOutOfOrderAcrossBinlogFilesStillEndsAtTheNewestChange() throws Exception {
    // The newest change first: arrival order (and offsets) says 1, position order says 3.
    produce(
        "mysql.shop.orders",
        1,
        List.of(
            mysql("u", 2001, 2, 3, "mysql-bin.000010", 4),
            mysql("u", 2001, 1, 2, "mysql-bin.000009", 999_999),
            mysql("c", 2001, 0, 1, "mysql-bin.000009", 120)));
    String warehouse = local.resolve("lake").toString();
    try (TemplateRun.Running pipeline =
            TemplateRun.startWatched(
                TemplateCatalog.CDC_TO_TABLE,
                List.of(
                    "--bootstrapServers=" + kafka.bootstrapServers(),
                    "--topicPattern=mysql\\..*",
                    "--consumerGroup=changelake-mysql",
                    "--startingOffsets=earliest",
                    "--kafkaProperties=security.protocol=PLAINTEXT;sasl.jaas.config=secret-jaas-42",
                    "--warehouse=" + warehouse,
                    "--database=shop",
                    "--table=mysql_orders",
                    "--columns=order_id:BIGINT,amount:BIGINT",
                    "--primaryKeys=order_id",
                    "--commitIntervalSeconds=2",
                    "--deadLetterDir=" + local.resolve("dead"),
                    "--blockOnRun=false"));
        ObjectStore store = ObjectStores.open(warehouse)) {
      awaitRows(pipeline, store, "mysql_orders", List.of("[2001, 3]"));
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void groupOffsetsFollowTheTableCommitsAndANewPipelineFromThemEndsRight() throws Exception {
    String topic = "offsets.shop.orders";
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    List<Sent> sent = new ArrayList<>();
    try (KafkaProducer<String, String> plain = producer(null);
        KafkaProducer<String, String> transactional = producer("offsets-test")) {
      sent.add(send(plain, topic, 1001, 100, postgres("c", 1001, 10, 0, 100, 100)));
      sent.add(send(plain, topic, 1002, 110, postgres("c", 1002, 20, 0, 50, 110)));
      sent.add(send(plain, topic, 1002, 0, tombstone(1002)));
      sent.add(send(plain, topic, 9, 0, new String[] {"{\"order_id\":9}", "{not json"}));
      // A committed transaction leaves a marker, an offset without a record, in each partition,
      // written after the commit returns: before or after the next records.
      transactional.initTransactions();
      transactional.beginTransaction();
      sent.add(send(transactional, topic, 1003, 120, postgres("c", 1003, 30, 0, 5, 120)));
      sent.add(send(transactional, topic, 1004, 130, postgres("c", 1004, 30, 0, 7, 130)));
      transactional.commitTransaction();
      sent.add(send(plain, topic, 1005, 140, postgres("c", 1005, 40, 0, 20, 140)));
      sent.add(send(plain, topic, 1006, 150, postgres("c", 1006, 50, 0, 30, 150)));
    }
    List<Sent> changes = sent.stream().filter(c -> c.lsn() > 0).toList();
    String warehouse = local.resolve("lake").toString();
    List<String> args =
        List.of(
            "--bootstrapServers=" + kafka.bootstrapServers(),
            "--topics=" + topic,
            "--consumerGroup=changelake-offsets",
            "--warehouse=" + warehouse,
            "--database=shop",
            "--table=orders",
            "--producer=lookup",
            "--buckets=2",
            "--commitIntervalSeconds=1",
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=store_totals",
            "--deadLetterDir=" + local.resolve("dead"),
            "--blockOnRun=false");
    Map<Integer, Long> ends = afterLastRecord(sent);
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      try (TemplateRun.Running first =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, args)) {
        Map<Integer, Long> committed = new java.util.HashMap<>();
        int[] checks = {0};
        awaitTrue(
            first,
            "the group's offsets past the last records "
                + ends
                + " (over the tombstone, the bad"
                + " event and the transaction markers)",
            () -> {
              committed.clear();
              committed.putAll(groupOffsets());
              assertSettledInTable(store, changes, committed);
              checks[0]++;
              return committed.equals(ends);
            },
            () -> {
              try {
                return "; the group is at "
                    + committed
                    + ", the table holds "
                    + TemplateRun.rows(store, "orders");
              } catch (java.io.IOException e) {
                return "; the group is at " + committed;
              }
            });
        awaitRows(
            first,
            store,
            "store_totals",
            List.of("[10, 100, 1]", "[20, 50, 1]", "[30, 12, 2]", "[40, 20, 1]", "[50, 30, 1]"));
        assertTrue(checks[0] > 1, "the offsets were checked against the table while it ran");
        try (KafkaProducer<String, String> plain = producer(null)) {
          // After the transaction markers: gaps inside each partition now.
          sent.add(send(plain, topic, 1001, 200, postgres("u", 1001, 10, 100, 80, 200)));
          sent.add(send(plain, topic, 1002, 210, postgres("d", 1002, 20, 50, 50, 210)));
          sent.add(send(plain, topic, 1002, 0, tombstone(1002)));
          sent.add(send(plain, topic, 1007, 220, postgres("c", 1007, 20, 0, 70, 220)));
        }
        // Cancelled mid-stream: the new events are read, or on their way, or not read yet.
      }
      Map<Integer, Long> left = groupOffsets();
      Map<Integer, Long> newEnds = afterLastRecord(sent);
      try (TemplateRun.Running second =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, args)) {
        awaitRows(
            second,
            store,
            "orders",
            List.of(
                "[1001, 10, 80, 80.05, 2025-12-01T13:45]",
                "[1003, 30, 5, 5.05, 2025-12-01T13:45]",
                "[1004, 30, 7, 7.05, 2025-12-01T13:45]",
                "[1005, 40, 20, 20.05, 2025-12-01T13:45]",
                "[1006, 50, 30, 30.05, 2025-12-01T13:45]",
                "[1007, 20, 70, 70.05, 2025-12-01T13:45]"));
        awaitRows(
            second,
            store,
            "store_totals",
            List.of("[10, 80, 1]", "[20, 70, 1]", "[30, 12, 2]", "[40, 20, 1]", "[50, 30, 1]"));
        Map<Integer, Long> committed = new java.util.HashMap<>();
        awaitTrue(
            second,
            "the group's offsets past the new last records " + newEnds + " (left at " + left + ")",
            () -> {
              committed.clear();
              committed.putAll(groupOffsets());
              return committed.equals(newEnds);
            },
            () -> "; the group is at " + committed);
      }
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void latestStartsANewGroupAtTheEndCommittedAtLaunch() throws Exception {
    String topic = "latest.shop.orders";
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    List<Sent> before = new ArrayList<>();
    try (KafkaProducer<String, String> plain = producer(null)) {
      before.add(send(plain, topic, 3001, 100, postgres("c", 3001, 10, 0, 1, 100)));
      before.add(send(plain, topic, 3002, 110, postgres("c", 3002, 10, 0, 2, 110)));
    }
    String warehouse = local.resolve("lake").toString();
    try (TemplateRun.Running pipeline =
            TemplateRun.startWatched(
                TemplateCatalog.CDC_TO_TABLE,
                List.of(
                    "--bootstrapServers=" + kafka.bootstrapServers(),
                    "--topics=" + topic,
                    "--consumerGroup=changelake-latest",
                    "--startingOffsets=latest",
                    "--warehouse=" + warehouse,
                    "--database=shop",
                    "--table=latest_orders",
                    "--commitIntervalSeconds=1",
                    "--deadLetterDir=" + local.resolve("dead"),
                    "--blockOnRun=false"));
        ObjectStore store = ObjectStores.open(warehouse)) {
      assertEquals(afterLastRecord(before), groupOffsets("changelake-latest"));
      try (KafkaProducer<String, String> plain = producer(null)) {
        send(plain, topic, 3003, 120, postgres("c", 3003, 10, 0, 3, 120));
      }
      awaitRows(pipeline, store, "latest_orders", List.of("[3003, 10, 3, 3.05, 2025-12-01T13:45]"));
    }
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void aStopBetweenTheTableCommitAndTheAggregateCommitIsMadeGoodByTheNextRunWithNoNewEvent()
      throws Exception {
    String topic = "stop.shop.orders";
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
    }
    List<Sent> sent = new ArrayList<>();
    try (KafkaProducer<String, String> plain = producer(null)) {
      sent.add(send(plain, topic, 6001, 100, postgres("c", 6001, 10, 0, 100, 100)));
      sent.add(send(plain, topic, 6002, 110, postgres("c", 6002, 20, 0, 50, 110)));
      sent.add(send(plain, topic, 6001, 120, postgres("u", 6001, 10, 100, 80, 120)));
    }
    String warehouse = local.resolve("lake").toString();
    List<String> table =
        List.of(
            "--bootstrapServers=" + kafka.bootstrapServers(),
            "--topics=" + topic,
            "--consumerGroup=changelake-stop",
            "--warehouse=" + warehouse,
            "--database=shop",
            "--table=orders",
            "--producer=lookup",
            "--buckets=2",
            "--commitIntervalSeconds=1",
            "--deadLetterDir=" + local.resolve("dead"),
            "--blockOnRun=false");
    List<String> aggregate = new ArrayList<>(table);
    aggregate.addAll(
        List.of("--groupColumn=store_id", "--valueColumn=amount", "--aggregateTable=store_totals"));
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      try (TemplateRun.Running first =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, aggregate)) {
        awaitRows(first, store, "store_totals", List.of("[10, 80, 1]", "[20, 50, 1]"));
      }
      try (KafkaProducer<String, String> plain = producer(null)) {
        sent.add(send(plain, topic, 6003, 130, postgres("c", 6003, 20, 0, 70, 130)));
        sent.add(send(plain, topic, 6002, 140, postgres("d", 6002, 20, 50, 50, 140)));
      }
      // What a stop between the two commits leaves: the table holds the new events, the group's
      // offsets are past them (Kafka will not deliver them again), the aggregate lacks them.
      Map<Integer, Long> ends = afterLastRecord(sent);
      try (TemplateRun.Running tableOnly =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_TABLE, table)) {
        awaitTrue(
            tableOnly,
            "the group past the last records " + ends,
            () -> groupOffsets("changelake-stop").equals(ends),
            () -> "; the group is at " + groupOffsetsText("changelake-stop"));
      }
      assertEquals(List.of("[10, 80, 1]", "[20, 50, 1]"), TemplateRun.rows(store, "store_totals"));
      try (TemplateRun.Running restarted =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, aggregate)) {
        awaitRows(restarted, store, "store_totals", List.of("[10, 80, 1]", "[20, 70, 1]"));
        Thread.sleep(3000);
        assertEquals(
            List.of("[10, 80, 1]", "[20, 70, 1]"),
            TemplateRun.rows(store, "store_totals"),
            "applied once, not again");
      }
      assertEquals(ends, groupOffsets("changelake-stop"));
      assertEquals(
          List.of(
              "[6001, 10, 80, 80.05, 2025-12-01T13:45]", "[6003, 20, 70, 70.05, 2025-12-01T13:45]"),
          TemplateRun.rows(store, "orders"));
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aPartitionHeldByAWaitingTableCommitShowsInTheMetricsUntilTheCommitComes() throws Exception {
    String topic = "held.shop.orders";
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    // Offset 0 waits for the table's commit; the tombstone and the bad event behind it settle at
    // once, so the partition holds two settled offsets behind a record on its way.
    try (KafkaProducer<String, String> plain = producer(null)) {
      for (String[] kv :
          List.of(
              postgres("c", 4001, 10, 0, 100, 100),
              tombstone(4001),
              new String[] {"{\"order_id\":9}", "{not json"})) {
        plain.send(new ProducerRecord<>(topic, 0, kv[0], kv[1])).get();
      }
    }
    String warehouse = local.resolve("lake").toString();
    try (TemplateRun.Running pipeline =
            TemplateRun.startWatched(
                TemplateCatalog.CDC_TO_TABLE,
                List.of(
                    "--bootstrapServers=" + kafka.bootstrapServers(),
                    "--topics=" + topic,
                    "--consumerGroup=changelake-held",
                    "--warehouse=" + warehouse,
                    "--database=shop",
                    "--table=held_orders",
                    // Long enough for the test to see the hold before the commit releases it.
                    "--commitIntervalSeconds=30",
                    "--deadLetterDir=" + local.resolve("dead"),
                    "--blockOnRun=false"));
        ObjectStore store = ObjectStores.open(warehouse)) {
      awaitTrue(
          pipeline,
          "one held partition with 2 held offsets",
          () -> pipeline.metric("heldPartitions") == 1 && pipeline.metric("heldOffsets") == 2,
          () -> heldMetrics(pipeline));
      assertEquals(Map.of(0, 0L), groupOffsets("changelake-held"));
      // No new range comes: the recheck timer reports the hold's age.
      awaitTrue(
          pipeline,
          "the hold's age reported by a recheck, at least 5 s",
          () -> pipeline.metric("heldMillis") >= 5000 || pipeline.metric("heldPartitions") == 0,
          () -> heldMetrics(pipeline));
      assertEquals(1, pipeline.metric("heldPartitions"), "still held at the recheck");
      awaitRows(
          pipeline, store, "held_orders", List.of("[4001, 10, 100, 100.05, 2025-12-01T13:45]"));
      awaitTrue(
          pipeline,
          "the hold released once the table committed offset 0",
          () -> pipeline.metric("heldPartitions") == 0 && pipeline.metric("heldOffsets") == 0,
          () -> heldMetrics(pipeline));
      awaitTrue(
          pipeline,
          "the group past the three records",
          () -> groupOffsets("changelake-held").equals(Map.of(0, 3L)),
          () -> "");
    }
  }

  private static String heldMetrics(TemplateRun.Running pipeline) {
    return "; heldPartitions="
        + pipeline.metric("heldPartitions")
        + " heldOffsets="
        + pipeline.metric("heldOffsets")
        + " heldMillis="
        + pipeline.metric("heldMillis");
  }

  @Test
  @Timeout(value = 6, unit = TimeUnit.MINUTES)
  void offsetsACompactedTopicNoLongerHoldsArePassedAndANewPipelineFromThemEndsRight()
      throws Exception {
    String topic = "compacted.shop.orders";
    try (Admin admin = admin()) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(topic, 1, (short) 1)
                      .configs(
                          Map.of(
                              "cleanup.policy", "compact",
                              "segment.ms", "100",
                              "min.cleanable.dirty.ratio", "0.01",
                              "min.compaction.lag.ms", "0",
                              "delete.retention.ms", "100"))))
          .all()
          .get();
    }
    // One record a segment (each send after segment.ms rolls the segment): the cleaner may then
    // drop the older versions of 5001 and 5002, at offsets 0 and 1.
    try (KafkaProducer<String, String> plain = producer(null)) {
      for (String[] kv :
          List.of(
              postgres("c", 5001, 10, 0, 100, 100),
              postgres("c", 5002, 20, 0, 50, 110),
              postgres("u", 5001, 10, 100, 80, 120),
              postgres("u", 5002, 20, 50, 40, 130),
              postgres("c", 5003, 20, 0, 70, 140),
              postgres("c", 5004, 30, 0, 5, 150))) {
        plain.send(new ProducerRecord<>(topic, 0, kv[0], kv[1])).get();
        Thread.sleep(300);
      }
    }
    List<Long> left = awaitCompacted(topic, 6);
    String warehouse = local.resolve("lake").toString();
    List<String> args =
        List.of(
            "--bootstrapServers=" + kafka.bootstrapServers(),
            "--topics=" + topic,
            "--consumerGroup=changelake-compacted",
            "--warehouse=" + warehouse,
            "--database=shop",
            "--table=orders",
            "--producer=lookup",
            "--commitIntervalSeconds=1",
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=store_totals",
            "--deadLetterDir=" + local.resolve("dead"),
            "--blockOnRun=false");
    try (ObjectStore store = ObjectStores.open(warehouse)) {
      try (TemplateRun.Running first =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, args)) {
        awaitTrue(
            first,
            "the group past the compacted topic's end, 6 (records left at " + left + ")",
            () -> groupOffsets("changelake-compacted").equals(Map.of(0, 6L)),
            () -> "; the group is at " + groupOffsetsText("changelake-compacted"));
        // The runner publishes a counter when the bundle that raised it commits, which can come
        // after the group's offsets moved on: wait for it rather than read it once.
        awaitTrue(
            first,
            "a resolved offset gap in the metrics",
            () -> first.metric("offsetGapsResolved") >= 1,
            () -> "; offsetGapsResolved is " + first.metric("offsetGapsResolved"));
        awaitRows(
            first, store, "store_totals", List.of("[10, 80, 1]", "[20, 110, 2]", "[30, 5, 1]"));
      }
      try (KafkaProducer<String, String> plain = producer(null)) {
        plain
            .send(
                new ProducerRecord<>(
                    topic,
                    0,
                    postgres("u", 5003, 20, 70, 75, 160)[0],
                    postgres("u", 5003, 20, 70, 75, 160)[1]))
            .get();
      }
      try (TemplateRun.Running second =
          TemplateRun.startWatched(TemplateCatalog.CDC_TO_AGGREGATE, args)) {
        awaitRows(
            second,
            store,
            "orders",
            List.of(
                "[5001, 10, 80, 80.05, 2025-12-01T13:45]",
                "[5002, 20, 40, 40.05, 2025-12-01T13:45]",
                "[5003, 20, 75, 75.05, 2025-12-01T13:45]",
                "[5004, 30, 5, 5.05, 2025-12-01T13:45]"));
        awaitRows(
            second, store, "store_totals", List.of("[10, 80, 1]", "[20, 115, 2]", "[30, 5, 1]"));
        awaitTrue(
            second,
            "the group past the new record, 7",
            () -> groupOffsets("changelake-compacted").equals(Map.of(0, 7L)),
            () -> "; the group is at " + groupOffsetsText("changelake-compacted"));
      }
    }
  }

  /**
   * A PostgreSQL-like event of source table {@code db.table} in the schema envelope, keyed by its
   * first column; {@code before} and {@code after} are JSON objects or {@code null}.
   */
  private static String[] change(
      String db,
      String table,
      List<Field> fields,
      String op,
      String before,
      String after,
      long lsn) {
    String image = after.equals("null") ? before : after;
    String key = image.substring(0, image.indexOf(',')) + "}";
    return new String[] {
      key, DebeziumEnvelopes.event(db, table, fields, op, before, after, lsn, "false")
    };
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void databaseModeWritesEachTopicsSourceTableIntoItsOwnTableAuditedAndCommitsTheGroup()
      throws Exception {
    // Three Debezium topics, one per source table of two source databases.
    String orders = "dbserver1.inventory.orders";
    String customers = "dbserver1.inventory.customers";
    String visits = "dbserver1.crm.visits";
    try (Admin admin = admin()) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(orders, 2, (short) 1),
                  new NewTopic(customers, 1, (short) 1),
                  new NewTopic(visits, 1, (short) 1)))
          .all()
          .get();
    }
    long lsn = 100;
    Map<String, Long> ends = new java.util.TreeMap<>();
    try (KafkaProducer<String, String> plain = producer(null)) {
      List<ProducerRecord<String, String>> records = new ArrayList<>();
      for (long i = 1; i <= 6; i++) {
        String[] kv =
            change("inventory", "orders", ORDERS, "c", "null", order(i, i % 3, 10 * i), lsn += 8);
        records.add(new ProducerRecord<>(orders, (int) (i % 2), kv[0], kv[1]));
      }
      for (long i = 1; i <= 4; i++) {
        String[] kv =
            change(
                "inventory",
                "customers",
                CUSTOMERS,
                "r",
                "null",
                customer(i, "c" + i, i % 2),
                lsn += 8);
        records.add(new ProducerRecord<>(customers, 0, kv[0], kv[1]));
        kv = change("crm", "visits", VISITS, "c", "null", visit(i, i, "/p" + i), lsn += 8);
        records.add(new ProducerRecord<>(visits, 0, kv[0], kv[1]));
      }
      for (long i = 1; i <= 5; i += 2) {
        String[] kv =
            change(
                "inventory",
                "orders",
                ORDERS,
                "u",
                order(i, i % 3, 10 * i),
                order(i, 5, i),
                lsn += 8);
        records.add(new ProducerRecord<>(orders, (int) (i % 2), kv[0], kv[1]));
      }
      String[] deleted =
          change("inventory", "orders", ORDERS, "d", order(2, 2, 20), "null", lsn += 8);
      records.add(new ProducerRecord<>(orders, 0, deleted[0], deleted[1]));
      records.add(new ProducerRecord<>(orders, 0, deleted[0], null)); // its tombstone
      String[] bad =
          change(
              "inventory",
              "orders",
              ORDERS,
              "c",
              "null",
              "{\"order_id\":98,\"store_id\":1,\"amount\":\"many\"}",
              lsn += 8);
      records.add(new ProducerRecord<>(orders, 0, bad[0], bad[1]));
      String[] kv =
          change(
              "inventory",
              "customers",
              CUSTOMERS,
              "u",
              customer(4, "c4", 0),
              customer(4, "renamed", 1),
              lsn += 8);
      records.add(new ProducerRecord<>(customers, 0, kv[0], kv[1]));
      kv = change("inventory", "customers", CUSTOMERS, "d", customer(3, "c3", 1), "null", lsn += 8);
      records.add(new ProducerRecord<>(customers, 0, kv[0], kv[1]));
      kv = change("crm", "visits", VISITS, "d", visit(1, 1, "/p1"), "null", lsn += 8);
      records.add(new ProducerRecord<>(visits, 0, kv[0], kv[1]));
      kv =
          change(
              "crm", "visits", VISITS, "u", visit(2, 2, "/p2"), visit(2, 2, "/checkout"), lsn += 8);
      records.add(new ProducerRecord<>(visits, 0, kv[0], kv[1]));
      for (ProducerRecord<String, String> record : records) {
        long offset = plain.send(record).get().offset();
        ends.merge(record.topic() + "-" + record.partition(), offset + 1, Math::max);
      }
    }
    String warehouse = local.resolve("lake").toString();
    Path deadLetters = local.resolve("dead");
    try (TemplateRun.Running pipeline =
            TemplateRun.startWatched(
                TemplateCatalog.CDC_TO_TABLE,
                List.of(
                    "--bootstrapServers=" + kafka.bootstrapServers(),
                    "--topicPattern=dbserver1\\..*",
                    "--consumerGroup=changelake-inventory",
                    "--warehouse=" + warehouse,
                    "--database=shop",
                    "--tableNameFormat={db}_{table}",
                    "--primaryKeys=inventory.orders=order_id;inventory.customers=customer_id;"
                        + "crm.visits=visit_id",
                    "--buckets=2",
                    "--commitIntervalSeconds=1",
                    "--deadLetterDir=" + deadLetters,
                    "--blockOnRun=false"));
        ObjectStore store = ObjectStores.open(warehouse)) {
      awaitRows(
          pipeline,
          store,
          "inventory_orders",
          List.of("[1, 5, 1]", "[3, 5, 3]", "[4, 1, 40]", "[5, 5, 5]", "[6, 0, 60]"));
      awaitRows(
          pipeline,
          store,
          "inventory_customers",
          List.of("[1, c1, 1]", "[2, c2, 0]", "[4, renamed, 1]"));
      awaitRows(
          pipeline,
          store,
          "crm_visits",
          List.of("[2, 2, /checkout]", "[3, 3, /p3]", "[4, 4, /p4]"));
      Map<String, String> metadata = new java.util.TreeMap<>();
      awaitTrue(
          pipeline,
          "the group's offsets at the topics' ends "
              + ends
              + " (past the tombstone and the bad event)",
          () -> {
            metadata.clear();
            metadata.putAll(groupMetadata("changelake-inventory"));
            return groupOffsetsByPartition("changelake-inventory").equals(ends);
          },
          () -> "; the group is at " + groupOffsetsText("changelake-inventory") + " " + metadata);
      for (Map.Entry<String, String> committed : metadata.entrySet()) {
        String table =
            committed.getKey().startsWith(orders)
                ? "inventory_orders"
                : committed.getKey().startsWith(customers) ? "inventory_customers" : "crm_visits";
        assertTrue(
            committed
                .getValue()
                .matches("changelake table .*/shop\\.db/" + table + "/? commit \\d+"),
            committed.getKey() + " names its own table's commit: " + committed.getValue());
      }
      // The group passes the bad event once it is parsed; its dead-letter file comes a little
      // later.
      List<String> dead = new ArrayList<>();
      awaitTrue(
          pipeline,
          "the bad event's dead letter, naming its destination",
          () -> {
            dead.clear();
            if (Files.isDirectory(deadLetters)) {
              dead.addAll(TemplateRun.deadLetters(deadLetters));
            }
            return dead.size() == 1 && dead.get(0).contains("destination shop.inventory_orders:");
          },
          () -> "; the dead letters are " + dead);
    }
    audit(warehouse, "inventory_orders", "--sum", "amount", "--group-by", "store_id");
    audit(warehouse, "inventory_customers", "--group-by", "store_id");
    audit(warehouse, "crm_visits");
  }

  @Test
  void databaseModeRefusesATopicWithoutAnEnvelopedEventAtLaunchNamingIt() throws Exception {
    produce("dbempty.crm.notes", 1, List.of());
    IllegalArgumentException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                TemplateRun.start(
                    TemplateCatalog.CDC_TO_TABLE,
                    List.of(
                        "--bootstrapServers=" + kafka.bootstrapServers(),
                        "--topics=dbempty.crm.notes",
                        "--consumerGroup=changelake-empty",
                        "--warehouse=" + local.resolve("lake"),
                        "--database=shop",
                        "--tableNameFormat={db}_{table}",
                        "--primaryKeys=crm.notes=note_id",
                        "--deadLetterDir=" + local.resolve("dead"))));
    assertTrue(
        refused
            .getMessage()
            .contains("topic dbempty.crm.notes holds no event in the schema envelope"),
        refused.getMessage());
  }

  /** {@code ./changelake audit} of a table of {@code shop}: it must print PASS. */
  private static void audit(String warehouse, String table, String... options) {
    List<String> args =
        new ArrayList<>(
            List.of("audit", "--warehouse", warehouse, "--database", "shop", "--table", table));
    args.addAll(List.of(options));
    java.io.PrintStream out = System.out;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    int exit;
    try (java.io.PrintStream captured =
        new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8)) {
      System.setOut(captured);
      exit =
          new picocli.CommandLine(new io.changelake.cli.Changelake())
              .execute(args.toArray(String[]::new));
    } finally {
      System.setOut(out);
    }
    String text = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, exit, table + ": " + text);
    assertTrue(text.contains("PASS: the changelog reproduces the table"), table + ": " + text);
  }

  /** The group's committed offsets, by {@code <topic>-<partition>}. */
  private static Map<String, Long> groupOffsetsByPartition(String group) throws Exception {
    Map<String, Long> offsets = new java.util.TreeMap<>();
    try (Admin admin = admin()) {
      admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .forEach((p, o) -> offsets.put(p.toString(), o.offset()));
    }
    return offsets;
  }

  /** The metadata of the group's committed offsets, by {@code <topic>-<partition>}. */
  private static Map<String, String> groupMetadata(String group) throws Exception {
    Map<String, String> metadata = new java.util.TreeMap<>();
    try (Admin admin = admin()) {
      admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .forEach((p, o) -> metadata.put(p.toString(), o.metadata()));
    }
    return metadata;
  }

  /**
   * Waits until the log cleaner has removed the topic's first two offsets (of its one partition)
   * and returns the offsets that still hold records, below {@code end}.
   */
  private static List<Long> awaitCompacted(String topic, long end) throws Exception {
    Map<String, Object> config =
        Map.of(
            "bootstrap.servers",
            kafka.bootstrapServers(),
            "key.deserializer",
            org.apache.kafka.common.serialization.StringDeserializer.class,
            "value.deserializer",
            org.apache.kafka.common.serialization.StringDeserializer.class,
            "enable.auto.commit",
            false);
    org.apache.kafka.common.TopicPartition partition =
        new org.apache.kafka.common.TopicPartition(topic, 0);
    List<Long> offsets = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    try (org.apache.kafka.clients.consumer.KafkaConsumer<String, String> consumer =
        new org.apache.kafka.clients.consumer.KafkaConsumer<>(config)) {
      consumer.assign(List.of(partition));
      while (System.nanoTime() < deadline) {
        offsets.clear();
        consumer.seekToBeginning(List.of(partition));
        while (consumer.position(partition) < end) {
          consumer.poll(Duration.ofMillis(200)).forEach(r -> offsets.add(r.offset()));
        }
        if (!offsets.contains(0L) && !offsets.contains(1L)) {
          return List.copyOf(offsets);
        }
        Thread.sleep(500);
      }
    }
    throw new AssertionError(
        "the broker did not compact " + topic + " within 90 s: records at " + offsets);
  }

  /**
   * Every change below the group's offset of its partition is in the table: its key's row carries
   * its LSN or a newer one (the group's offsets are read before the table, which only moves on).
   */
  private static void assertSettledInTable(
      ObjectStore store, List<Sent> changes, Map<Integer, Long> committed) throws Exception {
    Map<Long, Long> lsnByOrder = new java.util.HashMap<>();
    try {
      Table table = Table.open(store, new TablePath("shop", "orders"));
      int key = table.schema().rowType().indexOf("order_id");
      int sequence = table.schema().rowType().indexOf("_sequence");
      for (Object[] row : table.newRead().readAll()) {
        // _sequence of a PostgreSQL event: 1p:<LSN in hex>:<row>.
        lsnByOrder.put((Long) row[key], Long.parseLong(((String) row[sequence]).split(":")[1], 16));
      }
    } catch (java.io.IOException notYet) {
      // No table yet: then no change may be below a committed offset either.
    }
    for (Sent change : changes) {
      if (change.offset() < committed.getOrDefault(change.partition(), 0L)) {
        Long lsn = lsnByOrder.get(change.order());
        assertTrue(
            lsn != null && lsn >= change.lsn(),
            "the group passed offset "
                + change.offset()
                + " of partition "
                + change.partition()
                + " (order "
                + change.order()
                + ") but the table holds "
                + lsnByOrder);
      }
    }
  }

  private static Map<Integer, Long> groupOffsets() throws Exception {
    return groupOffsets("changelake-offsets");
  }

  private static String groupOffsetsText(String group) {
    try {
      return groupOffsets(group).toString();
    } catch (Exception unread) {
      return "unknown (" + unread + ")";
    }
  }

  private static Map<Integer, Long> groupOffsets(String group) throws Exception {
    Map<Integer, Long> offsets = new java.util.HashMap<>();
    try (Admin admin = admin()) {
      admin
          .listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata()
          .get()
          .forEach((p, o) -> offsets.put(p.partition(), o.offset()));
    }
    return offsets;
  }

  /** Per partition, the offset after its last record sent. */
  private static Map<Integer, Long> afterLastRecord(List<Sent> sent) {
    Map<Integer, Long> after = new java.util.HashMap<>();
    for (Sent record : sent) {
      after.merge(record.partition(), record.offset() + 1, Math::max);
    }
    return after;
  }

  private static List<String> withSequence(ObjectStore store, String table) throws Exception {
    List<String> rows = new ArrayList<>();
    for (Object[] row : Table.open(store, new TablePath("shop", table)).newRead().readAll()) {
      rows.add(java.util.Arrays.toString(row));
    }
    return rows.stream().sorted().toList();
  }

  private static void awaitRows(
      TemplateRun.Running pipeline, ObjectStore store, String table, List<String> expected)
      throws Exception {
    List<String> seen = new ArrayList<>();
    awaitTrue(
        pipeline,
        table + " to hold " + expected,
        () -> {
          seen.clear();
          try {
            seen.addAll(TemplateRun.rows(store, table));
          } catch (java.io.IOException notYet) {
            // TableNotFoundException among them: the table is created by the first batch.
            seen.add(notYet.getMessage());
          }
          return seen.equals(expected);
        },
        () -> "; it holds " + seen);
  }

  /**
   * Waits until the condition holds; fails at once, with the pipeline's own failure, if the
   * pipeline ends first, and after the wait with {@code seen}: what the condition last saw.
   */
  private static void awaitTrue(
      TemplateRun.Running pipeline, String what, CheckedCondition condition, Supplier<String> seen)
      throws Exception {
    // Alone the pipeline lands the rows in under 20 s; the shared 2-core machine, with other
    // builds running, takes several times that.
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.holds()) {
        return;
      }
      pipeline.assertRunning(what + seen.get());
      Thread.sleep(500);
    }
    assertTrue(condition.holds(), "waited 120 s for " + what + seen.get());
  }

  /** A condition that may throw. */
  private interface CheckedCondition {
    boolean holds() throws Exception;
  }

  static {
    // Keep the broker's and the clients' INFO logging out of the test output.
    Properties quiet = new Properties();
    quiet.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "warn");
    quiet.setProperty("org.slf4j.simpleLogger.log.kafka", "warn");
    quiet.forEach((k, v) -> System.setProperty((String) k, (String) v));
  }
}
