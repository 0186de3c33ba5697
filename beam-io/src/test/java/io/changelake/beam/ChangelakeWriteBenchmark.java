package io.changelake.beam;

import io.changelake.bench.Median;
import io.changelake.bench.ProcessCpu;
import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.Orders;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
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
 *
 * <p>The DirectRunner cuts bundles differently from run to run, so one pipeline of each says little
 * (their ratio moved from 0.34 to 1.21). The real and the no-op pipelines run alternately, {@code
 * bench.rounds} rounds per producer (5 unless told), the one that goes first swapped each round;
 * each round prints its rates per second and per CPU-second of the JVM (see {@link ProcessCpu}),
 * and each producer the median ratio of its rounds. Prints; asserts nothing about time. Not run by
 * default (its name does not end in Test): {@code mvn -pl beam-io -am test
 * -Dtest=ChangelakeWriteBenchmark -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.rounds=5]
 * [-Dbench.producers=none,lookup]}.
 */
class ChangelakeWriteBenchmark {

  private static final Upserts UPSERTS = new Upserts(500_000, 100_000);
  private static final int BUCKETS = 4;

  /** One pipeline's wall-clock and CPU seconds. */
  private record Run(double seconds, double cpuSeconds) {
    double rowsPerSecond() {
      return UPSERTS.count / seconds;
    }

    double rowsPerCpuSecond() {
      return UPSERTS.count / cpuSeconds;
    }
  }

  @Test
  void printThroughputPerProducer() throws Exception {
    int rounds = Integer.getInteger("bench.rounds", 5);
    String[] producers =
        System.getProperty("bench.producers", "none,input,lookup,full-compaction").split(",");
    // One pipeline first, unmeasured: the first producer measured would otherwise pay the JVM's
    // warm-up (class loading, the JIT) for all of them.
    beamRun("none", false);
    System.out.printf(
        "%-16s %5s %12s %12s %10s %12s %12s %10s%n",
        "producer",
        "round",
        "beam rows/s",
        "no-op rows/s",
        "beam/no-op",
        "beam /cpu-s",
        "no-op /cpu-s",
        "per cpu-s");
    List<String> summary = new ArrayList<>();
    for (String producer : producers) {
      double[] wallRatios = new double[rounds];
      double[] cpuRatios = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        boolean realFirst = round % 2 == 0;
        Run first = beamRun(producer, !realFirst);
        Run second = beamRun(producer, realFirst);
        Run beam = realFirst ? first : second;
        Run noOp = realFirst ? second : first;
        wallRatios[round] = beam.rowsPerSecond() / noOp.rowsPerSecond();
        cpuRatios[round] = beam.rowsPerCpuSecond() / noOp.rowsPerCpuSecond();
        System.out.printf(
            "%-16s %5d %12.0f %12.0f %10.2f %12.0f %12.0f %10.2f%n",
            producer,
            round + 1,
            beam.rowsPerSecond(),
            noOp.rowsPerSecond(),
            wallRatios[round],
            beam.rowsPerCpuSecond(),
            noOp.rowsPerCpuSecond(),
            cpuRatios[round]);
      }
      summary.add(
          String.format(
              "| %s | %.2f | %.2f | %.2f to %.2f | %.0f |",
              producer,
              Median.of(wallRatios),
              Median.of(cpuRatios),
              Arrays.stream(wallRatios).min().orElse(0),
              Arrays.stream(wallRatios).max().orElse(0),
              storageRowsPerSecond(producer)));
    }
    System.out.println();
    System.out.println(
        "| producer | median beam/no-op | median beam/no-op per CPU-second | range over "
            + rounds
            + " rounds | storage-level writer rows/s |");
    System.out.println("|---|---|---|---|---|");
    summary.forEach(System.out::println);
  }

  private static Run beamRun(String producer, boolean noOpWriter) throws Exception {
    Path warehouse = Files.createTempDirectory("changelake-bench");
    try {
      Pipeline pipeline = Upserts.fastPipeline();
      ChangelakeWrite write =
          OrderRows.write(warehouse.toString(), UPSERTS.options(producer, BUCKETS));
      UPSERTS
          .input(pipeline)
          .apply(
              noOpWriter
                  ? write.withBucketStage((t, w, d, f, i, c) -> new DiscardBucketFn())
                  : write);
      double cpu = ProcessCpu.seconds();
      long start = System.nanoTime();
      PipelineResult.State state = pipeline.run().waitUntilFinish();
      if (state != PipelineResult.State.DONE) {
        throw new IllegalStateException("the write ended " + state);
      }
      return new Run((System.nanoTime() - start) / 1e9, ProcessCpu.seconds() - cpu);
    } finally {
      deleteRecursively(warehouse);
    }
  }

  /** Removes a benchmark's warehouse: forty pipelines would otherwise leave a gigabyte behind. */
  private static void deleteRecursively(Path folder) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
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
    } finally {
      deleteRecursively(warehouse);
    }
  }
}
