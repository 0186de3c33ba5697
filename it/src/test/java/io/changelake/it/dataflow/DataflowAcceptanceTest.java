package io.changelake.it.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.changelake.beam.ChangelakeIO;
import io.changelake.beam.Destination;
import io.changelake.beam.TableDefinition;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.Orders;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.templates.TemplateCatalog;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.runners.dataflow.util.DataflowTemplateJob;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.reflect.DoFnSignature;
import org.apache.beam.sdk.transforms.reflect.DoFnSignatures;
import org.apache.beam.sdk.util.construction.BeamUrns;
import org.apache.beam.sdk.util.construction.ParDoTranslation;
import org.apache.beam.sdk.util.construction.RehydratedComponents;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Dataflow accepts every changelake pipeline, checked offline by DataflowRunner itself: each IO
 * transform and each template is run with {@code --runner=DataflowRunner} and {@code
 * --templateLocation} (a local file), the classic way of creating a template, so the runner does
 * all it does before a submission (its own translation into the v1b3 job specification, its
 * per-DoFn checks ({@code verifyDoFnSupported}: time-sorted input, bundle finalizers), state and
 * windowing checks, Runner v2 set-up, the portable pipeline proto through {@code
 * PipelineTranslation.toProto}) and then writes the job file instead of creating a job.
 *
 * <p>Nothing reaches Google Cloud: credentials come from {@code NoopCredentialFactory}, paths pass
 * {@code NoopPathValidator}, {@link LocalFolderStager} stages into a local folder, and the Dataflow
 * API endpoint points at a closed port on 127.0.0.1, so any call would fail the test.
 *
 * <p>Each case runs on Runner v2 in batch and in streaming (a pipeline with an unbounded source is
 * always streaming), and checks the job file (steps, job type, experiments) and the staged portable
 * proto: it parses back to the same bytes, every coder and windowing strategy rehydrates, and every
 * DoFn deserializes from its payload as a worker would load it.
 */
class DataflowAcceptanceTest {

  private static final Schema ORDER =
      Schema.builder()
          .addInt64Field("order_id")
          .addNullableField("store_id", Schema.FieldType.INT64)
          .addNullableField("amount", Schema.FieldType.INT64)
          .build();

  @TempDir static Path root;
  private static String warehouse;
  private static Path events;

  /** Batch or streaming, on Runner v2 or on the legacy runner (v1). */
  enum Mode {
    BATCH_V2(false, true),
    STREAMING_V2(true, true),
    BATCH_V1(false, false),
    STREAMING_V1(true, false);

    final boolean streaming;
    final boolean runnerV2;

    Mode(boolean streaming, boolean runnerV2) {
      this.streaming = streaming;
      this.runnerV2 = runnerV2;
    }
  }

  @BeforeAll
  static void seedTablesAndEvents() throws Exception {
    Path lake = root.resolve("warehouse");
    warehouse = lake.toString();
    try (LocalObjectStore store = new LocalObjectStore(lake)) {
      Table orders =
          Table.create(
              store,
              new TablePath("shop", "orders"),
              Orders.schema(Map.of("bucket", "2", "changelog-producer", "lookup")));
      try (TableWriter writer = orders.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1001, 10L, 100L));
        orders.newCommit("seed").commit(1, writer.prepareCommit(1));
        writer.write(RowKind.UPDATE_AFTER, Orders.row(1001, 10L, 80L));
        orders.newCommit("seed").commit(2, writer.prepareCommit(2));
      }
    }
    events = root.resolve("events/orders-1.json");
    Files.createDirectories(events.getParent());
    Files.writeString(
        events,
        "{\"before\":null,\"after\":{\"order_id\":1001,\"store_id\":10,\"amount\":100},\"op\":\"c\"}\n");
  }

  static Stream<Arguments> transforms() {
    List<Arguments> cases = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      cases.add(Arguments.of("write", mode, (Consumer<Pipeline>) DataflowAcceptanceTest::write));
      cases.add(Arguments.of("read", mode, (Consumer<Pipeline>) DataflowAcceptanceTest::read));
      cases.add(
          Arguments.of(
              "write_many_tables", mode, (Consumer<Pipeline>) DataflowAcceptanceTest::writeMany));
      cases.add(
          Arguments.of(
              "read_changelog_bounded",
              mode,
              (Consumer<Pipeline>) p -> p.apply(changelog().fromSnapshot(1).untilSnapshot(2))));
    }
    for (Mode mode : List.of(Mode.STREAMING_V2, Mode.STREAMING_V1)) {
      cases.add(
          Arguments.of(
              "write_unbounded_input",
              mode,
              (Consumer<Pipeline>) DataflowAcceptanceTest::writeUnbounded));
      cases.add(
          Arguments.of(
              "read_changelog_unbounded",
              mode,
              (Consumer<Pipeline>) p -> p.apply(changelog().withConsumerId("dataflow-check"))));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("transforms")
  void dataflowAcceptsTheTransform(String name, Mode mode, Consumer<Pipeline> build)
      throws Exception {
    Path job = root.resolve("jobs").resolve(name + "-" + mode);
    Pipeline pipeline =
        Pipeline.create(
            PipelineOptionsFactory.fromArgs(dataflowArgs(job, mode).toArray(String[]::new))
                .as(DataflowPipelineOptions.class));
    build.accept(pipeline);
    check(name, mode, job, pipeline.run());
  }

  static Stream<Arguments> templates() {
    List<Arguments> cases = new ArrayList<>();
    for (Mode mode : Mode.values()) {
      for (TemplateCatalog template : TemplateCatalog.values()) {
        cases.add(Arguments.of(template, mode));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void dataflowAcceptsTheCdcTemplatesDatabaseMode(Mode mode) throws Exception {
    Path job = root.resolve("jobs").resolve("cdc-to-table-database-" + mode);
    Path input = root.resolve("database-events/inventory.json");
    Files.createDirectories(input.getParent());
    Files.writeString(
        input,
        "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"field\":\"after\",\"type\":\"struct\","
            + "\"fields\":[{\"field\":\"order_id\",\"type\":\"int64\"}]}]},\"payload\":{\"before\":null,"
            + "\"after\":{\"order_id\":1},\"op\":\"c\",\"ts_ms\":1,"
            + "\"source\":{\"db\":\"inventory\",\"table\":\"orders\"}}}\n");
    List<String> args = new ArrayList<>(dataflowArgs(job, mode));
    args.addAll(
        List.of(
            "--warehouse=" + warehouse,
            "--database=shop",
            "--deadLetterDir=" + job.resolve("dead"),
            "--inputFilePattern=" + input,
            "--tableNameFormat={db}_{table}_" + mode.name().toLowerCase(),
            "--primaryKeys=inventory.orders=order_id"));
    check(
        "cdc-to-table-database",
        mode,
        job,
        TemplateCatalog.CDC_TO_TABLE.run(args.toArray(String[]::new)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("templates")
  void dataflowAcceptsTheTemplate(TemplateCatalog template, Mode mode) throws Exception {
    Path job = root.resolve("jobs").resolve(template.templateName() + "-" + mode);
    List<String> args = new ArrayList<>(dataflowArgs(job, mode));
    args.addAll(templateArgs(template, mode, job));
    check(template.templateName(), mode, job, template.run(args.toArray(String[]::new)));
  }

  private static void write(Pipeline p) {
    p.apply(Create.of(Row.withSchema(ORDER).addValues(1L, 10L, 100L).build()).withRowSchema(ORDER))
        .apply(
            ChangelakeIO.write()
                .to(warehouse, "shop", "written_" + UUID.randomUUID().toString().replace('-', '_'))
                .withPrimaryKeys(List.of("order_id"))
                .withBuckets(2)
                .withTableOptions(Map.of("changelog-producer", "lookup")));
  }

  private static void writeMany(Pipeline p) {
    Schema routed = Schema.builder().addStringField("target").addFields(ORDER.getFields()).build();
    p.apply(
            Create.of(
                    Row.withSchema(routed).addValues("shop.many_a", 1L, 10L, 100L).build(),
                    Row.withSchema(routed).addValues("shop.many_b", 2L, 20L, 200L).build())
                .withRowSchema(routed))
        .apply(
            ChangelakeIO.write()
                .toDestinations(
                    warehouse, Destination.ofField("target"), DataflowAcceptanceTest::manyTable));
  }

  /** Every table of {@link #writeMany}: the order columns, two buckets. */
  private static TableDefinition manyTable(Destination destination) {
    return TableDefinition.of(List.of("order_id", "store_id", "amount"), List.of("order_id"))
        .withBuckets(2);
  }

  private static void writeUnbounded(Pipeline p) {
    p.apply(GenerateSequence.from(0).withRate(10, org.joda.time.Duration.standardSeconds(1)))
        .apply(
            MapElements.into(TypeDescriptors.rows())
                .via(n -> Row.withSchema(ORDER).addValues(n % 100, n % 7, n).build()))
        .setRowSchema(ORDER)
        .apply(
            ChangelakeIO.write()
                .to(warehouse, "shop", "streamed")
                .withPrimaryKeys(List.of("order_id"))
                // amount is the generator's count: it grows with each change of an order.
                .withSequenceField("amount")
                .withTableOptions(Map.of("changelog-producer", "input")));
  }

  private static void read(Pipeline p) {
    p.apply(
        ChangelakeIO.read().from(warehouse, "shop", "orders").withColumns("order_id", "amount"));
  }

  private static io.changelake.beam.ReadChangelog changelog() {
    return ChangelakeIO.readChangelog().from(warehouse, "shop", "orders");
  }

  /**
   * Dataflow options that keep everything on this machine; see the class documentation. One small
   * real file stands in for the class path to stage: staging the test class path would copy some
   * 400 MB per case, and what is staged does not change the translation.
   */
  private static List<String> dataflowArgs(Path job, Mode mode) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--runner=DataflowRunner",
                "--project=changelake-offline",
                "--region=us-central1",
                "--jobName=changelake-"
                    + job.getFileName().toString().toLowerCase().replace('_', '-'),
                "--dataflowEndpoint=http://127.0.0.1:1/",
                "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory",
                "--pathValidatorClass=org.apache.beam.sdk.extensions.gcp.storage.NoopPathValidator",
                "--stagerClass=" + LocalFolderStager.class.getName(),
                "--gcpTempLocation=gs://changelake-offline/temp",
                "--stagingLocation=" + job.resolve("staging"),
                "--filesToStage=" + events,
                "--templateLocation=" + job.resolve("job.json")));
    if (mode.runnerV2) {
      args.add("--experiments=use_runner_v2");
    }
    if (mode.streaming) {
      args.add("--streaming=true");
    }
    return args;
  }

  private static List<String> templateArgs(TemplateCatalog template, Mode mode, Path job) {
    List<String> common =
        List.of(
            "--warehouse=" + warehouse,
            "--database=shop",
            "--deadLetterDir=" + job.resolve("dead"));
    List<String> cdc =
        List.of(
            "--inputFilePattern=" + events.getParent().resolve("*.json"),
            "--table=cdc_" + mode.name().toLowerCase(),
            "--columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT",
            "--primaryKeys=order_id",
            "--producer=lookup",
            "--buckets=2");
    List<String> aggregate =
        List.of(
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=totals_"
                + template.templateName().replace('-', '_')
                + "_"
                + mode.name().toLowerCase());
    if (template == TemplateCatalog.COMPACT_TABLE) {
      // No dead letters: a compaction job has no input records.
      List<String> compact = new ArrayList<>(common.subList(0, 2));
      compact.add("--table=orders");
      if (mode.streaming) {
        compact.add("--everySeconds=60");
      }
      return compact;
    }
    List<String> args = new ArrayList<>(common);
    switch (template) {
      case CDC_TO_TABLE -> args.addAll(cdc);
      case CDC_TO_AGGREGATE -> {
        args.addAll(cdc);
        args.addAll(aggregate);
      }
      case CHANGELOG_TO_AGGREGATE -> {
        args.add("--sourceTable=orders");
        args.addAll(aggregate);
        if (!mode.streaming) {
          args.addAll(List.of("--startSnapshot=1", "--endSnapshot=2"));
        }
      }
      case COMPACT_TABLE -> throw new AssertionError("handled above");
    }
    return args;
  }

  /** What every case must show: see the class documentation. */
  private static void check(String name, Mode mode, Path job, PipelineResult result)
      throws Exception {
    assertInstanceOf(DataflowTemplateJob.class, result, "no job is created, only its file");
    JsonNode spec = new ObjectMapper().readTree(job.resolve("job.json").toFile());
    assertEquals(
        mode.streaming ? "JOB_TYPE_STREAMING" : "JOB_TYPE_BATCH", spec.path("type").asText());
    Set<String> experiments = new TreeSet<>();
    spec.path("environment").path("experiments").forEach(e -> experiments.add(e.asText()));
    assertEquals(mode.runnerV2, experiments.contains("use_runner_v2"), experiments.toString());
    Path stagedPipeline = job.resolve("staging").resolve("pipeline.pb");
    assertEquals(
        stagedPipeline.toString(),
        spec.path("environment")
            .path("sdkPipelineOptions")
            .path("options")
            .path("pipelineUrl")
            .asText(),
        "the job names the staged portable pipeline");
    // Runner v2 jobs carry only the portable pipeline (the SDK skips the v1 step translation and
    // its per-DoFn checks); the legacy runner's steps are where DataflowRunner checks each DoFn.
    assertEquals(!mode.runnerV2, spec.path("steps").size() > 0, "steps only for the legacy runner");

    byte[] staged = Files.readAllBytes(stagedPipeline);
    RunnerApi.Pipeline portable = RunnerApi.Pipeline.parseFrom(staged);
    assertEquals(
        org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString.copyFrom(staged),
        portable.toByteString(),
        "the portable proto parses back to the same bytes");
    RehydratedComponents components = RehydratedComponents.forComponents(portable.getComponents());
    for (String coder : portable.getComponents().getCodersMap().keySet()) {
      assertNotNull(components.getCoder(coder), coder);
    }
    for (String strategy : portable.getComponents().getWindowingStrategiesMap().keySet()) {
      assertNotNull(components.getWindowingStrategy(strategy), strategy);
    }
    Set<String> ours = new TreeSet<>();
    String parDo = BeamUrns.getUrn(RunnerApi.StandardPTransforms.Primitives.PAR_DO);
    for (RunnerApi.PTransform transform : portable.getComponents().getTransformsMap().values()) {
      if (!transform.getSpec().getUrn().equals(parDo)) {
        continue;
      }
      RunnerApi.ParDoPayload payload =
          RunnerApi.ParDoPayload.parseFrom(transform.getSpec().getPayload());
      DoFn<?, ?> fn = ParDoTranslation.getDoFn(payload);
      DoFnSignature signature = DoFnSignatures.getSignature(fn.getClass());
      assertNotNull(signature);
      if (fn.getClass().getName().startsWith("io.changelake.")) {
        ours.add(fn.getClass().getSimpleName() + describe(signature));
      }
    }
    assertFalse(ours.isEmpty(), "the proto holds changelake's DoFns");
    System.out.printf(
        "DATAFLOW case=%s mode=%s v1_steps=%d proto_transforms=%d dofns=%s%n",
        name, mode, spec.path("steps").size(), portable.getComponents().getTransformsCount(), ours);
  }

  /** The features of a DoFn that Dataflow checks, for the printed summary. */
  private static String describe(DoFnSignature s) {
    List<String> features = new ArrayList<>();
    if (!s.stateDeclarations().isEmpty()) {
      features.add("state");
    }
    if (!s.timerDeclarations().isEmpty() || !s.timerFamilyDeclarations().isEmpty()) {
      features.add("timers");
    }
    if (s.processElement().isSplittable()) {
      features.add("splittable");
    }
    if (s.processElement().requiresStableInput()) {
      features.add("stable-input");
    }
    if (s.processElement().extraParameters().stream()
        .anyMatch(p -> p instanceof DoFnSignature.Parameter.BundleFinalizerParameter)) {
      features.add("bundle-finalizer");
    }
    return features.isEmpty() ? "" : features.toString();
  }
}
