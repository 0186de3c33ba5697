package io.changelake.beam;

import static io.changelake.table.CrossPartitionStories.batches;
import static io.changelake.table.CrossPartitionStories.changelog;
import static io.changelake.table.CrossPartitionStories.options;
import static io.changelake.table.CrossPartitionStories.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.PaimonCrossPartitionWrites;
import io.changelake.table.PaimonCrossPartitionWrites.Change;
import io.changelake.table.PaimonDynamicWrites;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.paimon.table.FileStoreTable;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Beam write into cross-partition upsert tables (primary key id, partition day, bucket = -1),
 * against Paimon 1.3.1's own sink given the same batches ({@link PaimonCrossPartitionWrites}): keys
 * moving between days, -D of keys in another day, re-inserts after a -D, for every merge engine and
 * changelog producer; into a table Paimon created and filled; over several commits of one streaming
 * write; and the settings the write refuses.
 */
class CrossPartitionWriteTest {

  private static final TablePath OURS = new TablePath("db", "ours");
  private static final String THEIRS = "db.db/theirs";

  /** As in the storage-level CrossPartitionUpsertTest: the other cases take this property. */
  private static final String EVERY_CASE = "changelake.crosspartition.every-case";

  private static final Set<String> DEFAULT_CASES =
      Set.of("deduplicate/lookup", "partial-update/lookup", "first-row/lookup");

  /** A day-partitioned table's rows keyed by id alone, with their kind. */
  static final Schema INPUT =
      Schema.builder()
          .addInt32Field("day")
          .addInt64Field("id")
          .addNullableField("v", Schema.FieldType.STRING)
          .addNullableField("n", Schema.FieldType.INT64)
          .addStringField("kind")
          .build();

  private static final Duration INTERVAL = Duration.standardSeconds(10);

  @TempDir Path warehouse;

  private static Row input(Change c) {
    Object[] r = c.row();
    return Row.withSchema(INPUT).addValues(r[0], r[1], r[2], r[3], c.kind().shortString()).build();
  }

  private ChangelakeWrite write() {
    return ChangelakeIO.write()
        .to(warehouse.toString(), OURS.database(), OURS.table())
        .withRowKindField("kind")
        .withArrivalOrder()
        .withCommitInterval(INTERVAL);
  }

  /**
   * Writes batches with Beam, in order, each batch a commit: one streaming pipeline (one key index
   * for them all), each batch followed by a commit interval.
   */
  private PipelineResult writeWithBeam(List<List<Change>> batches) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(INPUT));
    for (List<Change> batch : batches) {
      for (Change c : batch) {
        stream = stream.addElements(input(c));
      }
      stream = stream.advanceProcessingTime(INTERVAL.plus(Duration.millis(1)));
    }
    Pipeline pipeline = Pipeline.create();
    pipeline.apply(stream.advanceWatermarkToInfinity()).apply(write());
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    return result;
  }

  private FileStoreTable paimon(String folder) {
    return PaimonTables.open(warehouse.resolve(folder));
  }

  private static void assertOneRowPerKey(List<Object[]> rows) {
    Set<Object> ids = new HashSet<>();
    for (Object[] row : rows) {
      assertTrue(ids.add(row[1]), "key " + row[1] + " in one partition only");
    }
  }

  /**
   * Each batch a pipeline of its own, so that each bootstraps its key index from the table the last
   * one left: the table, every snapshot's changelog and every key's bucket are Paimon's, and the
   * changelog is also that of the storage API's TableWriter given the same batches. Under
   * full-compaction Paimon's batch sink compacts on other commits than a streaming writer does, so
   * there the changelog is compared with the TableWriter's only.
   */
  @ParameterizedTest(name = "{0} / {1}")
  @CsvSource({
    "deduplicate, input",
    "deduplicate, lookup",
    "deduplicate, none",
    "deduplicate, full-compaction",
    "partial-update, input",
    "partial-update, lookup",
    "aggregation, input",
    "aggregation, lookup",
    "first-row, lookup",
    "first-row, none"
  })
  void everyEngineMovesKeysAsPaimonInTableChangelogAndBuckets(String engine, String producer)
      throws Exception {
    assumeTrue(
        DEFAULT_CASES.contains(engine + "/" + producer) || Boolean.getBoolean(EVERY_CASE),
        "Paimon's sink takes seconds a batch: this case runs with -D" + EVERY_CASE + "=true");
    TableSchema schema = schema(options(engine, producer));
    Path io = Files.createDirectories(warehouse.resolve("io"));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, OURS, schema);
    }
    PaimonTables.create(warehouse.resolve(THEIRS), schema);
    TablePath reference = new TablePath("db", "reference");
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, reference, schema);
      long identifier = 0;
      for (List<Change> batch : batches(engine, 17)) {
        writeWithBeam(List.of(batch));
        PaimonCrossPartitionWrites.write(paimon(THEIRS), schema, batch, io);
        try (TableWriter writer = table.newWriter()) {
          for (Change c : batch) {
            writer.write(c.kind(), c.row());
          }
          identifier++;
          table.newCommit("reference").commit(identifier, writer.prepareCommit(identifier));
        }
      }
    }
    assertEquals(
        changelog(paimon("db.db/reference"), schema), changelog(paimon("db.db/ours"), schema));
    assertSameAsPaimon(schema, !producer.equals("full-compaction"));
  }

  private void assertSameAsPaimon(TableSchema schema, boolean sameChangelog) throws Exception {
    FileStoreTable theirs = paimon(THEIRS);
    FileStoreTable ours = paimon("db.db/ours");
    List<String> expected = Rows.canonical(PaimonTables.readAll(theirs, schema));
    assertEquals(expected, Rows.canonical(PaimonTables.readAll(ours, schema)));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      List<Object[]> read = Table.open(store, OURS).newRead().readAll();
      assertEquals(expected, Rows.canonical(read));
      assertOneRowPerKey(read);
    }
    if (sameChangelog) {
      assertEquals(changelog(theirs, schema), changelog(ours, schema));
    }
    assertEquals(
        PaimonDynamicWrites.bucketsOfKeys(theirs, schema),
        PaimonDynamicWrites.bucketsOfKeys(ours, schema),
        "every key in the bucket Paimon gives it");
  }

  /**
   * Paimon creates and fills the table (keys in all three days), Beam moves keys in it, Paimon goes
   * on: the same table, changelog and buckets as a table Paimon alone wrote.
   */
  @Test
  void beamMovesKeysOfATablePaimonCreatedAndFilledAndPaimonReadsItExactly() throws Exception {
    TableSchema schema = schema(options("deduplicate", "lookup"));
    Path io = Files.createDirectories(warehouse.resolve("io"));
    PaimonTables.create(warehouse.resolve(THEIRS), schema);
    PaimonTables.create(warehouse.resolve("db.db/ours"), schema);
    List<List<Change>> batches = batches("deduplicate", 29);
    for (int b = 0; b < batches.size(); b++) {
      PaimonCrossPartitionWrites.write(paimon(THEIRS), schema, batches.get(b), io);
      if (b % 2 == 1) {
        writeWithBeam(List.of(batches.get(b)));
      } else {
        PaimonCrossPartitionWrites.write(paimon("db.db/ours"), schema, batches.get(b), io);
      }
    }
    assertSameAsPaimon(schema, true);
  }

  /**
   * One streaming write over every batch, a commit each: the assigner keeps its index and state
   * across commits. The table is the storage TableWriter's (checked against Paimon) for the same
   * changes, one row a key, and replaying the changelog Paimon reads gives the table.
   */
  @Test
  void aStreamingWriteMovesKeysOverManyCommitsAndItsChangelogReplaysToTheTable() throws Exception {
    TableSchema schema = schema(options("deduplicate", "lookup"));
    List<List<Change>> batches = batches("deduplicate", 41);
    TablePath reference = new TablePath("db", "reference");
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, OURS, schema);
      Table table = Table.create(store, reference, schema);
      try (TableWriter writer = table.newWriter()) {
        for (List<Change> batch : batches) {
          for (Change c : batch) {
            writer.write(c.kind(), c.row());
          }
        }
        table.newCommit("reference").commit(1, writer.prepareCommit(1));
      }
    }
    PipelineResult result = writeWithBeam(batches);
    assertTrue(BatchWriteTest.counter(result, "commits") > 1, "several commits");
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      List<Object[]> ours = Table.open(store, OURS).newRead().readAll();
      assertEquals(
          Rows.canonical(Table.open(store, reference).newRead().readAll()), Rows.canonical(ours));
      assertOneRowPerKey(ours);
      // By (day, id): the buckets of one snapshot, a move's -D and its row among them, come in
      // any order, a bucket's changes in theirs.
      Map<List<Object>, List<Object>> replayed = new HashMap<>();
      for (PaimonStreams.Change c : PaimonStreams.changelog(paimon("db.db/ours"), schema, 1)) {
        List<Object> key = c.row().subList(0, 2);
        if (c.kind() == RowKind.INSERT || c.kind() == RowKind.UPDATE_AFTER) {
          assertEquals(null, replayed.put(key, c.row()), "added twice: " + c);
        } else {
          assertEquals(c.row(), replayed.remove(key), "retracts what is there: " + c);
        }
      }
      List<Object[]> replay = new ArrayList<>();
      replayed.values().forEach(r -> replay.add(r.toArray()));
      assertEquals(Rows.canonical(ours), Rows.canonical(replay));
    }
  }

  /** A row of an unknown kind is a dead letter; the others are written, moving their keys. */
  @Test
  void aBadRowIsADeadLetterAndTheOthersMove() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, OURS, schema(options("deduplicate", "input")));
    }
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(
            Create.of(
                    input(new Change(RowKind.INSERT, new Object[] {1, 1L, "a", 1L})),
                    Row.withSchema(INPUT).addValues(2, 2L, "b", 1L, "?!").build())
                .withRowSchema(INPUT))
        .apply(write());
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    assertEquals(1, BatchWriteTest.counter(result, "deadLetters"));
    writeWithBeam(List.of(List.of(new Change(RowKind.INSERT, new Object[] {3, 1L, "c", 2L}))));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      assertEquals(
          List.of("[3, 1, c, 2]"), Rows.canonical(Table.open(store, OURS).newRead().readAll()));
    }
  }

  private PCollection<Row> oneRow(Pipeline pipeline, boolean unbounded) {
    Row row = input(new Change(RowKind.INSERT, new Object[] {1, 1L, "a", 1L}));
    return unbounded
        ? pipeline.apply(
            TestStream.create(RowCoder.of(INPUT)).addElements(row).advanceWatermarkToInfinity())
        : pipeline.apply(Create.of(row).withRowSchema(INPUT));
  }

  private static void assertMentions(Throwable e, String... words) {
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' in: " + e.getMessage());
    }
  }

  @Test
  void aSequenceFieldAMissingArrivalOrderAFixedBucketCountAndAnIndexTtlAreRefused()
      throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, OURS, schema(options("deduplicate", "input")));
    }
    Pipeline pipeline = Pipeline.create();
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> oneRow(pipeline, false).apply(write().withSequenceField("n"))),
        "withSequenceField(n)",
        "sequence.field",
        "withArrivalOrder()");
    ChangelakeWrite unordered =
        ChangelakeIO.write()
            .to(warehouse.toString(), OURS.database(), OURS.table())
            .withRowKindField("kind");
    assertMentions(
        assertThrows(IllegalArgumentException.class, () -> oneRow(pipeline, true).apply(unordered)),
        "cross-partition",
        "withArrivalOrder()");
    ChangelakeWrite creating =
        ChangelakeIO.write()
            .to(warehouse.toString(), "db", "created")
            .withRowKindField("kind")
            .withPrimaryKeys(List.of("id"))
            .withPartitionKeys(List.of("day"));
    assertMentions(
        assertThrows(
            UnsupportedTableException.class,
            () -> oneRow(pipeline, false).apply(creating.withBuckets(2))),
        "'bucket' = -1");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () ->
                oneRow(pipeline, false)
                    .apply(
                        creating
                            .withBuckets(-1)
                            .withTableOptions(Map.of("cross-partition-upsert.index-ttl", "1 d")))),
        "cross-partition-upsert.index-ttl");
  }
}
