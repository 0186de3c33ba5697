package io.changelake.beam;

import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.Orders;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

/**
 * Throughput of the Beam write on the DirectRunner per producer, next to the same topology with a
 * bucket writer that does nothing (assign, group per bucket, a stateful DoFn per bucket, the
 * committer: the runner's and our conversion and coders' share) and to the storage-level writer on
 * the same upserts (one writer, one commit), after one unmeasured pipeline that warms the JVM.
 * Prints; asserts nothing about time. Not run by default (its name does not end in Test): {@code
 * mvn -pl beam-io -am test -Dtest=ChangelakeWriteBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class ChangelakeWriteBenchmark {

  private static final Upserts UPSERTS = new Upserts(500_000, 100_000);
  private static final int BUCKETS = 4;

  @Test
  void printThroughputPerProducer() throws Exception {
    // One pipeline first, unmeasured: the first producer measured would otherwise pay the JVM's
    // warm-up (class loading, the JIT) for all of them.
    beamRowsPerSecond("none", false);
    System.out.printf(
        "%-16s %12s %12s %12s %10s %10s%n",
        "producer", "beam rows/s", "no-op rows/s", "table rows/s", "beam/no-op", "beam/table");
    for (String producer : new String[] {"none", "input", "lookup", "full-compaction"}) {
      double beam = beamRowsPerSecond(producer, false);
      double noOp = beamRowsPerSecond(producer, true);
      double storage = storageRowsPerSecond(producer);
      System.out.printf(
          "%-16s %12.0f %12.0f %12.0f %10.2f %10.2f%n",
          producer, beam, noOp, storage, beam / noOp, beam / storage);
    }
  }

  private static double beamRowsPerSecond(String producer, boolean noOpWriter) throws Exception {
    Path warehouse = Files.createTempDirectory("changelake-bench");
    Pipeline pipeline = Upserts.fastPipeline();
    ChangelakeWrite write =
        OrderRows.write(warehouse.toString(), UPSERTS.options(producer, BUCKETS));
    UPSERTS
        .input(pipeline)
        .apply(
            noOpWriter ? write.withBucketStage((t, w, d, f, i) -> new DiscardBucketFn()) : write);
    long start = System.nanoTime();
    PipelineResult.State state = pipeline.run().waitUntilFinish();
    if (state != PipelineResult.State.DONE) {
      throw new IllegalStateException("the write ended " + state);
    }
    return UPSERTS.count / ((System.nanoTime() - start) / 1e9);
  }

  /** A bucket writer that only reads its batch and keeps a counter in state, as the real one. */
  private static final class DiscardBucketFn
      extends DoFn<KV<String, Iterable<KindedRow>>, KV<String, WrittenBatch>> {
    @StateId("sequence")
    private final StateSpec<ValueState<Long>> sequenceSpec = StateSpecs.value(VarLongCoder.of());

    @ProcessElement
    public void process(
        @Element KV<String, Iterable<KindedRow>> batch,
        @StateId("sequence") ValueState<Long> sequence) {
      long rows = 0;
      for (KindedRow row : batch.getValue()) {
        rows += row.values().length > 0 ? 1 : 0;
      }
      Long before = sequence.read();
      sequence.write((before == null ? 0 : before) + 1);
      WriteMetrics.ROWS_WRITTEN.inc(rows);
    }
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
