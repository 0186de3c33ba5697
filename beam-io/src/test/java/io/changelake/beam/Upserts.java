package io.changelake.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.runners.direct.DirectOptions;
import org.apache.beam.runners.direct.DirectRunner;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.GenerateSequence;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Test fixture: n upserts over a key space, as a bounded Beam input and as the table rows they
 * leave. Upsert i writes order {@code i % keys} with amount i; the table orders versions by amount
 * ({@code sequence.field}), since a bounded PCollection has no order, so the last upsert of each
 * key wins whatever order the runner delivers them in.
 */
final class Upserts {

  final long count;
  final long keys;

  Upserts(long count, long keys) {
    this.count = count;
    this.keys = keys;
  }

  /** Table options for these upserts under a producer. */
  Map<String, String> options(String producer, int buckets) {
    return Map.of(
        "bucket",
        Integer.toString(buckets),
        "changelog-producer",
        producer,
        "sequence.field",
        "amount");
  }

  static Row row(long i, long keys) {
    return OrderRows.change("+I", i % keys, i % 7, i);
  }

  PCollection<Row> input(Pipeline pipeline) {
    long keySpace = keys;
    return pipeline
        .apply(GenerateSequence.from(0).to(count))
        .apply(MapElements.into(TypeDescriptors.rows()).via(i -> row(i, keySpace)))
        .setRowSchema(OrderRows.SCHEMA);
  }

  /** The row i of the storage-level writer: the same values as {@link #row}. */
  static Object[] tableRow(long i, long keys) {
    return new Object[] {i % keys, i % 7, i};
  }

  List<Object[]> expected() {
    List<Object[]> rows = new ArrayList<>();
    for (long k = 0; k < keys; k++) {
      rows.add(tableRow(count - keys + k, keys));
    }
    return rows;
  }

  /** A DirectRunner pipeline without the per-element immutability and encoding checks. */
  static Pipeline fastPipeline() {
    DirectOptions options = PipelineOptionsFactory.as(DirectOptions.class);
    options.setRunner(DirectRunner.class);
    options.setEnforceImmutability(false);
    options.setEnforceEncodability(false);
    options.setBlockOnRun(true);
    return Pipeline.create(options);
  }
}
