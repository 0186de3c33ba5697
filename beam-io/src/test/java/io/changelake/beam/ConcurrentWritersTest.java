package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.beam.FaultInjection.Point;
import io.changelake.store.S3Settings;
import io.changelake.table.Rows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two pipelines on one table: on different partitions both succeed, their races for snapshot ids
 * retried; on the same bucket the second commit is refused with the reason, and the table keeps the
 * first pipeline's rows.
 */
class ConcurrentWritersTest {

  @TempDir Path warehouse;

  private static final org.apache.beam.sdk.schemas.Schema SCHEMA =
      org.apache.beam.sdk.schemas.Schema.builder()
          .addStringField("region")
          .addInt64Field("order_id")
          .addInt64Field("amount")
          .build();

  private static List<Row> orders(String region, long from, long to, long amount) {
    List<Row> rows = new ArrayList<>();
    for (long i = from; i < to; i++) {
      rows.add(Row.withSchema(SCHEMA).addValues(region, i, amount).build());
    }
    return rows;
  }

  private Pipeline pipeline(List<Row> rows, FaultInjection faults) {
    Pipeline p = Upserts.fastPipeline();
    p.getOptions().as(org.apache.beam.runners.direct.DirectOptions.class).setBlockOnRun(false);
    p.apply(Create.of(rows).withRowSchema(SCHEMA))
        .apply(
            ChangelakeIO.write()
                .to(warehouse.toString(), "shop", "orders")
                .withPrimaryKeys(List.of("region", "order_id"))
                .withPartitionKeys(List.of("region"))
                .withBuckets(2)
                .withTableOptions(Map.of("changelog-producer", "lookup"))
                .withFaultInjection(faults));
    return p;
  }

  @Test
  void pipelinesOnDifferentPartitionsBothCommit() throws Exception {
    PipelineResult eu = pipeline(orders("eu", 0, 20_000, 1), FaultInjection.NONE).run();
    PipelineResult us = pipeline(orders("us", 0, 20_000, 2), FaultInjection.NONE).run();
    assertEquals(PipelineResult.State.DONE, eu.waitUntilFinish());
    assertEquals(PipelineResult.State.DONE, us.waitUntilFinish());
    assertEquals(40_000, OrderRows.readAll(table(), S3Settings.defaults()).size());
  }

  /** Released when the second pipeline has written its files, so both writers overlap. */
  private static final CountDownLatch SECOND_WROTE = new CountDownLatch(1);

  private static final CountDownLatch FIRST_COMMITTED = new CountDownLatch(1);

  @Test
  void twoPipelinesOnOneBucketAreRefusedNotMerged() throws Exception {
    FaultInjection first =
        point -> {
          if (point == Point.BEFORE_SNAPSHOT) {
            await(SECOND_WROTE);
          } else if (point == Point.AFTER_SNAPSHOT) {
            FIRST_COMMITTED.countDown();
          }
        };
    FaultInjection second =
        point -> {
          if (point == Point.AFTER_FILES_WRITTEN) {
            SECOND_WROTE.countDown();
          } else if (point == Point.BEFORE_SNAPSHOT) {
            await(FIRST_COMMITTED);
          }
        };
    PipelineResult a = pipeline(orders("eu", 0, 1_000, 1), first).run();
    PipelineResult b = pipeline(orders("eu", 0, 1_000, 2), second).run();
    assertEquals(PipelineResult.State.DONE, a.waitUntilFinish());
    Exception refused = null;
    try {
      b.waitUntilFinish();
    } catch (Exception e) {
      refused = e;
    }
    assertTrue(refused != null, "the second writer of the bucket committed");
    assertTrue(
        String.valueOf(rootMessage(refused)).contains("two writers are writing the same bucket"),
        String.valueOf(rootMessage(refused)));
    Rows.assertSameRows(
        orders("eu", 0, 1_000, 1).stream().map(r -> r.getValues().toArray()).toList(),
        OrderRows.readAll(table(), S3Settings.defaults()));
  }

  private String table() {
    return warehouse.toString();
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other pipeline never got there");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String rootMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append(" | ");
    }
    return all.toString();
  }
}
