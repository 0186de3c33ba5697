package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.PaimonCrossPartitionWrites.Change;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
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

  /** day INT (partition), id BIGINT (primary key), v STRING, n BIGINT. */
  private static TableSchema schema(Map<String, String> options) {
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string()),
                new DataField(3, "n", DataType.bigint())));
    Map<String, String> all = new TreeMap<>(options);
    all.put("bucket", "-1");
    return TableSchema.create(rowType, List.of("day"), List.of("id"), all, null);
  }

  private static Object[] row(int day, long id, String v, Long n) {
    return new Object[] {day, id, v, n};
  }

  /**
   * A fixed story of key 1 (moves 1 -> 2 -> 3, a -D in its day, back to 1, a -D naming another
   * day), then random batches over 8 keys and 3 days; -D and +U only where the engine takes them.
   */
  private static List<List<Change>> batches(String engine, long seed) {
    boolean deletes = engine.equals("deduplicate");
    boolean nulls = engine.equals("partial-update");
    List<List<Change>> out = new ArrayList<>();
    List<Change> story = new ArrayList<>();
    story.add(new Change(RowKind.INSERT, row(1, 1, "a", 1L)));
    story.add(new Change(RowKind.INSERT, row(2, 1, "b", 2L)));
    story.add(new Change(RowKind.INSERT, row(3, 1, "c", 3L)));
    story.add(new Change(RowKind.INSERT, row(1, 2, "x", 1L)));
    if (deletes) {
      story.add(new Change(RowKind.DELETE, row(3, 1, "c", 3L)));
    }
    story.add(new Change(RowKind.INSERT, row(1, 1, "d", 4L)));
    out.add(story);
    List<Change> second = new ArrayList<>();
    if (deletes) {
      second.add(new Change(RowKind.DELETE, row(2, 1, "d", 4L)));
      second.add(new Change(RowKind.INSERT, row(3, 2, "y", 2L)));
    }
    second.add(new Change(RowKind.INSERT, row(2, 1, "e", 5L)));
    second.add(new Change(RowKind.INSERT, row(2, 3, "z", 1L)));
    out.add(second);
    Random random = new Random(seed);
    for (int b = 0; b < 3; b++) {
      List<Change> batch = new ArrayList<>();
      for (int i = 0; i < 14; i++) {
        int day = 1 + random.nextInt(3);
        long id = random.nextInt(8);
        String v = nulls && random.nextInt(3) == 0 ? null : "b" + b + "r" + i;
        Long n = nulls && random.nextInt(3) == 0 ? null : (long) (1 + random.nextInt(5));
        int k = random.nextInt(10);
        RowKind kind =
            !deletes
                ? RowKind.INSERT
                : k < 2 ? RowKind.DELETE : k < 3 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
        batch.add(new Change(kind, row(day, id, v, n)));
      }
      out.add(batch);
    }
    return out;
  }

  private static Map<String, String> options(String engine, String producer) {
    Map<String, String> options = new TreeMap<>();
    options.put("merge-engine", engine);
    options.put("changelog-producer", producer);
    options.put("dynamic-bucket.target-row-num", "2");
    options.put("cross-partition-upsert.bootstrap-parallelism", "1");
    if (engine.equals("aggregation")) {
      options.put("fields.n.aggregate-function", "sum");
    }
    return options;
  }

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

  /**
   * The changelog Paimon reads: per snapshot with changes, in order, its changes sorted (buckets
   * have no order between them). Snapshot ids are left out: Paimon's batch commit of a lookup table
   * makes a compaction snapshot of its own, ours one snapshot.
   */
  private static List<List<String>> changelog(FileStoreTable table, TableSchema schema)
      throws Exception {
    Map<Long, List<String>> bySnapshot = new TreeMap<>();
    for (PaimonStreams.Change c : PaimonStreams.changelog(table, schema, 1)) {
      bySnapshot
          .computeIfAbsent(c.snapshotId(), s -> new ArrayList<>())
          .add(c.kind().shortString() + c.row());
    }
    List<List<String>> out = new ArrayList<>();
    bySnapshot.values().forEach(changes -> out.add(changes.stream().sorted().toList()));
    return out;
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
