package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.PaimonDynamicWrites;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.Row;
import org.apache.paimon.table.FileStoreTable;
import org.joda.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Beam write into dynamic-bucket tables ({@code bucket} = -1): into one Paimon 1.3.1 created
 * and filled, which Paimon then reads exactly, every key in one bucket and its index; and pipeline
 * after pipeline on the same table (a restart), old keys keep their buckets.
 */
class DynamicBucketWriteTest {

  @TempDir Path warehouse;

  private static final TablePath PATH = new TablePath("db", "events");

  private static final Schema INPUT =
      Schema.builder()
          .addInt32Field("day")
          .addInt64Field("id")
          .addNullableField("v", Schema.FieldType.STRING)
          .build();

  private static final Map<String, String> OPTIONS =
      Map.of(
          "bucket", "-1",
          "dynamic-bucket.target-row-num", "15",
          "dynamic-bucket.initial-buckets", "3");

  /** day INT (partition), id BIGINT, v STRING; primary key (day, id). */
  private static TableSchema schema() {
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string())));
    return TableSchema.create(rowType, List.of("day"), List.of("day", "id"), OPTIONS, null);
  }

  /** One upsert of each of {@code keys} random (day, id) keys of {@code ids}, value tagged. */
  private static List<Object[]> upserts(long seed, int keys, int ids, String tag) {
    Random random = new Random(seed);
    Map<String, Object[]> rows = new LinkedHashMap<>();
    while (rows.size() < keys) {
      Object[] row = {20260101 + random.nextInt(2), (long) random.nextInt(ids), null};
      row[2] = tag + row[1];
      rows.putIfAbsent(row[0] + "/" + row[1], row);
    }
    return new ArrayList<>(rows.values());
  }

  private void writeWithBeam(List<Object[]> upserts) {
    List<Row> rows = new ArrayList<>();
    for (Object[] u : upserts) {
      rows.add(Row.withSchema(INPUT).addValues(u).build());
    }
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(Create.of(rows).withRowSchema(INPUT))
        .apply(ChangelakeIO.write().to(warehouse.toString(), PATH.database(), PATH.table()));
    assertEquals(PipelineResult.State.DONE, pipeline.run().waitUntilFinish());
  }

  private static List<String> expected(List<List<Object[]>> writes) {
    Map<String, Object[]> state = new LinkedHashMap<>();
    for (List<Object[]> write : writes) {
      for (Object[] row : write) {
        state.put(row[0] + "/" + row[1], row);
      }
    }
    return Rows.canonical(state.values());
  }

  private static void assertEveryKeyInOneBucket(Map<String, List<Integer>> buckets) {
    for (Map.Entry<String, List<Integer>> e : buckets.entrySet()) {
      assertEquals(1, e.getValue().size(), "key " + e.getKey() + " is in buckets " + e.getValue());
    }
  }

  @Test
  void beamWritesIntoATablePaimonCreatedAndFilledAndPaimonReadsItExactly() throws Exception {
    TableSchema schema = schema();
    Path folder = warehouse.resolve(PATH.root());
    FileStoreTable paimon = PaimonTables.create(folder, schema);
    List<List<Object[]>> theirs = List.of(upserts(1, 80, 100, "p1-"), upserts(2, 80, 100, "p2-"));
    PaimonDynamicWrites.write(paimon, schema, theirs);
    Map<String, List<Integer>> before =
        PaimonDynamicWrites.bucketsOfKeys(PaimonTables.open(folder), schema);

    List<Object[]> ours = upserts(3, 150, 200, "beam-");
    writeWithBeam(ours);

    FileStoreTable read = PaimonTables.open(folder);
    List<List<Object[]>> all = new ArrayList<>(theirs);
    all.add(ours);
    assertEquals(expected(all), Rows.canonical(PaimonTables.readAll(read, schema)));
    Map<String, List<Integer>> after = PaimonDynamicWrites.bucketsOfKeys(read, schema);
    assertEveryKeyInOneBucket(after);
    for (Map.Entry<String, List<Integer>> e : before.entrySet()) {
      assertEquals(e.getValue(), after.get(e.getKey()), "key " + e.getKey() + " kept its bucket");
    }
    assertEquals(expected(all).size(), after.size(), "no key lost");
    assertTrue(
        after.values().stream().mapToInt(b -> b.get(0)).max().orElseThrow() >= 3,
        "new keys opened buckets past the initial ones");

    // Paimon goes on writing the table Beam wrote: its assigners load the index Beam left.
    List<Object[]> more = upserts(4, 120, 300, "p3-");
    PaimonDynamicWrites.write(PaimonTables.open(folder), schema, List.of(more));
    all.add(more);
    FileStoreTable last = PaimonTables.open(folder);
    assertEquals(expected(all), Rows.canonical(PaimonTables.readAll(last, schema)));
    assertEveryKeyInOneBucket(PaimonDynamicWrites.bucketsOfKeys(last, schema));
  }

  /**
   * Streaming over four commits, with the assigners checking every 5 new keys for assignments a
   * commit holds: they forget those (their state shrinks) and old keys still keep their buckets.
   */
  @Test
  void aStreamingWriteForgetsCommittedAssignmentsAndKeepsEveryKeyInOneBucket() throws Exception {
    Duration interval = Duration.standardSeconds(10);
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(INPUT));
    List<List<Object[]>> writes = new ArrayList<>();
    for (int commit = 0; commit < 4; commit++) {
      List<Object[]> rows = new ArrayList<>();
      for (long id = commit * 30L; id < commit * 30L + 30; id++) {
        rows.add(new Object[] {20260101 + (int) (id % 2), id, "c" + commit});
        if (commit > 0 && id % 3 == 0) {
          rows.add(new Object[] {20260101 + (int) (id % 2), id - 30, "again" + commit});
        }
      }
      writes.add(rows);
      for (Object[] r : rows) {
        stream = stream.addElements(Row.withSchema(INPUT).addValues(r).build());
      }
      stream = stream.advanceProcessingTime(interval.plus(Duration.millis(1)));
    }
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(stream.advanceWatermarkToInfinity())
        .apply(
            ChangelakeIO.write()
                .to(warehouse.toString(), PATH.database(), PATH.table())
                .withPrimaryKeys(List.of("day", "id"))
                .withPartitionKeys(List.of("day"))
                .withBuckets(-1)
                .withTableOptions(
                    Map.of(
                        "dynamic-bucket.target-row-num", "10",
                        "dynamic-bucket.initial-buckets", "2"))
                .withArrivalOrder()
                .withCommitInterval(interval)
                .withForgetCheckEvery(5));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());

    assertEquals(120, BatchWriteTest.counter(result, "bucketsAssigned"), "one per new key");
    long forgotten = BatchWriteTest.counter(result, "assignmentsForgotten");
    assertTrue(forgotten > 0 && forgotten <= 120, "forgotten " + forgotten);
    TableSchema schema = schema();
    FileStoreTable read = PaimonTables.open(warehouse.resolve(PATH.root()));
    assertEquals(expected(writes), Rows.canonical(PaimonTables.readAll(read, schema)));
    Map<String, List<Integer>> buckets = PaimonDynamicWrites.bucketsOfKeys(read, schema);
    assertEveryKeyInOneBucket(buckets);
    assertEquals(120, buckets.size());
  }

  /**
   * A pipeline built before its table existed plans a fixed-bucket write; if a dynamic-bucket table
   * appears meanwhile, the workers refuse it, naming the fix, rather than write it without an
   * index.
   */
  @Test
  void aPipelineBuiltForFixedBucketsRefusesADynamicBucketTableCreatedMeanwhile() throws Exception {
    List<Row> rows = List.of(Row.withSchema(INPUT).addValues(20260101, 1L, "a").build());
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(Create.of(rows).withRowSchema(INPUT))
        .apply(
            ChangelakeIO.write()
                .to(warehouse.toString(), PATH.database(), PATH.table())
                .withPrimaryKeys(List.of("day", "id"))
                .withPartitionKeys(List.of("day"))
                .withBuckets(2));
    try (ObjectStore store = ObjectStores.open(warehouse.toString())) {
      Table.create(store, PATH, schema());
    }
    Exception e = assertThrows(Exception.class, () -> pipeline.run().waitUntilFinish());
    String message = String.valueOf(e.getMessage()) + e.getCause();
    assertTrue(
        message.contains("built for a fixed bucket count")
            && message.contains("build the pipeline again"),
        message);
  }

  @Test
  void aRestartedPipelineKeepsOldKeysInTheirBuckets() throws Exception {
    List<String> columns = List.of("day", "id");
    List<Row> first = new ArrayList<>();
    for (Object[] u : upserts(5, 120, 150, "first-")) {
      first.add(Row.withSchema(INPUT).addValues(u).build());
    }
    Pipeline create = Pipeline.create();
    create
        .apply(Create.of(first).withRowSchema(INPUT))
        .apply(
            ChangelakeIO.write()
                .to(warehouse.toString(), PATH.database(), PATH.table())
                .withPrimaryKeys(columns)
                .withPartitionKeys(List.of("day"))
                .withBuckets(-1)
                .withTableOptions(
                    Map.of(
                        "dynamic-bucket.target-row-num", "15",
                        "dynamic-bucket.initial-buckets", "3")));
    assertEquals(PipelineResult.State.DONE, create.run().waitUntilFinish());
    TableSchema schema = schema();
    Path folder = warehouse.resolve(PATH.root());
    Map<String, List<Integer>> before =
        PaimonDynamicWrites.bucketsOfKeys(PaimonTables.open(folder), schema);
    assertEveryKeyInOneBucket(before);

    List<Object[]> second = upserts(6, 150, 250, "second-");
    writeWithBeam(second);
    List<Object[]> firstValues = first.stream().map(r -> r.getValues().toArray()).toList();
    FileStoreTable read = PaimonTables.open(folder);
    assertEquals(
        expected(List.of(firstValues, second)), Rows.canonical(PaimonTables.readAll(read, schema)));
    Map<String, List<Integer>> after = PaimonDynamicWrites.bucketsOfKeys(read, schema);
    assertEveryKeyInOneBucket(after);
    for (Map.Entry<String, List<Integer>> e : before.entrySet()) {
      assertEquals(e.getValue(), after.get(e.getKey()), "key " + e.getKey() + " kept its bucket");
    }
  }
}
