package io.changelake.beam;

import io.changelake.table.Consumers;
import java.io.IOException;
import org.apache.beam.sdk.transforms.DoFn.BundleFinalizer;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * Records a consumer's next snapshot in {@code consumer/consumer-<id>}, once the bundle that
 * emitted the tasks of the snapshots before it is committed: only then are those tasks durable in
 * the runner, so a restart from the consumer neither repeats nor skips a snapshot, and snapshot
 * expiry keeps every snapshot from the recorded one on.
 *
 * <p>Callbacks of successive bundles may run out of order; a record never moves back.
 */
final class ConsumerProgress {

  /** How long a runner may hold a committed bundle's callback before dropping it. */
  private static final Duration CALLBACK_EXPIRY = Duration.standardHours(1);

  private final Consumers consumers;
  private final String consumerId;
  private long recorded;

  ConsumerProgress(Consumers consumers, String consumerId) {
    this.consumers = consumers;
    this.consumerId = consumerId;
  }

  /** Records {@code nextSnapshot} after the current bundle commits. */
  void recordAfterCommit(BundleFinalizer finalizer, long nextSnapshot) {
    finalizer.afterBundleCommit(Instant.now().plus(CALLBACK_EXPIRY), () -> record(nextSnapshot));
  }

  private synchronized void record(long nextSnapshot) throws IOException {
    if (nextSnapshot > recorded) {
      consumers.record(consumerId, nextSnapshot);
      recorded = nextSnapshot;
    }
  }
}
