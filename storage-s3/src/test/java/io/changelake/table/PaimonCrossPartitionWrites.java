package io.changelake.table;

import io.changelake.format.PaimonRows;
import io.changelake.schema.TableSchema;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.List;
import org.apache.paimon.crosspartition.GlobalIndexAssigner;
import org.apache.paimon.crosspartition.IndexBootstrap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;

/**
 * Test fixture: Paimon 1.3.1 writing a cross-partition upsert table as its Flink sink ({@code
 * GlobalDynamicBucketSink}) does with one assigner: a job per batch, whose {@code
 * GlobalIndexAssigner} bootstraps the key index from the table ({@code IndexBootstrap}) and then
 * routes each row, with the -D it adds, to a bucket writer.
 */
public final class PaimonCrossPartitionWrites {

  /** A row with its kind. */
  public record Change(RowKind kind, Object[] row) {}

  private PaimonCrossPartitionWrites() {}

  /** Writes and commits one batch as one job of Paimon's sink. */
  public static void write(
      FileStoreTable table, TableSchema schema, List<Change> batch, Path ioTemp) throws Exception {
    PaimonRows converter = new PaimonRows(schema.rowType());
    IOManager io = IOManager.create(ioTemp.toString());
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit();
        GlobalIndexAssigner assigner = new GlobalIndexAssigner(table)) {
      write.withIOManager(io);
      assigner.open(
          64L << 20,
          io,
          1,
          0,
          (row, bucket) -> {
            try {
              write.write(row, bucket);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      new IndexBootstrap(table)
          .bootstrap(
              1,
              0,
              key -> {
                try {
                  assigner.bootstrapKey(key);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assigner.endBoostrap(false);
      for (Change c : batch) {
        GenericRow generic = converter.toGenericRow(c.row());
        generic.setRowKind(org.apache.paimon.types.RowKind.fromByteValue(c.kind().toByteValue()));
        InternalRow row = generic;
        assigner.processInput(row);
      }
      commit.commit(write.prepareCommit());
    } finally {
      io.close();
    }
  }
}
