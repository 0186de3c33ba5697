package io.changelake.bench;

import io.changelake.conformance.ConformanceRun;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.mergetree.lookup.LookupCache;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.table.BucketSplit;
import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableRead;
import io.changelake.table.TableWriter;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs an {@link UpsertWorkload} against a changelake table on local disk and measures the write
 * rate, the changelog read rate, the batch read rate of the latest snapshot, what is left on disk,
 * the peak heap ({@link HeapPeak}) and the peak local disk of the lookup cache. The table has one
 * bucket by default; with more buckets or partitions, one {@link TableWriter} in this JVM hosts a
 * writer per bucket, as a worker does, and they share the worker's budgets.
 */
public final class UpsertBenchmark {

  /**
   * What one run measured.
   *
   * @param producer the changelog producer
   * @param rows rows written
   * @param writeSeconds time to write and commit them
   * @param changelogRows rows the changelog read returned
   * @param readSeconds time to read the changelog from snapshot 1
   * @param writeCpuSeconds CPU time of the JVM, every thread, while writing ({@link ProcessCpu})
   * @param readCpuSeconds CPU time of the JVM, every thread, while reading
   * @param batchRows rows a batch read of the latest snapshot returned (one per live key)
   * @param batchSeconds time of that batch read
   * @param batchCpuSeconds CPU time of the JVM, every thread, during the batch read
   * @param bytes bytes of the table folder
   * @param files files in the table folder
   * @param peakHeapBytes peak heap during the run, after garbage collections
   * @param lookupDiskPeakBytes peak local disk of the lookup copies, -1 if not measured
   */
  public record Result(
      String producer,
      long rows,
      double writeSeconds,
      long changelogRows,
      double readSeconds,
      double writeCpuSeconds,
      double readCpuSeconds,
      long batchRows,
      double batchSeconds,
      double batchCpuSeconds,
      long bytes,
      long files,
      long peakHeapBytes,
      long lookupDiskPeakBytes) {

    /**
     * A run's result from its write and its two reads.
     *
     * @param lookupDiskPeakBytes peak local disk of the lookup copies, -1 if not measured
     */
    public static Result of(
        String producer,
        long rows,
        Timing write,
        Counted changelog,
        Counted batch,
        long bytes,
        long files,
        long peakHeapBytes,
        long lookupDiskPeakBytes) {
      return new Result(
          producer,
          rows,
          write.seconds(),
          changelog.rows(),
          changelog.timing().seconds(),
          write.cpuSeconds(),
          changelog.timing().cpuSeconds(),
          batch.rows(),
          batch.timing().seconds(),
          batch.timing().cpuSeconds(),
          bytes,
          files,
          peakHeapBytes,
          lookupDiskPeakBytes);
    }

    /** The line a script reads. */
    public String resultLine() {
      return String.format(
          "RESULT producer=%s rows=%d write_rows_per_s=%.0f read_rows_per_s=%.0f"
              + " write_rows_per_cpu_s=%.0f read_rows_per_cpu_s=%.0f bytes=%d files=%d"
              + " changelog_rows=%d peak_heap_mb=%d lookup_disk_peak_mb=%d"
              + " batch_read_rows_per_s=%.0f batch_read_rows_per_cpu_s=%.0f",
          producer,
          rows,
          rows / writeSeconds,
          changelogRows / Math.max(readSeconds, 1e-9),
          rows / writeCpuSeconds,
          changelogRows / Math.max(readCpuSeconds, 1e-9),
          bytes,
          files,
          changelogRows,
          peakHeapBytes >> 20,
          lookupDiskPeakBytes < 0 ? -1 : lookupDiskPeakBytes >> 20,
          batchRows / Math.max(batchSeconds, 1e-9),
          batchRows / Math.max(batchCpuSeconds, 1e-9));
    }
  }

  /** The orders table with the partition column {@code part}. */
  private static final RowType PARTITIONED_ORDERS =
      RowType.of(
          new String[] {"order_id", "store_id", "amount", "part"},
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.bigint(),
            DataType.bigint(),
            DataType.bigint().notNull()
          });

  private UpsertBenchmark() {}

  /** Every change a reader starting at the table's first snapshot reads. */
  public static long changelogRows(Table table) throws IOException {
    long[] rows = {0};
    table
        .newChangelogScan()
        .walk(
            table.snapshots().earliestId().orElse(1),
            table.snapshots().latestId().orElse(0),
            new ChangelogScan.ChangeVisitor() {
              @Override
              public void snapshot(Snapshot snapshot) {}

              @Override
              public void change(ChangeRow change) {
                rows[0]++;
              }
            });
    return rows[0];
  }

  /**
   * Every row of the table's latest snapshot, read as a batch, split by split, as {@link
   * Table#newRead} hands a caller its rows ({@link TableRead.MergedRows#insertsTo}): a split read
   * raw as views of column batches, as Paimon's reader hands out its rows.
   */
  public static long batchRows(Table table) throws IOException {
    Snapshot latest = table.snapshots().latest().orElseThrow();
    TableRead read = table.newRead();
    long[] rows = {0};
    for (BucketSplit split : read.splits(latest)) {
      try (TableRead.MergedRows merged = read.read(split)) {
        merged.insertsTo(row -> rows[0]++);
      }
    }
    return rows[0];
  }

  /**
   * How long a write took.
   *
   * @param seconds wall-clock time to write and commit every row
   * @param cpuSeconds CPU time of the JVM meanwhile, every thread ({@link ProcessCpu})
   */
  public record Timing(double seconds, double cpuSeconds) {
    /**
     * The time since {@code startNanos} ({@link System#nanoTime}) and {@code startCpuSeconds}
     * ({@link ProcessCpu#seconds}).
     */
    public static Timing since(long startNanos, double startCpuSeconds) {
      return new Timing(
          (System.nanoTime() - startNanos) / 1e9, ProcessCpu.seconds() - startCpuSeconds);
    }
  }

  /** A read that returns how many rows it read. */
  @FunctionalInterface
  public interface RowCount {
    long rows() throws Exception;
  }

  /**
   * How many rows a read returned, and how long it took.
   *
   * @param rows the rows read
   * @param timing its wall-clock and CPU time
   */
  public record Counted(long rows, Timing timing) {}

  /** Runs a read once and times it. */
  public static Counted count(RowCount read) throws Exception {
    long start = System.nanoTime();
    double cpu = ProcessCpu.seconds();
    long rows = read.rows();
    return new Counted(rows, Timing.since(start, cpu));
  }

  /**
   * Writes the workload into a new one-bucket table under {@code warehouse}, and nothing else: for
   * runs that repeat the write alone, warm.
   */
  public static Timing write(String producer, UpsertWorkload workload, Path warehouse)
      throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      return write(store, tablePath(producer), producer, workload, 1, 1);
    }
  }

  private static TablePath tablePath(String producer) {
    return new TablePath("bench", "orders_" + producer.replace('-', '_'));
  }

  private static Timing write(
      LocalObjectStore store,
      TablePath path,
      String producer,
      UpsertWorkload workload,
      int buckets,
      int partitions)
      throws Exception {
    Map<String, String> options =
        Map.of("bucket", Integer.toString(buckets), "changelog-producer", producer);
    TableSchema schema =
        partitions == 1
            ? TableSchema.create(
                ConformanceRun.ORDERS, List.of(), List.of("order_id"), options, null)
            : TableSchema.create(
                PARTITIONED_ORDERS, List.of("part"), List.of("part", "order_id"), options, null);
    Table table = Table.create(store, path, schema);
    SnapshotCommit commit = table.newCommit("bench");
    long start = System.nanoTime();
    double cpu = ProcessCpu.seconds();
    try (TableWriter writer = table.newWriter()) {
      workload.feed(
          new UpsertWorkload.Sink() {
            @Override
            public void row(long orderId, long storeId, long amount) throws Exception {
              writer.write(
                  RowKind.INSERT,
                  partitions == 1
                      ? new Object[] {orderId, storeId, amount}
                      : new Object[] {orderId, storeId, amount, orderId % partitions});
            }

            @Override
            public void commit(long identifier) throws Exception {
              // As a streaming job commits, and as Paimon's writer is driven beside it: none and
              // input tables compact in the background.
              commit.commit(
                  identifier, writer.prepareCommit(identifier, CompactionRequest.AUTO, false));
            }
          });
    }
    return Timing.since(start, cpu);
  }

  /** {@link #run(String, UpsertWorkload, Path, int, int)} into one bucket, unpartitioned. */
  public static Result run(String producer, UpsertWorkload workload, Path warehouse)
      throws Exception {
    return run(producer, workload, warehouse, 1, 1);
  }

  /**
   * Writes the workload into a new table under {@code warehouse} and reads its changelog.
   *
   * @param buckets buckets per partition
   * @param partitions 1 for an unpartitioned table; more adds a column {@code part} ({@code
   *     order_id} modulo the count) that partitions the table and joins the primary key
   */
  public static Result run(
      String producer, UpsertWorkload workload, Path warehouse, int buckets, int partitions)
      throws Exception {
    TablePath path = tablePath(producer);
    HeapPeak.reset();
    LookupCache.resetSharedPeaks();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Timing write = write(store, path, producer, workload, buckets, partitions);
      Table table = Table.open(store, path);
      Counted changelog = count(() -> changelogRows(table));
      Counted batch = count(() -> batchRows(table));
      long bytes = 0;
      List<ObjectInfo> objects = store.list(path.root());
      for (ObjectInfo o : objects) {
        bytes += o.size();
      }
      return Result.of(
          producer,
          workload.rows(),
          write,
          changelog,
          batch,
          bytes,
          objects.size(),
          HeapPeak.bytes(),
          LookupCache.sharedStats().peakDiskBytes());
    }
  }
}
