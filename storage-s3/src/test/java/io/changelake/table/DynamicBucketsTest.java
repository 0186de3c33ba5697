package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic bucket mode ({@code bucket} = -1) against Paimon 1.3.1 itself: the same keys get the same
 * buckets as Paimon's {@code HashBucketAssigner} gives them, Paimon reads our tables and their hash
 * index exactly and continues them, we continue Paimon's, no key ever lands in two buckets, and
 * expiry and orphan cleaning keep every index file a live snapshot names.
 */
class DynamicBucketsTest {

  private static final TablePath OURS = new TablePath("db", "ours");
  private static final TablePath THEIRS = new TablePath("db", "theirs");

  @TempDir Path warehouse;

  /** day INT (partition), id BIGINT, v STRING; primary key (day, id). */
  private static TableSchema schema(Map<String, String> options) {
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string())));
    Map<String, String> all = new TreeMap<>(options);
    all.put("bucket", "-1");
    return TableSchema.create(rowType, List.of("day"), List.of("day", "id"), all, null);
  }

  /** Batches of random upserts over {@code keys} ids in two days, in a fixed order. */
  private static List<List<Object[]>> batches(long seed, int batches, int rows, int keys) {
    Random random = new Random(seed);
    List<List<Object[]>> out = new ArrayList<>();
    for (int b = 0; b < batches; b++) {
      List<Object[]> batch = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        batch.add(
            new Object[] {
              20260101 + random.nextInt(2), (long) random.nextInt(keys), "v" + b + "-" + i
            });
      }
      out.add(batch);
    }
    return out;
  }

  private static void writeOurs(Table table, List<List<Object[]>> batches) throws Exception {
    SnapshotCommit commit = table.newCommit("ours");
    long identifier = commit.lastCommittedIdentifier().orElse(0) + 1;
    for (List<Object[]> batch : batches) {
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : batch) {
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(identifier, writer.prepareCommit(identifier));
        identifier++;
      }
    }
  }

  /** Every row Paimon reads, canonical. */
  private static List<String> rows(FileStoreTable table, TableSchema schema) throws Exception {
    return Rows.canonical(PaimonTables.readAll(table, schema));
  }

  /** The state the batches leave: last version per key. */
  private static List<String> expected(List<List<Object[]>> batches) {
    Map<String, Object[]> state = new LinkedHashMap<>();
    for (List<Object[]> batch : batches) {
      for (Object[] row : batch) {
        state.put(row[0] + "/" + row[1], row);
      }
    }
    return Rows.canonical(state.values());
  }

  /**
   * The hash index as Paimon reads it: (partition hash, key hash) to the buckets whose index file
   * holds it, asserting each (partition, bucket) has exactly one file.
   */
  private static Map<String, Set<Integer>> indexOf(FileStoreTable table) throws Exception {
    IndexFileHandler handler = table.store().newIndexFileHandler();
    Map<String, Set<Integer>> index = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (IndexManifestEntry e : handler.scanEntries()) {
      assertEquals("HASH", e.indexFile().indexType());
      assertTrue(
          seen.add(e.partition().hashCode() + "/" + e.bucket()),
          "one index file per (partition, bucket)");
      for (int hash : handler.hashIndex(e.partition(), e.bucket()).readList(e.indexFile())) {
        index
            .computeIfAbsent(e.partition().hashCode() + "/" + hash, k -> new HashSet<>())
            .add(e.bucket());
      }
    }
    return index;
  }

  private static void assertEveryKeyInOneBucket(Map<String, List<Integer>> buckets) {
    for (Map.Entry<String, List<Integer>> e : buckets.entrySet()) {
      assertEquals(1, e.getValue().size(), "key " + e.getKey() + " is in buckets " + e.getValue());
    }
  }

  private static void assertIndexHasEveryKeyOnce(
      FileStoreTable table, Map<String, List<Integer>> buckets) throws Exception {
    Map<String, Set<Integer>> index = indexOf(table);
    for (Set<Integer> inBuckets : index.values()) {
      assertEquals(1, inBuckets.size(), "a key hash is indexed in buckets " + inBuckets);
    }
    assertTrue(index.size() >= buckets.size(), "every key is indexed");
  }

  @Test
  void keysGetTheBucketsPaimonsAssignerGivesThemAndPaimonReadsOurTableExactly() throws Exception {
    for (String initialBuckets : List.of("1", "3")) {
      TableSchema schema =
          schema(
              Map.of(
                  "dynamic-bucket.target-row-num",
                  "7",
                  "dynamic-bucket.initial-buckets",
                  initialBuckets));
      List<List<Object[]>> batches = batches(17, 4, 40, 60);
      Path ours = warehouse.resolve(initialBuckets).resolve("db.db/ours");
      Path theirs = warehouse.resolve(initialBuckets).resolve("db.db/theirs");
      try (ObjectStore store = new LocalObjectStore(warehouse.resolve(initialBuckets))) {
        writeOurs(Table.create(store, OURS, schema), batches);
      }
      PaimonDynamicWrites.write(PaimonTables.create(theirs, schema), schema, batches);
      try (Stream<Path> files = Files.list(theirs.resolve("snapshot"))) {
        for (Path file :
            files.filter(f -> f.getFileName().toString().startsWith("snapshot-")).toList()) {
          byte[] paimonJson = Files.readAllBytes(file);
          Snapshot snapshot = Snapshot.fromJson(paimonJson, file.toString());
          assertTrue(snapshot.indexManifest().startsWith("index-manifest-"), file.toString());
          assertArrayEquals(paimonJson, snapshot.toJson(), "Paimon's snapshot, byte for byte");
        }
      }

      FileStoreTable paimonOnOurs = PaimonTables.open(ours);
      Map<String, List<Integer>> ourBuckets =
          PaimonDynamicWrites.bucketsOfKeys(paimonOnOurs, schema);
      Map<String, List<Integer>> theirBuckets =
          PaimonDynamicWrites.bucketsOfKeys(PaimonTables.open(theirs), schema);
      assertEquals(expected(batches), rows(paimonOnOurs, schema));
      assertEquals(theirBuckets, ourBuckets, "initial-buckets " + initialBuckets);
      assertEveryKeyInOneBucket(ourBuckets);
      assertEquals(indexOf(PaimonTables.open(theirs)), indexOf(paimonOnOurs));
      Set<Integer> used = new HashSet<>();
      ourBuckets.values().forEach(used::addAll);
      assertTrue(used.size() >= 5, "a small target row number opens several buckets: " + used);
    }
  }

  @Test
  void paimonContinuesOurTableAndWeContinuePaimonsWithNoKeyLostOrInTwoBuckets() throws Exception {
    TableSchema schema = schema(Map.of("dynamic-bucket.target-row-num", "5"));
    List<List<Object[]>> batches = batches(23, 6, 30, 50);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table ours = Table.create(store, OURS, schema);
      writeOurs(ours, batches.subList(0, 2));
      FileStoreTable paimonOnOurs = PaimonTables.open(warehouse.resolve("db.db/ours"));
      PaimonDynamicWrites.write(paimonOnOurs, schema, batches.subList(2, 4));
      writeOurs(Table.open(store, OURS), batches.subList(4, 6));
      paimonOnOurs = PaimonTables.open(warehouse.resolve("db.db/ours"));
      assertEquals(expected(batches), rows(paimonOnOurs, schema));
      Map<String, List<Integer>> buckets = PaimonDynamicWrites.bucketsOfKeys(paimonOnOurs, schema);
      assertEveryKeyInOneBucket(buckets);
      assertIndexHasEveryKeyOnce(paimonOnOurs, buckets);

      FileStoreTable theirs = PaimonTables.create(warehouse.resolve("db.db/theirs"), schema);
      PaimonDynamicWrites.write(theirs, schema, batches.subList(0, 3));
      writeOurs(Table.open(store, THEIRS), batches.subList(3, 6));
      theirs = PaimonTables.open(warehouse.resolve("db.db/theirs"));
      assertEquals(expected(batches), rows(theirs, schema));
      Map<String, List<Integer>> theirBuckets = PaimonDynamicWrites.bucketsOfKeys(theirs, schema);
      assertEveryKeyInOneBucket(theirBuckets);
      assertIndexHasEveryKeyOnce(theirs, theirBuckets);
      assertEquals(buckets, theirBuckets, "the same keys in the same order get the same buckets");
    }
  }

  @Test
  void maxBucketsCapsTheBucketsOfAPartition() throws Exception {
    TableSchema schema =
        schema(Map.of("dynamic-bucket.target-row-num", "3", "dynamic-bucket.max-buckets", "4"));
    List<List<Object[]>> batches = batches(5, 3, 40, 80);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      writeOurs(Table.create(store, OURS, schema), batches);
    }
    FileStoreTable paimon = PaimonTables.open(warehouse.resolve("db.db/ours"));
    Map<String, List<Integer>> buckets = PaimonDynamicWrites.bucketsOfKeys(paimon, schema);
    assertEquals(expected(batches), rows(paimon, schema));
    assertEveryKeyInOneBucket(buckets);
    buckets.values().forEach(b -> assertTrue(b.get(0) < 4, "bucket " + b));
  }

  @Test
  void expiryAndOrphanCleaningKeepEveryIndexFileALiveSnapshotNames() throws Exception {
    TableSchema schema =
        schema(
            Map.of(
                "dynamic-bucket.target-row-num", "4",
                "snapshot.num-retained.min", "1",
                "snapshot.num-retained.max", "2"));
    List<List<Object[]>> batches = batches(31, 8, 20, 40);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, OURS, schema);
      writeOurs(table, batches);
      Path index = warehouse.resolve("db.db/ours/index");
      Set<String> named = new HashSet<>();
      for (long id = table.snapshots().earliestId().orElseThrow();
          id <= table.snapshots().latestId().orElseThrow();
          id++) {
        for (io.changelake.format.IndexManifestEntry e :
            table.newScan().indexFiles(table.snapshots().read(id))) {
          named.add(e.file().fileName());
        }
      }
      assertEquals(named, fileNames(index), "expiry removed exactly the unnamed index files");

      Files.write(index.resolve("index-orphan-0"), new byte[4]);
      List<String> removed = new OrphanFilesClean(table).clean(Duration.ZERO);
      assertTrue(removed.stream().anyMatch(p -> p.endsWith("index-orphan-0")), removed.toString());
      assertEquals(named, fileNames(index), "orphan cleaning keeps every named index file");
      assertFalse(removed.stream().anyMatch(p -> p.contains("index-manifest")), removed.toString());

      writeOurs(Table.open(store, OURS), batches(37, 2, 20, 40));
      FileStoreTable paimon = PaimonTables.open(warehouse.resolve("db.db/ours"));
      Map<String, List<Integer>> buckets = PaimonDynamicWrites.bucketsOfKeys(paimon, schema);
      assertEveryKeyInOneBucket(buckets);
      assertIndexHasEveryKeyOnce(paimon, buckets);
    }
  }

  /**
   * Paimon's rule for two writers assigning buckets at once: no conflict is detected, both commits
   * land, and the index manifest keeps one file per (partition, bucket), the later commit's. So the
   * keys only the earlier writer added are in the data but no longer in the index: the reason
   * Paimon, and changelake, support one writing job per dynamic-bucket table.
   */
  @Test
  void twoWritersAtOnceAreMergedAsInPaimonTheLaterBucketIndexWins() throws Exception {
    TableSchema schema = schema(Map.of());
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, OURS, schema);
      List<Object[]> first = new ArrayList<>();
      List<Object[]> byA = new ArrayList<>();
      List<Object[]> byB = new ArrayList<>();
      for (long id = 0; id < 5; id++) {
        first.add(new Object[] {20260101, id, "first"});
        byA.add(new Object[] {20260101, 100 + id, "a"});
        byB.add(new Object[] {20260101, 200 + id, "b"});
      }
      writeOurs(table, List.of(first));
      try (TableWriter a = table.newWriter();
          TableWriter b = table.newWriter()) {
        for (int i = 0; i < 5; i++) {
          a.write(RowKind.INSERT, byA.get(i));
          b.write(RowKind.INSERT, byB.get(i));
        }
        List<CommitMessage> fromA = a.prepareCommit(1);
        List<CommitMessage> fromB = b.prepareCommit(1);
        assertEquals(1, table.newCommit("a").commit(1, fromA).size());
        assertEquals(1, table.newCommit("b").commit(1, fromB).size());
      }
      FileStoreTable paimon = PaimonTables.open(warehouse.resolve("db.db/ours"));
      assertEquals(expected(List.of(first, byA, byB)), rows(paimon, schema), "no row is lost");
      Map<String, Set<Integer>> index = indexOf(paimon);
      assertEquals(10, index.size(), "bucket 0's index is writer b's: the first keys and b's");
      List<io.changelake.format.IndexManifestEntry> files =
          table.newScan().indexFiles(table.snapshots().latest().orElseThrow());
      assertEquals(1, files.size());
      assertEquals(10, files.get(0).file().rowCount());
    }
  }

  /**
   * A writer restarted on the messages its predecessor prepared but did not commit continues that
   * predecessor's hash index: committed in order, every key is in one bucket and in its index.
   */
  @Test
  void aRestartedWriterContinuesTheIndexOfUncommittedMessages() throws Exception {
    TableSchema schema = schema(Map.of("dynamic-bucket.target-row-num", "3"));
    List<List<Object[]>> batches = batches(41, 2, 25, 30);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, OURS, schema);
      List<CommitMessage> first;
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : batches.get(0)) {
          writer.write(RowKind.INSERT, row);
        }
        first = writer.prepareCommit(1);
      }
      List<CommitMessage> second;
      try (TableWriter restarted = table.newWriter(first)) {
        for (Object[] row : batches.get(1)) {
          restarted.write(RowKind.INSERT, row);
        }
        second = restarted.prepareCommit(2);
      }
      SnapshotCommit commit = table.newCommit("ours");
      commit.commit(1, first);
      commit.commit(2, second);
      FileStoreTable paimon = PaimonTables.open(warehouse.resolve("db.db/ours"));
      assertEquals(expected(batches), rows(paimon, schema));
      Map<String, List<Integer>> buckets = PaimonDynamicWrites.bucketsOfKeys(paimon, schema);
      assertEveryKeyInOneBucket(buckets);
      assertIndexHasEveryKeyOnce(paimon, buckets);
      assertEquals(
          buckets.size(),
          indexOf(paimon).size(),
          "the index holds exactly the table's keys (no hash collision among these few)");
    }
  }

  private static Set<String> fileNames(Path folder) throws Exception {
    try (Stream<Path> files = Files.list(folder)) {
      Set<String> names = new HashSet<>();
      files.forEach(p -> names.add(p.getFileName().toString()));
      return names;
    }
  }
}
