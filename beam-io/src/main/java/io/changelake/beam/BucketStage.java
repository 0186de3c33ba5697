package io.changelake.beam;

import java.io.Serializable;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;

/**
 * Makes the stateful DoFn that hosts the bucket writers: {@link WriteBucketFn} unless a benchmark
 * puts a writer that does nothing in its place, to measure what the topology around it costs.
 */
@FunctionalInterface
interface BucketStage extends Serializable {

  DoFn<KV<String, Iterable<KindedRow>>, KV<String, WrittenBatch>> create(
      Destinations destinations,
      TupleTag<KV<String, WrittenBatch>> writtenTag,
      TupleTag<BadRecord> deadLetterTag,
      FaultInjection faults,
      long idleTimeoutMillis,
      boolean waitCompaction);
}
