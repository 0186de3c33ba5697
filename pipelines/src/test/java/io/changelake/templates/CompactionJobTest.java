package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.conformance.ConformanceRun;
import io.changelake.format.ManifestEntry;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compaction template compacts a write-only table that other writers keep writing. */
class CompactionJobTest {

  @TempDir Path warehouse;

  private Table writeOnlyOrders(LocalObjectStore store) throws Exception {
    TableSchema schema =
        TableSchema.create(
            ConformanceRun.ORDERS,
            List.of(),
            List.of("order_id"),
            Map.of("bucket", "2", "write-only", "true", "changelog-producer", "lookup"),
            null);
    return Table.create(store, new TablePath("shop", "orders"), schema);
  }

  private List<String> args(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--warehouse=" + warehouse,
                "--database=shop",
                "--table=orders",
                "--runner=DirectRunner"));
    args.addAll(List.of(more));
    return args;
  }

  private static List<String> rows(Table table) throws Exception {
    return table.newRead().readAll().stream().map(Arrays::toString).sorted().toList();
  }

  @Test
  void twoWriteOnlyWritersAndTheCompactionJobLoseNothingAndGiveTheLookupChangelog()
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = writeOnlyOrders(store);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        long base = w * 1000L;
        String user = "writer-" + w;
        writers.add(
            pool.submit(
                () -> {
                  for (long c = 1; c <= 6; c++) {
                    try (TableWriter writer = table.newWriter()) {
                      writer.write(RowKind.INSERT, new Object[] {base + c, 1L, c});
                      // Each writer also corrects its first order: a change the changelog shows.
                      writer.write(RowKind.UPDATE_AFTER, new Object[] {base + 1, 1L, 100 + c});
                      table.newCommit(user).commit(c, writer.prepareCommit(c));
                    }
                  }
                  return null;
                }));
      }
      // The compaction job runs (bounded, once a run) while the writers commit.
      int runs = 0;
      while (writers.stream().anyMatch(f -> !f.isDone()) || runs < 1) {
        assertEquals(
            PipelineResult.State.DONE,
            TemplateCatalog.COMPACT_TABLE.run(args().toArray(String[]::new)).waitUntilFinish());
        runs++;
      }
      for (Future<?> f : writers) {
        f.get();
      }
      pool.shutdown();
      TemplateCatalog.COMPACT_TABLE.run(args("--full").toArray(String[]::new)).waitUntilFinish();

      List<String> expected = new ArrayList<>();
      for (long base : new long[] {0, 1000}) {
        expected.add(Arrays.toString(new Object[] {base + 1, 1L, 106L}));
        for (long c = 2; c <= 6; c++) {
          expected.add(Arrays.toString(new Object[] {base + c, 1L, c}));
        }
      }
      assertEquals(expected.stream().sorted().toList(), rows(table));

      Snapshot latest = table.snapshots().latest().orElseThrow();
      assertEquals("changelake-compact", latest.commitUser());
      int top = table.options().numLevels() - 1;
      for (ManifestEntry e : table.newScan().liveFiles(latest)) {
        assertEquals(top, e.file().level(), e.file().fileName());
      }
      // Every change the writers only buffered reached the changelog through the compactions:
      // replaying it (+I/+U add, -U/-D remove) gives the table.
      Map<Long, String> replay = new TreeMap<>();
      table
          .newChangelogScan()
          .walk(
              1,
              latest.id(),
              new ChangelogScan.ChangeVisitor() {
                @Override
                public void snapshot(Snapshot snapshot) {}

                @Override
                public void change(ChangeRow changeRow) {
                  KeyValue change = changeRow.toKeyValue();
                  Object[] row = change.value();
                  if (change.kind() == RowKind.INSERT || change.kind() == RowKind.UPDATE_AFTER) {
                    replay.put((Long) row[0], Arrays.toString(row));
                  } else {
                    replay.remove((Long) row[0]);
                  }
                }
              });
      assertEquals(expected.stream().sorted().toList(), replay.values().stream().sorted().toList());
      assertTrue(runs >= 1);
    }
  }

  @Test
  void aMissingTableOrABadIntervalIsRefusedNamingTheOption() {
    List<String> noTable = new ArrayList<>(args());
    noTable.removeIf(a -> a.startsWith("--table="));
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> TemplateCatalog.COMPACT_TABLE.run(noTable.toArray(String[]::new)));
    assertTrue(missing.getMessage().startsWith("--table is missing"), missing.getMessage());
    IllegalArgumentException interval =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TemplateCatalog.COMPACT_TABLE.run(args("--everySeconds=0").toArray(String[]::new)));
    assertTrue(interval.getMessage().startsWith("--everySeconds"), interval.getMessage());
  }
}
