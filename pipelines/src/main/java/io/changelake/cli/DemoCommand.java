package io.changelake.cli;

import io.changelake.bench.UpsertBenchmark;
import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.store.S3Settings;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.templates.CdcToAggregate;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The main job: the order-price-correction story plus a random order stream, as Debezium change
 * events, through the CDC-to-aggregate template into four tables that differ only in their
 * changelog producer, with {@code SUM}, {@code COUNT} and {@code AVG} of the amount per store kept
 * from each table's changelog, and the result of each producer next to the truth.
 *
 * <p>The events go in batches, one pipeline run (so one commit per table) a batch, so that the
 * correction lands in a later commit than the order, as it would in a stream. Every batch is run
 * twice side by side: with before-images on updates (database CDC) and without (an upsert-only
 * source). The result table has one line per input kind, producer and store: {@code RESULT
 * producer=P store=S aggregate=SUM truth=SUM verdict=OK|WRONG before_images=yes|no count=A/T
 * avg=A/T}.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs CDC to aggregate on the order-price-correction story and a random order stream into"
          + " four tables, one per changelog producer (none, input, lookup, full-compaction), and"
          + " prints per store the SUM(amount) each yields next to the truth.",
      "Without --warehouse the warehouse is a temporary folder, removed at the end."
    })
final class DemoCommand implements Callable<Integer> {

  static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
  private static final String DATABASE = "shop";
  private static final int BAD_EVENTS = 3;

  @Spec CommandSpec spec;

  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      description =
          "Keep the tables and the input under DIR (readable by Paimon, Flink, Spark, Trino).")
  Path warehouse;

  @Option(
      names = "--s3-endpoint",
      paramLabel = "URL",
      description =
          "Put the tables on this S3 endpoint instead (path-style access; credentials"
              + " from the AWS default chain, e.g. AWS_ACCESS_KEY_ID); input stays local.")
  URI s3Endpoint;

  @Option(
      names = "--s3-bucket",
      paramLabel = "BUCKET",
      defaultValue = "changelake-demo",
      description = "Bucket of the S3 warehouse (default: ${DEFAULT-VALUE}); it must exist.")
  String s3Bucket;

  @Option(
      names = "--s3-region",
      paramLabel = "REGION",
      defaultValue = "us-east-1",
      description = "Signing region for --s3-endpoint (default: ${DEFAULT-VALUE}).")
  String s3Region;

  @Option(
      names = "--events",
      paramLabel = "N",
      defaultValue = "3000",
      description = "Random order events (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--batches",
      paramLabel = "B",
      defaultValue = "4",
      description = "Batches, one commit per table each (default: ${DEFAULT-VALUE}; at least 2).")
  int batches;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  /** One flow of the demo: an input kind and a producer. */
  private record Flow(boolean beforeImages, String producer) {
    String scenario() {
      return beforeImages ? "cdc" : "upsert";
    }

    String table() {
      return "orders_" + scenario() + "_" + producer.replace('-', '_');
    }

    String aggregateTable() {
      return "store_totals_" + scenario() + "_" + producer.replace('-', '_');
    }
  }

  @Override
  public Integer call() throws Exception {
    if (batches < 2) {
      throw new IllegalArgumentException(
          "--batches="
              + batches
              + ": give at least 2, so the"
              + " correction lands in a later commit than the order");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path root = warehouse != null ? warehouse : Files.createTempDirectory("changelake-demo");
    S3Settings s3 =
        s3Endpoint == null
            ? S3Settings.defaults()
            : S3Settings.builder()
                .endpoint(s3Endpoint)
                .region(s3Region)
                .pathStyleAccess(true)
                .build();
    String location =
        s3Endpoint == null
            ? root.toString()
            : "s3://"
                + s3Bucket
                + "/changelake-demo-"
                + UUID.randomUUID().toString().substring(0, 8);
    try {
      run(out, root, location, s3);
    } finally {
      if (warehouse == null) {
        TempFolders.delete(root);
      }
    }
    return 0;
  }

  private void run(PrintWriter out, Path root, String location, S3Settings s3) throws Exception {
    DemoOrders orders = new DemoOrders(events, batches, seed);
    List<Flow> flows = new ArrayList<>();
    for (boolean beforeImages : new boolean[] {false, true}) {
      for (String producer : PRODUCERS) {
        flows.add(new Flow(beforeImages, producer));
      }
    }
    out.println(
        "changelake demo: Debezium change events -> orders table -> changelog ->"
            + " SUM/COUNT/AVG(amount) GROUP BY store_id");
    out.println("warehouse  " + location);
    out.printf(
        "input      %s/input: %d events in %d batches, each as upsert (updates without"
            + " before-image) and as cdc (with), %d bad events in batch 2%n",
        root, orders.eventCount(), orders.batchCount(), BAD_EVENTS);
    out.println(
        "story      order 1001, store 10's only order, costs 100 (batch 1), corrected to 80"
            + " (batch 2): store 10's SUM is 80");
    out.flush();

    Map<Flow, Latencies> latencies = new TreeMap<>((a, b) -> a.table().compareTo(b.table()));
    try (ObjectStore store = ObjectStores.open(location, s3)) {
      for (int b = 0; b < orders.batchCount(); b++) {
        Pipeline pipeline =
            Pipeline.create(PipelineOptionsFactory.fromArgs(DIRECT_RUNNER).create());
        for (Flow flow : flows) {
          Path input =
              root.resolve("input").resolve(flow.scenario()).resolve("batch-" + (b + 1) + ".json");
          if (!Files.exists(input)) {
            orders.writeBatch(b, flow.beforeImages(), b == 1 ? BAD_EVENTS : 0, input);
          }
          CdcToAggregate.addTo(pipeline, options(flow, input, root, location, b));
        }
        long start = System.currentTimeMillis();
        PipelineResult.State state = pipeline.run().waitUntilFinish();
        if (state != PipelineResult.State.DONE) {
          throw new IllegalStateException("batch " + (b + 1) + " ended " + state);
        }
        out.printf(
            "batch %d/%d  %5.1f s  (8 flows in one pipeline)%n",
            b + 1, orders.batchCount(), (System.currentTimeMillis() - start) / 1000.0);
        out.flush();
        for (Flow flow : flows) {
          latencies
              .computeIfAbsent(flow, f -> new Latencies())
              .add(
                  commitTime(store, flow.table()) - start,
                  commitTime(store, flow.aggregateTable()) - start);
        }
      }
      out.println();
      out.println(
          "figures per flow: snapshots and changelog rows of the orders table; time from batch"
              + " start to its commit and to the aggregate's commit (median over batches)");
      out.printf(
          "  %-6s %-15s %9s %14s %10s %14s%n",
          "input", "producer", "snapshots", "changelog_rows", "commit_ms", "aggregate_ms");
      for (Flow flow : flows) {
        Table table = Table.open(store, new TablePath(DATABASE, flow.table()));
        Latencies l = latencies.get(flow);
        out.printf(
            "  %-6s %-15s %9d %14d %10d %14d%n",
            flow.scenario(),
            flow.producer(),
            table.snapshots().listIds().size(),
            UpsertBenchmark.changelogRows(table),
            l.median(l.commit),
            l.median(l.aggregate));
      }
      out.println();
      out.println(
          "result: SUM(amount) per store from each producer's changelog against the truth"
              + " computed from the events (count and avg likewise)");
      Map<Long, DemoOrders.Totals> truth = orders.truth();
      for (Flow flow : flows) {
        Map<Long, DemoOrders.Totals> aggregate = aggregate(store, flow.aggregateTable());
        for (Map.Entry<Long, DemoOrders.Totals> t : truth.entrySet()) {
          DemoOrders.Totals a = aggregate.getOrDefault(t.getKey(), new DemoOrders.Totals(0, 0));
          DemoOrders.Totals e = t.getValue();
          boolean ok = a.equals(e);
          out.printf(
              "RESULT producer=%s store=%d aggregate=%d truth=%d verdict=%s before_images=%s"
                  + " count=%d/%d avg=%s/%s%n",
              flow.producer(),
              t.getKey(),
              a.sum(),
              e.sum(),
              ok ? "OK" : "WRONG",
              flow.beforeImages() ? "yes" : "no",
              a.count(),
              e.count(),
              avg(a),
              avg(e));
        }
      }
    }
    out.println();
    out.println(
        "none: WRONG, its changelog has no retractions (the corrected order counts twice);"
            + " input: OK only with before-images; lookup and full-compaction: OK whatever the input.");
    out.flush();
  }

  /** The DirectRunner without its per-element checks, which cost more than the demo's work. */
  private static final String[] DIRECT_RUNNER = {
    "--runner=DirectRunner", "--enforceImmutability=false", "--enforceEncodability=false"
  };

  private CdcToAggregate.Options options(
      Flow flow, Path input, Path root, String location, int batch) {
    CdcToAggregate.Options o =
        PipelineOptionsFactory.fromArgs(DIRECT_RUNNER).as(CdcToAggregate.Options.class);
    o.setInputFilePattern(input.toString());
    o.setWarehouse(location);
    o.setDatabase(DATABASE);
    o.setTable(flow.table());
    o.setColumns("order_id:BIGINT,store_id:BIGINT,amount:BIGINT");
    o.setPrimaryKeys("order_id");
    o.setProducer(flow.producer());
    o.setBuckets(2);
    o.setGroupColumn("store_id");
    o.setValueColumn("amount");
    o.setAggregateTable(flow.aggregateTable());
    o.setDeadLetterDir(
        root.resolve("dead-letters")
            .resolve(flow.table())
            .resolve("batch-" + (batch + 1))
            .toString());
    if (s3Endpoint != null) {
      o.setS3Endpoint(s3Endpoint.toString());
      o.setS3Region(s3Region);
      o.setS3PathStyleAccess(true);
    }
    return o;
  }

  private static long commitTime(ObjectStore store, String table) throws IOException {
    return Table.open(store, new TablePath(DATABASE, table))
        .snapshots()
        .latest()
        .map(Snapshot::timeMillis)
        .orElseThrow();
  }

  private static Map<Long, DemoOrders.Totals> aggregate(ObjectStore store, String table)
      throws IOException {
    Map<Long, DemoOrders.Totals> totals = new TreeMap<>();
    for (Object[] row : Table.open(store, new TablePath(DATABASE, table)).newRead().readAll()) {
      totals.put((Long) row[0], new DemoOrders.Totals((Long) row[1], (Long) row[2]));
    }
    return totals;
  }

  private static String avg(DemoOrders.Totals totals) {
    return totals.count() == 0
        ? "-"
        : String.format("%.1f", (double) totals.sum() / totals.count());
  }

  /** Milliseconds from batch start to the table's and the aggregate's commit, per batch. */
  private static final class Latencies {
    final List<Long> commit = new ArrayList<>();
    final List<Long> aggregate = new ArrayList<>();

    void add(long commitMillis, long aggregateMillis) {
      commit.add(commitMillis);
      aggregate.add(aggregateMillis);
    }

    long median(List<Long> values) {
      long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
      return sorted[sorted.length / 2];
    }
  }
}
