package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.SchemaEvolution;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TableAlterTest {

  private static final TablePath PATH = new TablePath("db", "altered");

  @TempDir Path warehouse;

  @Test
  void twoConcurrentAltersOfOneSchemaCannotBothLandAndTheLoserRetriesOnTheNewSchema()
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, PATH, EvolvedTableCompatibilityTest.first(Map.of("bucket", "1")));
      int contenders = 8;
      ExecutorService pool = Executors.newFixedThreadPool(contenders);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new java.util.ArrayList<>();
        for (int i = 0; i < contenders; i++) {
          Table stale = Table.open(store, PATH);
          SchemaChange change =
              new SchemaChange.AddColumn("c" + i, DataType.intType(), null, ColumnPosition.last());
          Callable<Boolean> alter =
              () -> {
                start.await();
                try {
                  stale.alter(List.of(change));
                  return true;
                } catch (SchemaConflictException lost) {
                  assertTrue(lost.getMessage().contains("retry"), lost.getMessage());
                  return false;
                }
              };
          results.add(pool.submit(alter));
        }
        start.countDown();
        int won = 0;
        for (Future<Boolean> r : results) {
          won += r.get() ? 1 : 0;
        }
        assertEquals(1, won);
      } finally {
        pool.shutdownNow();
      }
      TableSchema landed = Table.open(store, PATH).schema();
      assertEquals(1, landed.id());
      assertEquals(9, landed.rowType().size());

      Table retried =
          Table.open(store, PATH)
              .alter(
                  List.of(
                      new SchemaChange.AddColumn(
                          "retry", DataType.intType(), null, ColumnPosition.last())));
      assertEquals(2, retried.schema().id());
      assertEquals(9, retried.schema().highestFieldId());
    }
  }

  @Test
  void aStaleTableObjectCannotOverwriteANewerSchema() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table stale =
          Table.create(store, PATH, EvolvedTableCompatibilityTest.first(Map.of("bucket", "1")));
      stale.alter(List.of(new SchemaChange.DropColumn("s")));

      assertThrows(
          SchemaConflictException.class,
          () -> stale.alter(List.of(new SchemaChange.DropColumn("f"))));
      assertEquals(8 - 1, Table.open(store, PATH).schema().rowType().size());
    }
  }

  @Test
  void theChangesBetweenTwoSchemasAreTheChangesApplied() throws Exception {
    TableSchema before = EvolvedTableCompatibilityTest.first(Map.of("bucket", "1"));
    List<SchemaChange> changes =
        List.of(
            new SchemaChange.DropColumn("s"),
            new SchemaChange.AddColumn("a", DataType.intType(), "new", ColumnPosition.atFirst()),
            new SchemaChange.AddColumn(
                "b", DataType.intType(), null, ColumnPosition.afterColumn("small")),
            new SchemaChange.RenameColumn("v", "label"),
            new SchemaChange.UpdateColumnType("small", DataType.bigint()),
            new SchemaChange.MakeColumnNullable("n"),
            new SchemaChange.UpdateColumnComment("f", "a float"),
            new SchemaChange.UpdateComment("t"),
            new SchemaChange.SetOption("snapshot.num-retained.min", "3"));
    TableSchema after = SchemaEvolution.apply(before, changes, true);

    List<SchemaChange> found = SchemaEvolution.changesBetween(before, after);

    assertEquals(
        changes.stream().map(SchemaChange::describe).sorted().toList(),
        found.stream().map(SchemaChange::describe).sorted().toList());
    assertEquals(
        new String(after.toJson(), java.nio.charset.StandardCharsets.UTF_8)
            .replaceAll("\"timeMillis\"\\s*:\\s*\\d+", ""),
        new String(
                SchemaEvolution.apply(before, found, true).toJson(),
                java.nio.charset.StandardCharsets.UTF_8)
            .replaceAll("\"timeMillis\"\\s*:\\s*\\d+", ""));
  }
}
