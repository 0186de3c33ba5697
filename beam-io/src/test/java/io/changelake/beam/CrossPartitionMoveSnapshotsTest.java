package io.changelake.beam;

import static io.changelake.table.CrossPartitionStories.options;
import static io.changelake.table.CrossPartitionStories.row;
import static io.changelake.table.CrossPartitionStories.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.ChangelogScan;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonTables;
import io.changelake.table.Rows;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.values.Row;
import org.apache.paimon.table.FileStoreTable;
import org.joda.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A streaming write into a cross-partition upsert table (primary key id, partition day, bucket =
 * -1) whose keys keep moving between days: over several commits, with batches of a few rows that
 * cut each bucket's rows at other places, the -D of every move and its row land in one snapshot.
 * Checked in EVERY snapshot, by our read and by Paimon 1.3.1's: each key in exactly one day from
 * its first snapshot on (keys are never deleted, so a key missing is a move's row committed after
 * its -D, and a key in two days the other way round), and (lookup producer) the changelog replayed
 * through each commit is that commit's table. A shuffled variant interleaves the keys' histories at
 * random (each key's own rows in order, as {@code withArrivalOrder()} states), cuts random bundles,
 * intervals and batch sizes, and leaves the same table.
 */
class CrossPartitionMoveSnapshotsTest {

  private static final TablePath TABLE = new TablePath("db", "moves");
  private static final Duration INTERVAL = Duration.standardSeconds(10);
  private static final int KEYS = 12;
  private static final int DAYS = 4;

  private static final Schema INPUT = CrossPartitionWriteTest.INPUT;

  @TempDir Path warehouse;

  /** A change of the input: a key's new row, in a day chosen at random (mostly another one). */
  private record Change(int day, long id, String v, long n) {
    Row input() {
      return Row.withSchema(INPUT).addValues(day, id, v, n, "+I").build();
    }

    String tableRow() {
      return Arrays.toString(row(day, id, v, n));
    }
  }

  /** Each key's history: {@code perKey} rows, each in a random day, numbered in order. */
  private static List<List<Change>> histories(long seed, int perKey) {
    Random random = new Random(seed);
    List<List<Change>> histories = new ArrayList<>();
    for (long id = 0; id < KEYS; id++) {
      List<Change> history = new ArrayList<>();
      for (int i = 0; i < perKey; i++) {
        history.add(new Change(1 + random.nextInt(DAYS), id, "k" + id + "v" + i, i));
      }
      histories.add(history);
    }
    return histories;
  }

  /** The histories interleaved: round robin (no random), or at random keeping each key's order. */
  private static List<Change> interleaved(List<List<Change>> histories, Random random) {
    List<Change> out = new ArrayList<>();
    if (random == null) {
      for (int i = 0; out.size() < histories.size() * histories.get(0).size(); i++) {
        for (List<Change> h : histories) {
          out.add(h.get(i));
        }
      }
      return out;
    }
    List<Integer> next = new ArrayList<>(Collections.nCopies(histories.size(), 0));
    List<Integer> open = new ArrayList<>();
    for (int k = 0; k < histories.size(); k++) {
      open.add(k);
    }
    while (!open.isEmpty()) {
      int pick = random.nextInt(open.size());
      int key = open.get(pick);
      out.add(histories.get(key).get(next.get(key)));
      next.set(key, next.get(key) + 1);
      if (next.get(key) == histories.get(key).size()) {
        open.remove(pick);
      }
    }
    return out;
  }

  /** The table the changes leave: each key's last row. */
  private static List<String> expectedTable(List<List<Change>> histories) {
    List<String> rows = new ArrayList<>();
    for (List<Change> h : histories) {
      rows.add(h.get(h.size() - 1).tableRow());
    }
    return rows.stream().sorted().toList();
  }

  /**
   * Writes the changes with Beam, {@code commits} intervals of a TestStream, each cut into bundles
   * of {@code bundle} rows, with batches of at most {@code batchRows} rows per bucket.
   */
  private PipelineResult write(
      List<Change> changes, int commits, int bundle, int batchRows, String producer) {
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(INPUT));
    int perCommit = (changes.size() + commits - 1) / commits;
    for (int c = 0; c < commits; c++) {
      List<Change> interval =
          changes.subList(
              Math.min(changes.size(), c * perCommit),
              Math.min(changes.size(), (c + 1) * perCommit));
      for (int b = 0; b < interval.size(); b += bundle) {
        List<Row> rows =
            interval.subList(b, Math.min(interval.size(), b + bundle)).stream()
                .map(Change::input)
                .toList();
        stream = stream.addElements(rows.get(0), rows.subList(1, rows.size()).toArray(Row[]::new));
      }
      stream =
          stream
              .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)))
              .advanceProcessingTime(INTERVAL.plus(Duration.millis(1)));
    }
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(stream.advanceWatermarkToInfinity())
        .apply(
            ChangelakeIO.write()
                .to(warehouse.toString(), TABLE.database(), TABLE.table())
                .withRowKindField("kind")
                .withArrivalOrder()
                .withCommitInterval(INTERVAL)
                .withMaxBatchRows(batchRows));
    PipelineResult result = pipeline.run();
    assertEquals(PipelineResult.State.DONE, result.waitUntilFinish());
    return result;
  }

  private static TableSchema tableSchema(String producer) {
    Map<String, String> options = new TreeMap<>(options("deduplicate", producer));
    options.put("dynamic-bucket.initial-buckets", "2");
    options.put("snapshot.num-retained.min", "100000");
    return schema(options);
  }

  private void createTable(String producer) throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table.create(store, TABLE, tableSchema(producer));
    }
  }

  @ParameterizedTest(name = "{0} producer, batches of at most {1} rows, bundles of {2}")
  @CsvSource({"lookup, 1, 5", "lookup, 3, 11", "input, 2, 3"})
  void everySnapshotHoldsEachKeyInExactlyOnePartition(String producer, int batchRows, int bundle)
      throws Exception {
    createTable(producer);
    List<List<Change>> histories = histories(5, 12);
    PipelineResult result = write(interleaved(histories, null), 6, bundle, batchRows, producer);
    assertTrue(BatchWriteTest.counter(result, "commits") > 3, "several commits");
    assertEquals(expectedTable(histories), checkEverySnapshot(producer));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void shuffledKeysBundlesAndBatchesStillMoveEachKeyInOneSnapshot(long seed) throws Exception {
    createTable("lookup");
    Random random = new Random(seed);
    List<List<Change>> histories = histories(100 + seed, 8 + random.nextInt(6));
    write(
        interleaved(histories, random),
        3 + random.nextInt(4),
        1 + random.nextInt(12),
        1 + random.nextInt(4),
        "lookup");
    assertEquals(expectedTable(histories), checkEverySnapshot("lookup"));
  }

  /**
   * Adds one change to a replay: a multiset of rows, +I and +U counting one up, -U and -D one down.
   * The buckets of a snapshot come in any order (a key may leave a day's bucket and come back in
   * another of its buckets within one commit), so only the sum over a whole commit is the table.
   */
  private static void replayChange(Map<String, Integer> replay, RowKind kind, List<Object> row) {
    boolean add = kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER;
    replay.merge(row.toString(), add ? 1 : -1, Integer::sum);
    replay.values().remove(0);
  }

  /** The rows a replay holds, once each, or a failure naming a row held twice or taken twice. */
  private static List<String> replayed(Map<String, Integer> replay, String what) {
    for (Map.Entry<String, Integer> row : replay.entrySet()) {
      assertEquals(1, row.getValue(), what + ": changelog replay counts " + row.getKey());
    }
    return replay.keySet().stream().sorted().toList();
  }

  /** Checks every snapshot of the table as the class says; returns the table of the last one. */
  private List<String> checkEverySnapshot(String producer) throws Exception {
    TableSchema schema = tableSchema(producer);
    // The input producer's changelog is the rows written (+I for an update, a move's -D with the
    // new row's values): only lookup's replays to the table.
    boolean lookup = producer.equals("lookup");
    FileStoreTable paimon = PaimonTables.open(warehouse.resolve(TABLE.root()));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, TABLE);
      long latest = table.snapshots().latestId().orElseThrow();
      Map<Long, List<KeyValue>> changes = new HashMap<>();
      Map<Long, Snapshot> snapshots = new HashMap<>();
      table
          .newChangelogScan()
          .walk(
              1,
              latest,
              new ChangelogScan.ChangeVisitor() {
                long current;

                @Override
                public void snapshot(Snapshot snapshot) {
                  current = snapshot.id();
                  snapshots.put(current, snapshot);
                  changes.put(current, new ArrayList<>());
                }

                @Override
                public void change(ChangeRow row) {
                  KeyValue change = row.toKeyValue();
                  changes.get(current).add(change);
                }
              });
      Map<String, Integer> replay = new HashMap<>();
      Set<Object> seen = new HashSet<>();
      List<String> rows = List.of();
      for (long id = 1; id <= latest; id++) {
        Snapshot snapshot = snapshots.get(id);
        List<Object[]> read = table.newRead().readAll(snapshot);
        rows = Rows.canonical(read);
        String what = "snapshot " + id + " (" + snapshot.commitKind() + ")";
        Set<Object> keys = new HashSet<>();
        for (Object[] r : read) {
          assertTrue(keys.add(r[1]), what + ": key " + r[1] + " in two partitions: " + rows);
        }
        for (Object key : seen) {
          assertTrue(keys.contains(key), what + ": key " + key + " in no partition: " + rows);
        }
        seen.addAll(keys);
        for (KeyValue c : changes.get(id)) {
          replayChange(replay, c.kind(), Arrays.asList(c.value()));
        }
        boolean endsItsCommit =
            id == latest || snapshots.get(id + 1).commitIdentifier() != snapshot.commitIdentifier();
        if (lookup && endsItsCommit) {
          assertEquals(rows, replayed(replay, what), what + ": changelog replay");
        }
      }
      assertEquals(
          rows,
          Rows.canonical(PaimonStreams.readSnapshot(paimon, schema, latest)),
          "Paimon's read of the last snapshot");
      if (lookup) {
        Map<String, Integer> paimonReplay = new HashMap<>();
        for (PaimonStreams.Change c : PaimonStreams.changelog(paimon, schema, 1)) {
          replayChange(paimonReplay, c.kind(), c.row());
        }
        assertEquals(rows, replayed(paimonReplay, "Paimon"), "Paimon's changelog replay");
      }
      return rows;
    }
  }
}
