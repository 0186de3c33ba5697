package io.changelake.beam.schematransform;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.changelake.store.ObjectStore;
import io.changelake.store.ObjectStores;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.transforms.SchemaTransform;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.testing.TestPipeline;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.PCollectionRowTuple;
import org.apache.beam.sdk.values.Row;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The write SchemaTransform built from a configuration row, as Python or YAML would give it, writes
 * the rows, outputs the snapshot and the dead letters, and refuses bad configurations naming the
 * field.
 */
public class WriteSchemaTransformProviderTest {

  @Rule public final transient TestPipeline pipeline = TestPipeline.create();
  @Rule public final TemporaryFolder folder = new TemporaryFolder();

  static final Schema ORDERS =
      Schema.builder()
          .addInt64Field("order_id")
          .addNullableField("store_id", Schema.FieldType.INT64)
          .addNullableField("amount", Schema.FieldType.INT64)
          .addStringField("op")
          .build();

  private final WriteSchemaTransformProvider provider = new WriteSchemaTransformProvider();

  /** A configuration row with the provider's own schema and {@code values} by field name. */
  static Row configuration(Schema schema, Map<String, Object> values) {
    return Row.withSchema(schema).withFieldValues(values).build();
  }

  private Row writeConfiguration(String warehouse, Map<String, Object> more) {
    Map<String, Object> values =
        new java.util.HashMap<>(
            Map.of(
                "warehouse",
                warehouse,
                "database",
                "shop",
                "table",
                "orders",
                "primary_keys",
                List.of("order_id"),
                "buckets",
                2,
                "table_options",
                Map.of("changelog-producer", "lookup"),
                "row_kind_field",
                "op"));
    values.putAll(more);
    return configuration(provider.configurationSchema(), values);
  }

  private static Row order(long id, long store, long amount, String op) {
    return Row.withSchema(ORDERS).addValues(id, store, amount, op).build();
  }

  @Test
  public void writesRowsAndOutputsSnapshotsAndDeadLetters() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    SchemaTransform write = provider.from(writeConfiguration(warehouse, Map.of()));
    PCollectionRowTuple out =
        PCollectionRowTuple.of(
                "input",
                pipeline.apply(
                    Create.of(
                            order(1001, 10, 100, "+I"),
                            order(1002, 10, 40, "+I"),
                            order(1003, 11, 7, "*U"))
                        .withRowSchema(ORDERS)))
            .apply(write);

    PAssert.that(out.get("snapshots"))
        .satisfies(
            snapshots -> {
              List<Row> all = StreamSupport.stream(snapshots.spliterator(), false).toList();
              assertEquals(1, all.size());
              assertEquals(1L, (long) all.get(0).getInt64("snapshot_id"));
              return null;
            });
    PAssert.that(out.get("dead_letters"))
        .satisfies(
            dead -> {
              List<Row> all = StreamSupport.stream(dead.spliterator(), false).toList();
              assertEquals(1, all.size());
              assertThat(
                  all.get(0).getString("error_message"), containsString("'*U' is not a row kind"));
              assertThat(all.get(0).getString("record"), containsString("1003"));
              return null;
            });
    pipeline.run().waitUntilFinish();

    try (ObjectStore store = ObjectStores.open(warehouse)) {
      Table table = Table.open(store, new TablePath("shop", "orders"));
      assertEquals("lookup", table.options().get("changelog-producer"));
      assertEquals(
          List.of("[1001, 10, 100]", "[1002, 10, 40]"),
          table.newRead().readAll().stream().map(Arrays::toString).sorted().toList());
    }
  }

  @Test
  public void configurationErrorsNameTheField() throws Exception {
    String warehouse = folder.newFolder().toPath().toString();
    assertThat(
        assertThrows(
                IllegalArgumentException.class,
                () -> provider.from(writeConfiguration(warehouse, Map.of("buckets", 0))))
            .getMessage(),
        containsString("configuration field 'buckets' must be at least 1, got 0"));

    Row missingTable =
        Row.withSchema(Schema.builder().addStringField("warehouse").build())
            .addValue(warehouse)
            .build();
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> provider.from(missingTable))
            .getMessage(),
        containsString("configuration field 'table' is required"));

    Row misspelt =
        Row.withSchema(
                Schema.builder()
                    .addStringField("warehouse")
                    .addStringField("table")
                    .addInt32Field("bucket")
                    .build())
            .addValues(warehouse, "orders", 2)
            .build();
    assertThat(
        assertThrows(IllegalArgumentException.class, () -> provider.from(misspelt)).getMessage(),
        containsString("unknown configuration field 'bucket'"));

    SchemaTransform noSuchKindField =
        provider.from(writeConfiguration(warehouse, Map.of("row_kind_field", "kind")));
    IllegalArgumentException atApply =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PCollectionRowTuple.of(
                        "input",
                        Pipeline.create()
                            .apply(Create.of(order(1, 1, 1, "+I")).withRowSchema(ORDERS)))
                    .apply(noSuchKindField));
    assertThat(atApply.getMessage(), containsString("configuration field 'row_kind_field'"));
  }
}
