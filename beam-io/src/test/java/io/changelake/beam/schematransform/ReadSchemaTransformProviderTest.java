package io.changelake.beam.schematransform;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertThrows;

import io.changelake.beam.SeedTables;
import io.changelake.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionRowTuple;
import org.apache.beam.sdk.values.Row;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The read SchemaTransform built from a configuration row reads a snapshot's merged rows, with
 * projection and snapshot choice, and refuses bad configurations naming the field.
 */
public class ReadSchemaTransformProviderTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private final ReadSchemaTransformProvider provider = new ReadSchemaTransformProvider();

  private String storyWarehouse() throws Exception {
    Path warehouse = folder.newFolder().toPath();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      SeedTables.writeSeedStory(
          SeedTables.create(store, Map.of("changelog-producer", "lookup")), true);
    }
    return warehouse.toString();
  }

  private Row readConfiguration(String warehouse, Map<String, Object> more) {
    Map<String, Object> values =
        new HashMap<>(Map.of("warehouse", warehouse, "database", "shop", "table", "orders"));
    values.putAll(more);
    return WriteSchemaTransformProviderTest.configuration(provider.configurationSchema(), values);
  }

  @Test
  public void readsTheChosenSnapshotWithTheChosenColumns() throws Exception {
    String warehouse = storyWarehouse();
    Schema projected =
        Schema.builder()
            .addInt64Field("order_id")
            .addNullableField("amount", Schema.FieldType.INT64)
            .build();
    PCollection<Row> latest =
        PCollectionRowTuple.empty(pipeline)
            .apply(
                "Latest",
                provider.from(
                    readConfiguration(warehouse, Map.of("columns", List.of("order_id", "amount")))))
            .get("output");
    PCollection<Row> first =
        PCollectionRowTuple.empty(pipeline)
            .apply(
                "First",
                provider.from(
                    readConfiguration(
                        warehouse,
                        Map.of("snapshot_id", 1L, "columns", List.of("order_id", "amount")))))
            .get("output");
    PAssert.that(latest)
        .containsInAnyOrder(Row.withSchema(projected).addValues(1001L, 80L).build());
    PAssert.that(first)
        .containsInAnyOrder(Row.withSchema(projected).addValues(1001L, 100L).build());
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void configurationErrorsNameTheField() throws Exception {
    String warehouse = storyWarehouse();
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    provider.from(
                        readConfiguration(
                            warehouse, Map.of("snapshot_id", 1L, "as_of_timestamp_millis", 5L))))
            .getMessage(),
        containsString(
            "configuration field 'as_of_timestamp_millis' does not apply together with snapshot_id"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    PCollectionRowTuple.empty(Pipeline.create())
                        .apply(
                            provider.from(
                                readConfiguration(warehouse, Map.of("columns", List.of("price"))))))
            .getMessage(),
        containsString("configuration field 'columns': column 'price' is not in the table"));
  }
}
