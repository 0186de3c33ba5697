package io.changelake.table;

import io.changelake.format.PaimonRows;
import io.changelake.schema.TableSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.index.BucketAssigner;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;

/**
 * Paimon 1.3.1 writing and reading a dynamic-bucket table of (day, id, ...) rows, as Flink does.
 */
public final class PaimonDynamicWrites {

  private PaimonDynamicWrites() {}

  /**
   * Writes with Paimon as its Flink dynamic-bucket sink does: n assigners (n = initial buckets),
   * each key to the assigner its partition and key hash choose, a fresh assigner per batch (a new
   * job), loading the index.
   */
  public static void write(FileStoreTable table, TableSchema schema, List<List<Object[]>> batches)
      throws Exception {
    PaimonRows converter = new PaimonRows(schema.rowType());
    int n = schema.options().dynamicBucketInitialBuckets();
    for (List<Object[]> batch : batches) {
      table = PaimonTables.open(Path.of(table.location().toUri()));
      List<HashBucketAssigner> assigners = new ArrayList<>();
      for (int a = 0; a < n; a++) {
        assigners.add(
            new HashBucketAssigner(
                table.snapshotManager(),
                "theirs",
                table.store().newIndexFileHandler(),
                n,
                n,
                a,
                schema.options().dynamicBucketTargetRowNum(),
                schema.options().dynamicBucketMaxBuckets()));
      }
      DynamicBucketRowKeyExtractor extractor = new DynamicBucketRowKeyExtractor(table.schema());
      BatchWriteBuilder builder = table.newBatchWriteBuilder();
      try (BatchTableWrite write = builder.newWrite();
          BatchTableCommit commit = builder.newCommit()) {
        for (Object[] row : batch) {
          GenericRow generic = converter.toGenericRow(row);
          extractor.setRecord(generic);
          int keyHash = extractor.trimmedPrimaryKey().hashCode();
          int assigner =
              BucketAssigner.computeAssigner(extractor.partition().hashCode(), keyHash, n, n);
          write.write(generic, assigners.get(assigner).assign(extractor.partition(), keyHash));
        }
        commit.commit(write.prepareCommit());
      }
    }
  }

  /** "day/id" of each row Paimon reads, with the bucket of the split it came from. */
  public static Map<String, List<Integer>> bucketsOfKeys(FileStoreTable table, TableSchema schema)
      throws Exception {
    PaimonRows converter = new PaimonRows(schema.rowType());
    ReadBuilder read = table.newReadBuilder();
    Map<String, List<Integer>> buckets = new TreeMap<>();
    for (Split split : read.newScan().plan().splits()) {
      int bucket = ((DataSplit) split).bucket();
      try (RecordReader<InternalRow> reader = read.newRead().createReader(split)) {
        reader.forEachRemaining(
            row -> {
              Object[] values = converter.toJava(row);
              buckets
                  .computeIfAbsent(values[0] + "/" + values[1], k -> new ArrayList<>())
                  .add(bucket);
            });
      }
    }
    return buckets;
  }
}
