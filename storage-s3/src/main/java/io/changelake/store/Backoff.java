package io.changelake.store;

import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The wait before retry {@code n} (0 for the first retry) of an operation that lost a race:
 * randomised exponential backoff between two bounds.
 *
 * <p>Retry {@code n} waits a uniformly random time between {@code minWait} and its ceiling {@code
 * min(maxWait, minWait * 2^n)}. The ceiling doubles so that contenders that keep colliding spread
 * out; the wait is drawn below it, not fixed at it, so that contenders that collided once do not
 * collide again at the same instant. Every wait therefore lies within {@code [minWait, maxWait]}.
 *
 * <p>The commit uses the table's {@code commit.min-retry-wait} and {@code commit.max-retry-wait}
 * (Paimon's defaults: {@link #COMMIT_DEFAULT}); the S3 store uses its own bounds for a conditional
 * create that meets a concurrent one.
 *
 * @param minWait the shortest wait, and the ceiling of the first retry; positive
 * @param maxWait the longest wait; at least {@code minWait}
 */
public record Backoff(Duration minWait, Duration maxWait) {

  /** Paimon's {@code commit.min-retry-wait} (10 ms) and {@code commit.max-retry-wait} (10 s). */
  public static final Backoff COMMIT_DEFAULT =
      new Backoff(Duration.ofMillis(10), Duration.ofSeconds(10));

  /**
   * @throws IllegalArgumentException if {@code minWait} is not positive or exceeds {@code maxWait}
   */
  public Backoff {
    if (minWait.isNegative() || minWait.isZero()) {
      throw new IllegalArgumentException("the minimum retry wait must be positive, got " + minWait);
    }
    if (minWait.compareTo(maxWait) > 0) {
      throw new IllegalArgumentException(
          "the minimum retry wait " + minWait + " exceeds the maximum " + maxWait);
    }
  }

  /** The longest wait of retry {@code retry}: {@code min(maxWait, minWait * 2^retry)}. */
  public long ceilingMillis(int retry) {
    long min = minWait.toMillis();
    long max = maxWait.toMillis();
    // Doubling past 62 shifts would overflow; the cap is reached long before for any real bounds.
    int doublings = Math.min(Math.max(retry, 0), 62);
    return min > (max >> doublings) ? max : min << doublings;
  }

  /** The wait of retry {@code retry}, drawn from {@code random}, in milliseconds. */
  public long waitMillis(int retry, RandomGenerator random) {
    long min = minWait.toMillis();
    return random.nextLong(min, ceilingMillis(retry) + 1);
  }

  /**
   * Sleeps before retry {@code retry} of {@code what}.
   *
   * @throws InterruptedIOException if the thread is interrupted (its interrupt flag is kept)
   */
  public void sleep(int retry, String what) throws InterruptedIOException {
    try {
      Thread.sleep(waitMillis(retry, ThreadLocalRandom.current()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while backing off before retrying " + what);
    }
  }
}
