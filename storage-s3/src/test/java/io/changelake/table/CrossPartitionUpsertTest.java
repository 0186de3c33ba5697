package io.changelake.table;

import static io.changelake.table.CrossPartitionStories.batches;
import static io.changelake.table.CrossPartitionStories.changelog;
import static io.changelake.table.CrossPartitionStories.options;
import static io.changelake.table.CrossPartitionStories.row;
import static io.changelake.table.CrossPartitionStories.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.CrossPartitionUpsert.Placement;
import io.changelake.table.PaimonCrossPartitionWrites.Change;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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

  /** Where a {@link CrossPartitionUpsert} sent each row, as {@code -D[2, 1, ...]@bucket}. */
  private static List<String> routed(CrossPartitionUpsert upsert, Change... changes)
      throws Exception {
    List<String> out = new ArrayList<>();
    for (Change c : changes) {
      upsert.write(
          c.kind(),
          c.row(),
          (kind, row, bucket) ->
              out.add(kind.shortString() + Arrays.toString(row) + "@" + bucket.bucket()));
    }
    return out;
  }

  /**
   * A writer that assigns apart from writing (the Beam write) may leave a moved key in both
   * partitions for a commit: a bootstrap refuses such a table, unless a placement given back says
   * where the key is, which then decides the next move.
   */
  @Test
  void aRestoredPlacementSettlesAKeyTheTableHoldsTwiceMidMove() throws Exception {
    TableSchema schema = schema(options("deduplicate", "input"));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, OURS, schema);
      SnapshotCommit commit = table.newCommit("ours");
      for (int day = 1; day <= 2; day++) {
        // The move's row in day 2 lands; its -D for day 1 is still to come.
        try (TableWriter writer = table.newWriter()) {
          writer.write(RowKind.INSERT, row(day, 1, "v" + day, 1L), 0);
          commit.commit(day, writer.prepareCommit(day));
        }
      }
      Change next = new Change(RowKind.INSERT, row(3, 1, "v3", 1L));
      try (CrossPartitionUpsert fresh =
          table.newCrossPartitionUpsert(0, warehouse.resolve("fresh"))) {
        BadInputTest.assertMentions(
            assertThrows(IllegalStateException.class, () -> routed(fresh, next)),
            "holds primary key [1] twice",
            "one writer at a time");
      }
      BinaryRowCodec key = new BinaryRowCodec(schema.rowType().project(new int[] {1}));
      Object[] one = {1L};
      Placement inDay2 =
          new Placement(
              new SerializedRow(key.encodeRow(one)),
              key.hash(one),
              new SerializedRow(
                  new BinaryRowCodec(schema.partitionType()).encode(new Object[] {2})),
              0);
      try (CrossPartitionUpsert restored =
          table.newCrossPartitionUpsert(0, warehouse.resolve("restored"))) {
        restored.restore(List.of(inDay2));
        assertEquals(List.of("-D[2, 1, v3, 1]@0", "+I[3, 1, v3, 1]@0"), routed(restored, next));
        assertEquals(1, restored.takeNewPlacements().size(), "the move to day 3");
      }
    }
  }

  /**
   * Two assigners split the keys by key hash, each bootstrapping only its own keys and opening only
   * its own buckets (b % 2 == a), as Paimon's GlobalIndexAssigners do.
   */
  @Test
  void twoAssignersSplitTheKeysAndOpenOnlyTheirOwnBuckets() throws Exception {
    Map<String, String> options = new TreeMap<>(options("deduplicate", "input"));
    options.put("dynamic-bucket.initial-buckets", "2");
    TableSchema schema = schema(options);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, OURS, schema);
      try (CrossPartitionUpsert a0 = table.newCrossPartitionUpsert(0, warehouse.resolve("a0"));
          CrossPartitionUpsert a1 = table.newCrossPartitionUpsert(1, warehouse.resolve("a1"))) {
        CrossPartitionUpsert[] assigners = {a0, a1};
        Map<Integer, Integer> keysOf = new TreeMap<>();
        for (long id = 0; id < 40; id++) {
          Object[] row = row(1, id, "v", 1L);
          int a = a0.assignerOf(row);
          assertEquals(a, a1.assignerOf(row), "any assigner answers alike");
          CrossPartitionUpsert other = assigners[1 - a];
          assertThrows(
              IllegalStateException.class, () -> other.write(RowKind.INSERT, row, (k, r, b) -> {}));
          assigners[a].write(
              RowKind.INSERT,
              row,
              (k, r, bucket) -> assertEquals(a, bucket.bucket() % 2, "an own bucket"));
          keysOf.merge(a, 1, Integer::sum);
        }
        assertEquals(2, keysOf.size(), "both assigners took keys: " + keysOf);
      }
    }
  }
}
