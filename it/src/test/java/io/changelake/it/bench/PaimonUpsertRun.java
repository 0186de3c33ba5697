package io.changelake.it.bench;

import io.changelake.bench.HeapPeak;
import io.changelake.bench.ProcessCpu;
import io.changelake.bench.UpsertBenchmark;
import io.changelake.bench.UpsertWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.types.DataTypes;

/**
 * The benchmark workload written by Apache Paimon 1.3.1 itself (its Java write API, no Flink), as
 * the reference: streaming commits with the commit waiting for compaction where the producer needs
 * it (lookup), and a full compaction before each commit for the full-compaction producer (as
 * Flink's {@code full-compaction.delta-commits = 1} does); then its changelog read from snapshot 1
 * and its batch read of the latest snapshot ({@link ReadBuilder}'s batch scan and read).
 */
final class PaimonUpsertRun {

  private PaimonUpsertRun() {}

  static UpsertBenchmark.Result run(String producer, UpsertWorkload workload, Path folder)
      throws Exception {
    HeapPeak.reset();
    UpsertBenchmark.Timing write = write(producer, workload, folder);
    FileStoreTable table =
        FileStoreTableFactory.create(
            LocalFileIO.create(), new org.apache.paimon.fs.Path(folder.toUri()));
    UpsertBenchmark.Counted changelog = UpsertBenchmark.count(() -> changelogRows(table));
    UpsertBenchmark.Counted batch = UpsertBenchmark.count(() -> batchRows(table));
    long bytes = 0;
    long files = 0;
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        bytes += Files.size(p);
        files++;
      }
    }
    return UpsertBenchmark.Result.of(
        producer, workload.rows(), write, changelog, batch, bytes, files, HeapPeak.bytes(), -1);
  }

  /** Creates the table in {@code folder} and writes the workload into it, and nothing else. */
  static UpsertBenchmark.Timing write(String producer, UpsertWorkload workload, Path folder)
      throws Exception {
    Schema schema =
        Schema.newBuilder()
            .column("order_id", DataTypes.BIGINT().notNull())
            .column("store_id", DataTypes.BIGINT())
            .column("amount", DataTypes.BIGINT())
            .primaryKey("order_id")
            .options(
                Map.of("bucket", "1", "changelog-producer", producer, "file.format", "parquet"))
            .build();
    org.apache.paimon.fs.Path path = new org.apache.paimon.fs.Path(folder.toUri());
    new SchemaManager(LocalFileIO.create(), path).createTable(schema);
    FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), path);
    boolean waitCompaction = producer.equals("lookup") || producer.equals("full-compaction");
    boolean fullCompaction = producer.equals("full-compaction");

    long start = System.nanoTime();
    double cpu = ProcessCpu.seconds();
    StreamWriteBuilder builder = table.newStreamWriteBuilder();
    try (StreamTableWrite write =
            (StreamTableWrite)
                builder
                    .newWrite()
                    .withIOManager(IOManager.create(folder.resolve("io").toString()));
        StreamTableCommit commit = builder.newCommit()) {
      workload.feed(
          new UpsertWorkload.Sink() {
            @Override
            public void row(long orderId, long storeId, long amount) throws Exception {
              write.write(GenericRow.of(orderId, storeId, amount));
            }

            @Override
            public void commit(long identifier) throws Exception {
              if (fullCompaction) {
                write.compact(BinaryRow.EMPTY_ROW, 0, true);
              }
              commit.commit(identifier, write.prepareCommit(waitCompaction, identifier));
            }
          });
    }
    return UpsertBenchmark.Timing.since(start, cpu);
  }

  /**
   * Every change a streaming reader starting at snapshot 1 reads, through Paimon's stream scan and
   * read, up to the snapshot that was latest when it started.
   */
  static long changelogRows(FileStoreTable table) throws Exception {
    long changelogRows = 0;
    ReadBuilder read =
        table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
    StreamTableScan scan = read.newStreamScan();
    long latest = table.snapshotManager().latestSnapshotId();
    while (true) {
      List<Split> splits = scan.plan().splits();
      if (!splits.isEmpty()) {
        try (RecordReader<InternalRow> reader = read.newRead().createReader(splits)) {
          RecordReader.RecordIterator<InternalRow> batch;
          while ((batch = reader.readBatch()) != null) {
            while (batch.next() != null) {
              changelogRows++;
            }
            batch.releaseBatch();
          }
        }
      }
      Long next = scan.checkpoint();
      if (next == null || next > latest) {
        return changelogRows;
      }
    }
  }

  /** Every row of the table's latest snapshot, through Paimon's batch scan and read. */
  static long batchRows(FileStoreTable table) throws Exception {
    long count = 0;
    ReadBuilder batch = table.newReadBuilder();
    try (RecordReader<InternalRow> reader =
        batch.newRead().createReader(batch.newScan().plan().splits())) {
      RecordReader.RecordIterator<InternalRow> rows;
      while ((rows = reader.readBatch()) != null) {
        while (rows.next() != null) {
          count++;
        }
        rows.releaseBatch();
      }
    }
    return count;
  }
}
