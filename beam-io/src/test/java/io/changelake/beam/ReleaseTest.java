package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ConcurrentModificationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A teardown's release never throws: the DirectRunner tears DoFns down on cancel while a worker may
 * still be inside a bundle, where a Kafka consumer refuses to close from another thread (the
 * failure that made a cancel of the CDC-from-Kafka template fail).
 */
class ReleaseTest {

  @Test
  void aReleaseRefusedBecauseAnotherThreadHoldsTheResourceIsLoggedNotThrown() {
    AutoCloseable heldElsewhere =
        () -> {
          throw new ConcurrentModificationException(
              "KafkaConsumer is not safe for multi-threaded access");
        };
    assertFalse(Release.quietly("CommitOffsets: Kafka consumer", heldElsewhere));
  }

  @Test
  void aReleaseThatSucceedsClosesOnceAndNothingToReleaseIsFine() {
    AtomicInteger closed = new AtomicInteger();
    assertTrue(Release.quietly("WriteBucketFn: table", closed::incrementAndGet));
    assertEquals(1, closed.get());
    assertTrue(Release.quietly("WriteBucketFn: table", null));
  }

  @Test
  void anInterruptedReleaseKeepsTheThreadInterrupted() {
    try {
      assertFalse(
          Release.quietly(
              "CommitOffsets: Kafka consumer",
              () -> {
                throw new InterruptedException("cancelled");
              }));
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
    }
  }
}
