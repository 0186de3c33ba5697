package io.changelake.it.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.ObjectStore;
import io.changelake.store.S3ProxyServer;
import io.changelake.templates.TemplateCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each template end to end on the DirectRunner against an in-process S3Proxy: change-event files
 * in, tables on S3 out, checked row by row, bad events in the dead-letter files.
 */
class TemplatesIT {

  private static S3ProxyServer s3;

  @TempDir Path local;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = S3ProxyServer.startInMemory();
  }

  @AfterAll
  static void stopS3() throws Exception {
    s3.close();
  }

  private String warehouse(String name) {
    return "s3://" + s3.bucket() + "/" + name;
  }

  static List<String> s3Options(String endpoint) {
    return List.of(
        "--s3Endpoint=" + endpoint,
        "--s3PathStyleAccess=true",
        "--s3Region=us-east-1",
        "--s3AccessKeyId=" + S3ProxyServer.ACCESS_KEY_ID,
        "--s3SecretAccessKey=" + S3ProxyServer.SECRET_ACCESS_KEY);
  }

  /** The options of reading {@code input} into {@code shop.orders} with a producer. */
  static List<String> cdcOptions(String warehouse, Path input, Path deadLetters, String producer) {
    return List.of(
        "--inputFilePattern=" + input,
        "--warehouse=" + warehouse,
        "--database=shop",
        "--table=orders",
        "--columns=" + OrderEvents.COLUMNS,
        "--primaryKeys=order_id",
        "--producer=" + producer,
        "--buckets=2",
        "--deadLetterDir=" + deadLetters);
  }

  static List<String> aggregateOptions() {
    return List.of(
        "--groupColumn=store_id", "--valueColumn=amount", "--aggregateTable=store_totals");
  }

  private static List<String> concat(List<String> a, List<String> b, List<String> c) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    all.addAll(c);
    return all;
  }

  @Test
  void cdcToTableWritesTheFinalRowsAndSendsBadEventsToDeadLetters() throws Exception {
    Path input =
        new OrderEvents()
            .create(1001, 10, 100)
            .create(1002, 20, 50)
            .create(1003, 20, 70)
            .update(1001, 10, 100, 80)
            .delete(1002, 20, 50)
            .bad("{\"op\":\"c\",\"after\":{\"order_id\":9,\"amount\":\"a lot\"}}")
            .bad("not json")
            .writeTo(local.resolve("in/orders-1.json"));
    String warehouse = warehouse("cdc-to-table");
    TemplateRun.run(
        TemplateCatalog.CDC_TO_TABLE,
        concat(
            cdcOptions(warehouse, input, local.resolve("dead"), "input"),
            s3Options(s3.endpoint().toString()),
            List.of()));

    try (ObjectStore store = s3.openStore("cdc-to-table")) {
      assertEquals(List.of("[1001, 10, 80]", "[1003, 20, 70]"), TemplateRun.rows(store, "orders"));
    }
    List<String> dead = TemplateRun.deadLetters(local.resolve("dead"));
    assertEquals(2, dead.size(), dead.toString());
    assertEquals(
        "{\"reason\":\"unparsable JSON: Unrecognized token 'not': was expecting (JSON String,"
            + " Number, Array, Object or token 'null', 'true' or 'false')\",\"event\":\"not json\"}",
        dead.get(0));
    assertEquals(
        "{\"reason\":\"wrong type of 'amount' in after: expected BIGINT, found \\\"a lot\\\"\","
            + "\"event\":\"{\\\"op\\\":\\\"c\\\",\\\"after\\\":{\\\"order_id\\\":9,\\\"amount\\\":\\\"a lot\\\"}}\"}",
        dead.get(1));
  }

  @Test
  void changelogToAggregateKeepsSumAndCountWithRetraction() throws Exception {
    String warehouse = warehouse("changelog-to-aggregate");
    List<String> s3 = s3Options(TemplatesIT.s3.endpoint().toString());
    // Two commits of the source: the second retracts what the first added.
    Path first =
        new OrderEvents()
            .create(1001, 10, 100)
            .create(1002, 20, 50)
            .create(1003, 20, 70)
            .writeTo(local.resolve("in/1.json"));
    TemplateRun.run(
        TemplateCatalog.CDC_TO_TABLE,
        concat(cdcOptions(warehouse, first, local.resolve("dead/1"), "lookup"), s3, List.of()));
    Path second =
        new OrderEvents()
            .update(1001, 10, 100, 80)
            .delete(1002, 20, 50)
            .writeTo(local.resolve("in/2.json"));
    TemplateRun.run(
        TemplateCatalog.CDC_TO_TABLE,
        concat(cdcOptions(warehouse, second, local.resolve("dead/2"), "lookup"), s3, List.of()));

    try (ObjectStore store = TemplatesIT.s3.openStore("changelog-to-aggregate")) {
      long end = TemplateRun.latestSnapshot(store, "orders");
      TemplateRun.run(
          TemplateCatalog.CHANGELOG_TO_AGGREGATE,
          concat(
              List.of(
                  "--warehouse=" + warehouse,
                  "--database=shop",
                  "--sourceTable=orders",
                  "--startSnapshot=1",
                  "--endSnapshot=" + end,
                  "--pollIntervalSeconds=1",
                  "--deadLetterDir=" + local.resolve("dead/aggregate")),
              aggregateOptions(),
              s3));
      // store_id, sum_amount, cnt: AVG is sum / cnt.
      assertEquals(List.of("[10, 80, 1]", "[20, 70, 1]"), TemplateRun.rows(store, "store_totals"));
    }
  }

  @Test
  void cdcToAggregateRetractsAcrossCommits() throws Exception {
    CdcToAggregateCheck.run(
        warehouse("cdc-to-aggregate"),
        s3Options(s3.endpoint().toString()),
        local,
        () -> s3.openStore("cdc-to-aggregate"));
  }
}
