package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdviseCommandTest {

  @TempDir Path dir;

  private static CommandRun advise(TestWarehouse warehouse, String... flags) {
    return warehouse.onOrders("advise", flags);
  }

  @Test
  void upsertsIntoANoneTableCallForLookup() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = advise(warehouse, "--latency-seconds", "5");

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(
          run.out()
              .contains(
                  "sample     snapshots 1 to 3: 4 writes, 1 updates (25.0%), 1 deletes, 0 -U"),
          run.out());
      assertTrue(
          run.out().contains("25.0% of 4 sampled writes update a key already written"), run.out());
      assertTrue(
          run.out()
              .contains(
                  "keys       at most 4 (records in the live files of snapshot 3,"
                      + " before merging)"),
          run.out());
      assertTrue(
          run.out().contains("a 5 s latency target needs retractions within seconds"), run.out());
      assertTrue(
          run.out().contains("the table uses none: set changelog-producer=lookup"), run.out());
      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=lookup\n"), run.out());
    }
  }

  @Test
  void anInputWithBeforeImagesCallsForInput() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = advise(warehouse, "--input-has-before-images");

      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=input\n"), run.out());
    }
  }

  @Test
  void downstreamUpsertsNeedNoMoreThanNone() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.story("orders", "none");

      CommandRun run = advise(warehouse, "--downstream-upserts-only");

      assertTrue(run.out().contains("the table already uses none"), run.out());
      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=none\n"), run.out());
    }
  }

  @Test
  void anInsertOnlyTableIsServedByNone() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      var table = warehouse.create("orders", Map.of());
      warehouse.commit(table, TestWarehouse.insert(1, 10, 5), TestWarehouse.insert(2, 10, 6));
      warehouse.commit(table, TestWarehouse.insert(3, 20, 7));

      CommandRun run = advise(warehouse);

      assertTrue(run.out().contains("no update or delete in 3 sampled writes"), run.out());
      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=none\n"), run.out());
    }
  }

  @Test
  void aMergingEngineCallsForLookup() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      var table = warehouse.create("orders", Map.of("merge-engine", "partial-update"));
      warehouse.commit(table, TestWarehouse.insert(1, 10, 5));

      CommandRun run = advise(warehouse, "--input-has-before-images");

      assertTrue(run.out().contains("merge-engine partial-update stores raw inputs"), run.out());
      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=lookup\n"), run.out());
    }
  }

  @Test
  void aTableWithoutSnapshotsIsAdvisedFromItsOptions() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      warehouse.create("orders", Map.of());

      CommandRun run = advise(warehouse);

      assertTrue(run.out().contains("sample     none: the table has no snapshot"), run.out());
      assertTrue(run.out().endsWith("RECOMMEND changelog-producer=lookup\n"), run.out());
    }
  }
}
