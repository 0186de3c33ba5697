package io.changelake.beam;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableSchema;
import io.changelake.table.TableWriter;
import io.changelake.table.Orders;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.junit.jupiter.api.Test;

/**
 * Throughput of the Beam write on the DirectRunner per producer, next to the storage-level writer
 * on the same upserts (one writer, one commit). Prints; asserts nothing about time. Not run by
 * default (its name does not end in Test): {@code mvn -pl beam-io test
 * -Dtest=ChangelakeWriteBenchmark}.
 */
class ChangelakeWriteBenchmark {

  private static final Upserts UPSERTS = new Upserts(500_000, 100_000);
  private static final int BUCKETS = 4;

  @Test
  void printThroughputPerProducer() throws Exception {
    System.out.printf(
        "%-16s %12s %12s %8s%n", "producer", "beam rows/s", "table rows/s", "ratio");
    for (String producer : new String[] {"none", "input", "lookup", "full-compaction"}) {
      double beam = beamRowsPerSecond(producer);
      double storage = storageRowsPerSecond(producer);
      System.out.printf(
          "%-16s %12.0f %12.0f %8.2f%n", producer, beam, storage, beam / storage);
    }
  }

  private static double beamRowsPerSecond(String producer) throws Exception {
    Path warehouse = Files.createTempDirectory("changelake-bench");
    Pipeline pipeline = Upserts.fastPipeline();
    UPSERTS
        .input(pipeline)
        .apply(OrderRows.write(warehouse.toString(), UPSERTS.options(producer, BUCKETS)));
    long start = System.nanoTime();
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("the write ended " + state);
    }
    return UPSERTS.count / ((System.nanoTime() - start) / 1e9);
  }

  private static double storageRowsPerSecond(String producer) throws Exception {
    Path warehouse = Files.createTempDirectory("changelake-bench");
    try (ObjectStore store = ObjectStores.open(warehouse.toString())) {
      TableSchema schema = Orders.schema(UPSERTS.options(producer, BUCKETS));
      Table table = Table.create(store, new TablePath("shop", "orders"), schema);
      long start = System.nanoTime();
      try (TableWriter writer = table.newWriter()) {
        for (long i = 0; i < UPSERTS.count; i++) {
          writer.write(RowKind.INSERT, Upserts.tableRow(i, UPSERTS.keys));
        }
        table.newCommit("bench").commit(1, writer.prepareCommit(1));
      }
      return UPSERTS.count / ((System.nanoTime() - start) / 1e9);
    }
  }
}
