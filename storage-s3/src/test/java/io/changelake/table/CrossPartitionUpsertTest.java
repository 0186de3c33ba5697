package io.changelake.table;

import static io.changelake.table.CrossPartitionStories.batches;
import static io.changelake.table.CrossPartitionStories.changelog;
import static io.changelake.table.CrossPartitionStories.options;
import static io.changelake.table.CrossPartitionStories.row;
import static io.changelake.table.CrossPartitionStories.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.PaimonCrossPartitionWrites.Change;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cross-partition upsert tables (primary key id, partition day, bucket = -1) against Paimon 1.3.1
 * driven as its Flink sink drives it ({@link PaimonCrossPartitionWrites}): for every merge engine
 * and changelog producer, the same batches of changes, keys moving between days several times, -D
 * of keys in another day and keys re-inserted after a -D, leave the same rows and the same
 * changelog in our table as in Paimon's, as Paimon reads both; and a table written in turns by
 * Paimon and by us (each bootstrapping its key index from the other's) ends the same.
 */
class CrossPartitionUpsertTest {

  private static final TablePath OURS = new TablePath("db", "ours");
  private static final TablePath THEIRS = new TablePath("db", "theirs");
  private static final TablePath TURNS = new TablePath("db", "turns");

  /**
   * The cases of the default run, one per rule of Paimon's ({@code DeleteExistingProcessor}, {@code
   * UseOldExistingProcessor}, {@code SkipNewExistingProcessor}), under the lookup producer; the
   * others run with this property set.
   */
  private static final String EVERY_CASE = "changelake.crosspartition.every-case";

  private static final Set<String> DEFAULT_CASES =
      Set.of("deduplicate/lookup", "partial-update/lookup", "first-row/lookup");

  @TempDir Path warehouse;

  private static void writeOurs(Table table, List<Change> batch) throws Exception {
    SnapshotCommit commit = table.newCommit("ours");
    long identifier = commit.lastCommittedIdentifier().orElse(0) + 1;
    try (TableWriter writer = table.newWriter()) {
      for (Change c : batch) {
        writer.write(c.kind(), c.row());
      }
      commit.commit(identifier, writer.prepareCommit(identifier));
    }
  }

  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource({
    "deduplicate, input",
    "deduplicate, lookup",
    "deduplicate, none",
    "partial-update, input",
    "partial-update, lookup",
    "aggregation, input",
    "aggregation, lookup",
    "first-row, lookup",
    "first-row, none"
  })
  void everyEngineRoutesAMovingKeyAsPaimonInTableAndChangelog(String engine, String producer)
      throws Exception {
    assumeTrue(
        DEFAULT_CASES.contains(engine + "/" + producer) || Boolean.getBoolean(EVERY_CASE),
        "Paimon's sink takes seconds a batch: this case runs with -D" + EVERY_CASE + "=true");
    TableSchema schema = schema(options(engine, producer));
    List<List<Change>> batches = batches(engine, 17);
    Path io = Files.createDirectories(warehouse.resolve("io"));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table ours = Table.create(store, OURS, schema);
      Table turns = Table.create(store, TURNS, schema);
      FileStoreTable theirs = PaimonTables.create(warehouse.resolve("db.db/theirs"), schema);
      for (int b = 0; b < batches.size(); b++) {
        writeOurs(ours, batches.get(b));
        PaimonCrossPartitionWrites.write(
            PaimonTables.open(warehouse.resolve("db.db/theirs")), schema, batches.get(b), io);
        if (b % 2 == 0) {
          PaimonCrossPartitionWrites.write(
              PaimonTables.open(warehouse.resolve("db.db/turns")), schema, batches.get(b), io);
        } else {
          writeOurs(Table.open(store, TURNS), batches.get(b));
        }
      }
      theirs = PaimonTables.open(warehouse.resolve("db.db/theirs"));
      FileStoreTable oursByPaimon = PaimonTables.open(warehouse.resolve("db.db/ours"));
      FileStoreTable turnsByPaimon = PaimonTables.open(warehouse.resolve("db.db/turns"));
      List<String> expected = Rows.canonical(PaimonTables.readAll(theirs, schema));
      assertEquals(expected, Rows.canonical(PaimonTables.readAll(oursByPaimon, schema)));
      assertEquals(expected, Rows.canonical(ours.newRead().readAll()));
      assertEquals(expected, Rows.canonical(PaimonTables.readAll(turnsByPaimon, schema)));
      assertEquals(expected, Rows.canonical(turns.newRead().readAll()));
      assertOneRowPerKey(ours.newRead().readAll());
      assertEquals(changelog(theirs, schema), changelog(oursByPaimon, schema));
      assertEquals(changelog(theirs, schema), changelog(turnsByPaimon, schema));
      assertEquals(
          PaimonDynamicWrites.bucketsOfKeys(theirs, schema),
          PaimonDynamicWrites.bucketsOfKeys(oursByPaimon, schema),
          "every key in the bucket Paimon gives it");
    }
  }

  private static void assertOneRowPerKey(List<Object[]> rows) {
    Set<Object> ids = new HashSet<>();
    for (Object[] row : rows) {
      assertEquals(true, ids.add(row[1]), "key " + row[1] + " in one partition only");
    }
  }

  @Test
  void aFixedBucketCountASequenceFieldOrAnIndexTtlIsRefused() throws Exception {
    TableSchema fixed =
        TableSchema.create(
            schema(Map.of()).rowType(), List.of("day"), List.of("id"), Map.of("bucket", "2"), null);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      BadInputTest.assertMentions(
          assertThrows(UnsupportedTableException.class, () -> Table.create(store, OURS, fixed)),
          "'bucket' = -1",
          "[id]",
          "[day]");
      BadInputTest.assertMentions(
          assertThrows(
              UnsupportedTableException.class,
              () -> Table.create(store, OURS, schema(Map.of("sequence.field", "n")))),
          "sequence.field");
      BadInputTest.assertMentions(
          assertThrows(
              IllegalArgumentException.class,
              () -> schema(Map.of("cross-partition-upsert.index-ttl", "1 d"))),
          "cross-partition-upsert.index-ttl");
    }
    // Paimon takes the fixed-bucket table but keeps a key once per partition, not once in all.
    FileStoreTable paimonFixed = PaimonTables.create(warehouse.resolve("db.db/fixed"), fixed);
    PaimonTables.write(
        paimonFixed, fixed, List.of(row(1, 1, "a", 1L), row(2, 1, "b", 2L)), RowKind.INSERT);
    assertEquals(2, PaimonTables.readAll(paimonFixed, fixed).size());
  }
}
