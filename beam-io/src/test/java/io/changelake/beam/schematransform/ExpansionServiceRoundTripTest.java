package io.changelake.beam.schematransform;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.beam.SeedTables;
import io.changelake.store.LocalObjectStore;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.beam.model.expansion.v1.ExpansionApi;
import org.apache.beam.model.expansion.v1.ExpansionServiceGrpc;
import org.apache.beam.model.pipeline.v1.ExternalTransforms.SchemaTransformPayload;
import org.apache.beam.model.pipeline.v1.RunnerApi;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.expansion.service.ExpansionServer;
import org.apache.beam.sdk.expansion.service.ExpansionService;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.SchemaTranslation;
import org.apache.beam.sdk.schemas.transforms.SchemaTransformProvider;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.util.construction.BeamUrns;
import org.apache.beam.sdk.util.construction.PipelineOptionsTranslation;
import org.apache.beam.sdk.util.construction.PipelineTranslation;
import org.apache.beam.sdk.util.construction.SdkComponents;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.vendor.grpc.v1p69p0.com.google.protobuf.ByteString;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannel;
import org.apache.beam.vendor.grpc.v1p69p0.io.grpc.ManagedChannelBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a Python or Beam YAML pipeline does with changelake, done from the other side of the wire:
 * Beam's own expansion service runs in-process on 127.0.0.1, a gRPC client first discovers the
 * SchemaTransforms (as {@code SchemaAwareExternalTransform} and YAML's provider do), then sends
 * each an {@code ExpansionRequest} with URN {@code beam:expansion:payload:schematransform:v1} and a
 * {@code SchemaTransformPayload} (identifier, configuration schema, RowCoder-encoded configuration
 * row), and checks the expanded transform: named outputs, no error, and the primitives and
 * requirements a portable runner is told about (stateful ParDos for the write, a splittable DoFn
 * for the changelog).
 */
class ExpansionServiceRoundTripTest {

  private static ExpansionService service;
  private static ExpansionServer server;
  private static ManagedChannel channel;
  private static ExpansionServiceGrpc.ExpansionServiceBlockingStub client;

  @TempDir Path warehouse;

  @BeforeAll
  static void startExpansionService() throws Exception {
    service = new ExpansionService();
    server = ExpansionServer.create(service, "127.0.0.1", 0);
    channel =
        ManagedChannelBuilder.forAddress(server.getHost(), server.getPort()).usePlaintext().build();
    client = ExpansionServiceGrpc.newBlockingStub(channel);
  }

  @AfterAll
  static void stopExpansionService() throws Exception {
    channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server.close();
    service.close();
  }

  @Test
  void discoveryListsEachTransformWithItsConfiguration() {
    ExpansionApi.DiscoverSchemaTransformResponse discovered =
        client.discoverSchemaTransform(
            ExpansionApi.DiscoverSchemaTransformRequest.getDefaultInstance());
    assertEquals("", discovered.getError());
    for (SchemaTransformProvider provider :
        List.of(
            new WriteSchemaTransformProvider(),
            new ReadSchemaTransformProvider(),
            new ReadChangelogSchemaTransformProvider())) {
      ExpansionApi.SchemaTransformConfig config =
          discovered.getSchemaTransformConfigsOrThrow(provider.identifier());
      assertEquals(
          provider.configurationSchema().getFieldNames(),
          SchemaTranslation.schemaFromProto(config.getConfigSchema()).getFieldNames());
      assertEquals(provider.inputCollectionNames(), config.getInputPcollectionNamesList());
      assertEquals(provider.outputCollectionNames(), config.getOutputPcollectionNamesList());
      assertFalse(config.getDescription().isBlank());
    }
  }

  @Test
  void writeExpandsWithItsInputAndNamedOutputs() throws Exception {
    // The caller's side: its pipeline so far, with the PCollection of rows to write.
    Pipeline caller = Pipeline.create();
    PCollection<Row> orders =
        caller.apply(
            Create.of(
                    Row.withSchema(WriteSchemaTransformProviderTest.ORDERS)
                        .addValues(1001L, 10L, 100L, "+I")
                        .build())
                .withRowSchema(WriteSchemaTransformProviderTest.ORDERS));
    SdkComponents callerComponents = SdkComponents.create(caller.getOptions());
    RunnerApi.Pipeline callerProto = PipelineTranslation.toProto(caller, callerComponents);
    String input = callerComponents.registerPCollection(orders);

    WriteSchemaTransformProvider provider = new WriteSchemaTransformProvider();
    ExpansionApi.ExpansionResponse response =
        expand(
            provider.identifier(),
            configurationOf(
                provider,
                Map.of(
                    "warehouse",
                    warehouse.toString(),
                    "database",
                    "shop",
                    "table",
                    "orders",
                    "primary_keys",
                    List.of("order_id"),
                    "table_options",
                    Map.of("changelog-producer", "lookup"),
                    "row_kind_field",
                    "op")),
            callerProto.getComponents(),
            Map.of("input", input));

    assertEquals("", response.getError());
    assertEquals(
        List.of("dead_letters", "snapshots"),
        response.getTransform().getOutputsMap().keySet().stream().sorted().toList());
    assertThat(
        response.getRequirementsList(),
        hasItem(BeamUrns.getUrn(RunnerApi.StandardRequirements.Enum.REQUIRES_STATEFUL_PROCESSING)));
    assertThat(
        response.getRequirementsList(),
        hasItem(BeamUrns.getUrn(RunnerApi.StandardRequirements.Enum.REQUIRES_STABLE_INPUT)));
    List<String> statefulSteps = statefulParDos(response.getComponents());
    assertThat(statefulSteps, hasItems(containing("WriteBuckets"), containing("Commit")));
  }

  @Test
  void readAndReadChangelogExpandWithoutInputs() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      SeedTables.writeSeedStory(
          SeedTables.create(store, Map.of("changelog-producer", "lookup")), true);
    }
    Map<String, Object> table =
        Map.of("warehouse", warehouse.toString(), "database", "shop", "table", "orders");

    ReadSchemaTransformProvider read = new ReadSchemaTransformProvider();
    ExpansionApi.ExpansionResponse readResponse =
        expand(
            read.identifier(),
            configurationOf(read, table),
            RunnerApi.Components.getDefaultInstance(),
            Map.of());
    assertEquals("", readResponse.getError());
    assertEquals(Map.of(), readResponse.getTransform().getInputsMap());
    assertEquals(
        List.of("output"), List.copyOf(readResponse.getTransform().getOutputsMap().keySet()));

    ReadChangelogSchemaTransformProvider changelog = new ReadChangelogSchemaTransformProvider();
    Map<String, Object> following = new HashMap<>(table);
    following.put("consumer_id", "store-totals");
    ExpansionApi.ExpansionResponse changelogResponse =
        expand(
            changelog.identifier(),
            configurationOf(changelog, following),
            RunnerApi.Components.getDefaultInstance(),
            Map.of());
    assertEquals("", changelogResponse.getError());
    assertThat(
        changelogResponse.getRequirementsList(),
        hasItem(BeamUrns.getUrn(RunnerApi.StandardRequirements.Enum.REQUIRES_SPLITTABLE_DOFN)));
    RunnerApi.PCollection output =
        changelogResponse
            .getComponents()
            .getPcollectionsOrThrow(changelogResponse.getTransform().getOutputsOrThrow("output"));
    assertEquals(RunnerApi.IsBounded.Enum.UNBOUNDED, output.getIsBounded());
  }

  @Test
  void aBadConfigurationComesBackAsAnErrorNamingTheField() throws Exception {
    ReadChangelogSchemaTransformProvider changelog = new ReadChangelogSchemaTransformProvider();
    ExpansionApi.ExpansionResponse response =
        expand(
            changelog.identifier(),
            configurationOf(
                changelog,
                Map.of(
                    "warehouse", warehouse.toString(),
                    "table", "orders",
                    "start", "earliest")),
            RunnerApi.Components.getDefaultInstance(),
            Map.of());
    assertTrue(
        response.getError().contains("configuration field 'start' is 'earliest'"),
        response.getError());
  }

  /** The configuration row as an SDK encodes it: the discovered schema, every field present. */
  private static Row configurationOf(SchemaTransformProvider provider, Map<String, Object> values) {
    Schema schema = provider.configurationSchema();
    Map<String, Object> all = new HashMap<>();
    for (String field : schema.getFieldNames()) {
      all.put(field, values.get(field));
    }
    return Row.withSchema(schema).withFieldValues(all).build();
  }

  private static ExpansionApi.ExpansionResponse expand(
      String identifier,
      Row configuration,
      RunnerApi.Components components,
      Map<String, String> inputs)
      throws Exception {
    ByteArrayOutputStream encoded = new ByteArrayOutputStream();
    RowCoder.of(configuration.getSchema()).encode(configuration, encoded);
    SchemaTransformPayload payload =
        SchemaTransformPayload.newBuilder()
            .setIdentifier(identifier)
            .setConfigurationSchema(
                SchemaTranslation.schemaToProto(configuration.getSchema(), true))
            .setConfigurationRow(ByteString.copyFrom(encoded.toByteArray()))
            .build();
    RunnerApi.PTransform transform =
        RunnerApi.PTransform.newBuilder()
            .setUniqueName("changelake")
            .setSpec(
                RunnerApi.FunctionSpec.newBuilder()
                    .setUrn(
                        BeamUrns.getUrn(
                            org.apache.beam.model.pipeline.v1.ExternalTransforms.ExpansionMethods
                                .Enum.SCHEMA_TRANSFORM))
                    .setPayload(payload.toByteString()))
            .putAllInputs(inputs)
            .build();
    return client.expand(
        ExpansionApi.ExpansionRequest.newBuilder()
            .setComponents(components)
            .setTransform(transform)
            .setNamespace("python-caller")
            .setPipelineOptions(PipelineOptionsTranslation.toProto(PipelineOptionsFactory.create()))
            .build());
  }

  /** The unique names of the ParDos in {@code components} that declare state or timers. */
  private static List<String> statefulParDos(RunnerApi.Components components) throws Exception {
    String parDo = BeamUrns.getUrn(RunnerApi.StandardPTransforms.Primitives.PAR_DO);
    return components.getTransformsMap().values().stream()
        .filter(t -> t.getSpec().getUrn().equals(parDo))
        .filter(
            t -> {
              try {
                RunnerApi.ParDoPayload p =
                    RunnerApi.ParDoPayload.parseFrom(t.getSpec().getPayload());
                return p.getStateSpecsCount() > 0 || p.getTimerFamilySpecsCount() > 0;
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            })
        .map(RunnerApi.PTransform::getUniqueName)
        .collect(Collectors.toList());
  }

  private static org.hamcrest.Matcher<String> containing(String part) {
    return org.hamcrest.Matchers.containsString(part);
  }
}
