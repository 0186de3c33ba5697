package io.changelake.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void commitDefaultsAreThoseOfPaimon() {
    assertEquals(Duration.ofMillis(10), Backoff.COMMIT_DEFAULT.minWait());
    assertEquals(Duration.ofSeconds(10), Backoff.COMMIT_DEFAULT.maxWait());
  }

  @Test
  void ceilingDoublesFromTheMinimumUpToTheMaximum() {
    Backoff backoff = Backoff.COMMIT_DEFAULT;
    assertEquals(10, backoff.ceilingMillis(0));
    assertEquals(20, backoff.ceilingMillis(1));
    assertEquals(5_120, backoff.ceilingMillis(9));
    assertEquals(10_000, backoff.ceilingMillis(10));
    assertEquals(10_000, backoff.ceilingMillis(63));
    assertEquals(10_000, backoff.ceilingMillis(Integer.MAX_VALUE));
  }

  @Test
  void everyWaitLiesBetweenTheMinimumAndItsRetrysCeiling() {
    Backoff backoff = new Backoff(Duration.ofMillis(7), Duration.ofMillis(900));
    SplittableRandom random = new SplittableRandom(42);
    for (int retry = 0; retry < 80; retry++) {
      long ceiling = backoff.ceilingMillis(retry);
      assertTrue(ceiling >= 7 && ceiling <= 900, "ceiling " + ceiling);
      long shortest = Long.MAX_VALUE;
      long longest = 0;
      for (int draw = 0; draw < 2_000; draw++) {
        long wait = backoff.waitMillis(retry, random);
        assertTrue(wait >= 7 && wait <= ceiling, "retry " + retry + " waited " + wait);
        shortest = Math.min(shortest, wait);
        longest = Math.max(longest, wait);
      }
      // Randomised: the draws spread over the whole range, not one fixed wait.
      long tenth = (ceiling - 7) / 10;
      assertTrue(shortest <= 7 + tenth, "retry " + retry + " shortest " + shortest);
      assertTrue(longest >= ceiling - tenth, "retry " + retry + " longest " + longest);
    }
  }

  @Test
  void equalBoundsWaitExactlyThatLong() {
    Backoff fixed = new Backoff(Duration.ofMillis(25), Duration.ofMillis(25));
    SplittableRandom random = new SplittableRandom(1);
    for (int retry = 0; retry < 5; retry++) {
      assertEquals(25, fixed.waitMillis(retry, random));
    }
  }

  @Test
  void boundsThatCannotHoldAreRefused() {
    assertThrows(
        IllegalArgumentException.class, () -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)));
    assertTrue(e.getMessage().contains("exceeds the maximum"), e.getMessage());
  }

  @Test
  void anInterruptedSleepFailsAndKeepsTheInterrupt() {
    Thread.currentThread().interrupt();
    try {
      assertThrows(
          InterruptedIOException.class,
          () -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1)).sleep(0, "a test"));
      assertTrue(Thread.currentThread().isInterrupted());
    } finally {
      Thread.interrupted();
    }
  }
}
