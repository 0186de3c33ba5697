package io.changelake.table;

import io.changelake.bench.Median;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.RecordingObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints what a read of two columns of a wide table costs next to a read of every column ({@link
 * ChangelogScan#withColumns}), of its changelog and of its latest full state: seconds and bytes
 * fetched from the store, the two reads alternated in one JVM. No timing is asserted. {@code
 * -Dchangelake.benchmark.rows=N} sets the size (500,000 rows of 20 columns by default: a key, nine
 * BIGINT and ten STRING columns).
 *
 * <pre>
 * mvn -B -pl storage-s3 test -Dtest=ProjectedChangelogReadBenchmark
 * </pre>
 */
class ProjectedChangelogReadBenchmark {

  private static final TablePath PATH = new TablePath("db", "wide");
  private static final int READS = 8;

  @TempDir Path warehouse;

  @Test
  void printsTheCostOfAReadOfTwoColumnsNextToAReadOfEvery() throws Exception {
    int rows = Integer.getInteger("changelake.benchmark.rows", 500_000);
    try (LocalObjectStore local = new LocalObjectStore(warehouse)) {
      RecordingObjectStore store = new RecordingObjectStore(local);
      Table table = Table.create(store, PATH, schema());
      write(table, rows);
      int[] two = {table.schema().rowType().indexOf("n3"), table.schema().rowType().indexOf("s7")};
      for (boolean state : new boolean[] {false, true}) {
        double[] everySeconds = new double[READS];
        double[] twoSeconds = new double[READS];
        long everyBytes = 0;
        long twoBytes = 0;
        for (int i = 0; i < READS; i++) {
          long before = store.bytesRead();
          everySeconds[i] = timedRead(table.newChangelogScan(), table, rows, state);
          everyBytes = store.bytesRead() - before;
          before = store.bytesRead();
          twoSeconds[i] = timedRead(table.newChangelogScan().withColumns(two), table, rows, state);
          twoBytes = store.bytesRead() - before;
        }
        // The first half warms the JIT; the medians are of the second.
        double every = Median.of(Arrays.copyOfRange(everySeconds, READS / 2, READS));
        double some = Median.of(Arrays.copyOfRange(twoSeconds, READS / 2, READS));
        System.out.printf(
            Locale.ROOT,
            "%s of %,d rows of 20 columns: every column %.3f s, %,d bytes fetched;"
                + " two columns %.3f s, %,d bytes fetched: %.2fx the rows per second%n",
            state ? "full read (latest-full state)" : "changelog read",
            rows,
            every,
            everyBytes,
            some,
            twoBytes,
            every / some);
      }
    }
  }

  /**
   * Seconds to read every change of the table through {@code scan}, or with {@code state} every row
   * of its latest snapshot, as a read from the latest full state begins.
   */
  private static double timedRead(ChangelogScan scan, Table table, int rows, boolean state)
      throws IOException {
    long start = System.nanoTime();
    long read = 0;
    List<ChangelogTask> tasks =
        state
            ? scan.start(StartingPoint.latestFull()).state()
            : scan.between(0, table.snapshots().latestId().orElseThrow());
    for (ChangelogTask task : tasks) {
      try (ChangelogScan.ChangelogReader reader = scan.read(task)) {
        while (reader.hasNext()) {
          KeyValue change = reader.next();
          read += change.value().length > 0 ? 1 : 0;
        }
      }
    }
    if (read != rows) {
      throw new IllegalStateException("read " + read + " changes of " + rows);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static TableSchema schema() {
    List<DataField> fields = new ArrayList<>();
    fields.add(new DataField(0, "id", DataType.bigint().notNull()));
    for (int i = 1; i <= 9; i++) {
      fields.add(new DataField(i, "n" + i, DataType.bigint()));
    }
    for (int i = 1; i <= 10; i++) {
      fields.add(new DataField(9 + i, "s" + i, DataType.string()));
    }
    return TableSchema.create(
        new RowType(fields),
        List.of(),
        List.of("id"),
        Map.of("bucket", "1", "changelog-producer", "input"),
        null);
  }

  /** Inserts {@code rows} rows of distinct keys, in five commits. */
  private static void write(Table table, int rows) throws IOException {
    Random random = new Random(5);
    SnapshotCommit commit = table.newCommit("bench");
    try (TableWriter writer = table.newWriter()) {
      for (int c = 0; c < 5; c++) {
        for (int r = 0; r < rows / 5; r++) {
          Object[] row = new Object[20];
          row[0] = (long) c * (rows / 5) + r;
          for (int i = 1; i <= 9; i++) {
            row[i] = random.nextLong();
          }
          for (int i = 10; i < 20; i++) {
            row[i] = "value-" + random.nextInt(1_000_000);
          }
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(c, writer.prepareCommit(c));
      }
    }
  }
}
