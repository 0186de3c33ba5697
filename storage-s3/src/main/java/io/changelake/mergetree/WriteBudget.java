package io.changelake.mergetree;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The write-buffer memory of a worker: {@code write-buffer-size} shared by every bucket writer's
 * {@link WriteBuffer} in the JVM, as Paimon shares one memory pool per write task. A worker hosting
 * 64 buckets buffers 256 MiB in all by default, not 64 times that.
 *
 * <p>When the buffers together reach the budget, a buffer holding at least its fair share (the
 * budget over the buffers holding anything) spills (or flushes) at its next record; buffers below
 * their share keep their records. The largest buffers therefore give way first, and a bucket that
 * writes rarely keeps a small buffer instead of being pushed out by a busy one. Buffers report
 * their size in steps of {@link #reportStep()}, so the budget can be exceeded by that much per
 * buffer. Thread-safe.
 */
final class WriteBudget {

  private static final long MAX_REPORT_STEP = 256 * 1024;

  private static final Map<Long, WriteBudget> SHARED = new HashMap<>();

  private final long capacity;
  private final IdentityHashMap<Object, Long> held = new IdentityHashMap<>();
  private long used;

  WriteBudget(long capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException(
          "write-buffer-size must be positive, got "
              + capacity
              + " bytes: set it to a size such"
              + " as 256 mb");
    }
    this.capacity = capacity;
  }

  /** The JVM's budget of this size, made at the first request. */
  static WriteBudget shared(long capacity) {
    synchronized (SHARED) {
      return SHARED.computeIfAbsent(capacity, WriteBudget::new);
    }
  }

  /**
   * Records that {@code buffer} now holds {@code bytes} (0 once it spilled, flushed or closed).
   *
   * @return whether the buffer should give its memory up now
   */
  synchronized boolean report(Object buffer, long bytes) {
    Long before = bytes == 0 ? held.remove(buffer) : held.put(buffer, bytes);
    used += bytes - (before == null ? 0 : before);
    if (bytes == 0 || used < capacity) {
      return false;
    }
    return bytes >= capacity / held.size();
  }

  /** How much a buffer grows between two reports: a sixteenth of the budget, at most 256 KiB. */
  long reportStep() {
    return Math.max(1, Math.min(MAX_REPORT_STEP, capacity / 16));
  }

  /** The bytes all buffers hold, as last reported. */
  synchronized long used() {
    return used;
  }
}
