package io.changelake.beam.schematransform;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertThrows;

import io.changelake.beam.SeedTables;
import io.changelake.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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
 * The read_changelog SchemaTransform built from a configuration row follows a lookup table's
 * changelog (the price correction as -U(100), +U(80)), bounded by end_snapshot, and refuses bad
 * configurations naming the field.
 */
public class ReadChangelogSchemaTransformProviderTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  private final ReadChangelogSchemaTransformProvider provider =
      new ReadChangelogSchemaTransformProvider();

  private String storyWarehouse() throws Exception {
    Path warehouse = folder.newFolder().toPath();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      SeedTables.writeSeedStory(
          SeedTables.create(store, Map.of("changelog-producer", "lookup")), false);
    }
    return warehouse.toString();
  }

  private Row changelogConfiguration(String warehouse, Map<String, Object> more) {
    Map<String, Object> values =
        new HashMap<>(Map.of("warehouse", warehouse, "database", "shop", "table", "orders"));
    values.putAll(more);
    return WriteSchemaTransformProviderTest.configuration(provider.configurationSchema(), values);
  }

  @Test
  public void followsTheChangelogBetweenSnapshots() throws Exception {
    String warehouse = storyWarehouse();
    PCollection<Row> changes =
        PCollectionRowTuple.empty(pipeline)
            .apply(
                provider.from(
                    changelogConfiguration(
                        warehouse,
                        Map.of(
                            "start",
                            "from-snapshot",
                            "start_snapshot",
                            1L,
                            "end_snapshot",
                            2L,
                            "row_kind_field",
                            "op"))))
            .get("output");
    Schema schema = changes.getSchema();
    PAssert.that(changes)
        .containsInAnyOrder(
            Row.withSchema(schema).addValues(1001L, 10L, 100L, "+I").build(),
            Row.withSchema(schema).addValues(1001L, 10L, 100L, "-U").build(),
            Row.withSchema(schema).addValues(1001L, 10L, 80L, "+U").build());
    pipeline.run().waitUntilFinish();
  }

  @Test
  public void configurationErrorsNameTheField() throws Exception {
    String warehouse = storyWarehouse();
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> provider.from(changelogConfiguration(warehouse, Map.of("start", "earliest"))))
            .getMessage(),
        containsString("configuration field 'start' is 'earliest': use one of"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    provider.from(changelogConfiguration(warehouse, Map.of("start_snapshot", 3L))))
            .getMessage(),
        containsString(
            "configuration field 'start_snapshot' does not apply unless start is from-snapshot"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    provider.from(
                        changelogConfiguration(warehouse, Map.of("start", "from-snapshot"))))
            .getMessage(),
        containsString(
            "configuration field 'start_snapshot' is required with start from-snapshot"));
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    provider.from(
                        changelogConfiguration(warehouse, Map.of("poll_interval_seconds", 0L))))
            .getMessage(),
        containsString("configuration field 'poll_interval_seconds' must be at least 1"));
  }
}
