package io.changelake.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.ManifestEntry;
import io.changelake.table.ChangelogTask;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactCommandTest {

  @TempDir Path dir;

  private static CommandRun compact(TestWarehouse warehouse, String... flags) {
    return warehouse.onOrders("compact", flags);
  }

  @Test
  void aFullCompactionOfAWriteOnlyTableLiftsEveryFileAndProducesTheLookupChangelog()
      throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table =
          warehouse.createPartitioned(
              "orders", Map.of("write-only", "true", "changelog-producer", "lookup"));
      for (long order = 1; order <= 6; order++) {
        warehouse.commit(table, TestWarehouse.insert(order, order % 2, order * 10));
      }
      List<Object[]> before = table.newRead().readAll();

      CommandRun run = compact(warehouse, "--full");

      assertEquals(0, run.exitCode(), run.err());
      assertTrue(run.out().contains("full compaction of 3 buckets"), run.out());
      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals("changelake-compact", latest.commitUser());
      int top = table.options().numLevels() - 1;
      for (ManifestEntry e : table.newScan().liveFiles(latest)) {
        assertEquals(top, e.file().level(), e.file().fileName());
      }
      assertEquals(before.size(), table.newRead().readAll().size());
      // The compaction gave the +I changelog of the six rows the writers only buffered.
      long changes = 0;
      for (ChangelogTask task : table.newChangelogScan().changes(latest)) {
        changes += task.files().stream().mapToLong(f -> f.rowCount()).sum();
      }
      assertEquals(6, changes);
    }
  }

  @Test
  void severalWriteOnlyWritersAndOneCompactorLoseNothing() throws Exception {
    try (TestWarehouse warehouse = new TestWarehouse(dir)) {
      Table table = warehouse.create("orders", Map.of("write-only", "true"));
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> writers = new java.util.ArrayList<>();
        for (int w = 0; w < 2; w++) {
          long base = w * 1000L;
          String user = "writer-" + w;
          writers.add(
              pool.submit(
                  () -> {
                    for (long c = 1; c <= 8; c++) {
                      try (TableWriter writer = table.newWriter()) {
                        writer.write(RowKind.INSERT, new Object[] {base + c, 1L, c});
                        table.newCommit(user).commit(c, writer.prepareCommit(c));
                      }
                    }
                    return null;
                  }));
        }
        Future<?> compactor =
            pool.submit(
                () -> {
                  for (int i = 0; i < 3; i++) {
                    CommandRun run = compact(warehouse);
                    if (run.exitCode() != 0 && !run.err().contains("conflict")) {
                      throw new AssertionError(run.err());
                    }
                  }
                  return null;
                });
        for (Future<?> f : writers) {
          f.get();
        }
        compactor.get();
      } finally {
        pool.shutdownNow();
      }
      assertEquals(0, compact(warehouse, "--full").exitCode());
      assertEquals(16, table.newRead().readAll().size());
    }
  }
}
