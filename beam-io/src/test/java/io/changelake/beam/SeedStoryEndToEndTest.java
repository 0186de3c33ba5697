package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Table;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seed story through Beam on both sides: {@code ChangelakeIO.write()} takes order 1001 at 100,
 * then its correction to 80 as an upsert without a before-image, and {@code
 * ChangelakeIO.readChangelog()} feeds a downstream SUM per store: 80 with the lookup and
 * full-compaction producers, 180 with none (it has no retraction to give).
 */
class SeedStoryEndToEndTest {

  @TempDir java.nio.file.Path warehouse;

  @ParameterizedTest(name = "{0}: SUM {1}")
  @CsvSource({"lookup, 80", "full-compaction, 80", "none, 180"})
  void beamWriteThenBeamChangelogReadGivesTheProducersAggregate(String producer, long expected)
      throws Exception {
    Map<String, String> options = Map.of("changelog-producer", producer);
    write(OrderRows.order(1001, 10, 100), options);
    write(OrderRows.change("+U", 1001L, 10L, 80L), options);

    long latest;
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      latest = Table.open(store, OrderRows.PATH).snapshots().latestId().orElseThrow();
    }
    Pipeline read = Pipeline.create();
    CollectedRows<KV<Long, Long>> sums = new CollectedRows<>();
    sums.collect(
        SeedTables.sumPerStore(
            read.apply(
                ChangelakeIO.readChangelog()
                    .from(warehouse.toString(), OrderRows.PATH.database(), OrderRows.PATH.table())
                    .withColumns("order_id", "store_id", "amount")
                    .betweenSnapshots(0, latest))));
    read.run().waitUntilFinish();
    Map<Long, Long> byStore = new HashMap<>();
    sums.elements().forEach(kv -> byStore.put(kv.getKey(), kv.getValue()));
    assertEquals(Map.of(10L, expected), byStore);
  }

  /** One batch pipeline, one commit. */
  private void write(Row row, Map<String, String> options) {
    Pipeline pipeline = Pipeline.create();
    pipeline
        .apply(Create.of(row).withCoder(SchemaCoder.of(OrderRows.SCHEMA)))
        .apply(OrderRows.write(warehouse.toString(), options));
    pipeline.run().waitUntilFinish();
  }
}
