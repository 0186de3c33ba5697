package io.changelake.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The peak heap a run used, for benchmarks to print: the most heap in use right after any garbage
 * collection since the last {@link #reset()}, all heap pools summed at the same instant.
 *
 * <p>Right after a collection the heap holds what is live plus, after a young collection, the old
 * generation's garbage not yet collected: an upper bound of the live data at that moment, and never
 * more than {@code -Xmx}. Adding each pool's own peak instead, as {@link MemoryPoolMXBean} offers,
 * adds maxima reached at different times (a full eden next to a full old generation) and can exceed
 * {@code -Xmx}.
 */
public final class HeapPeak {

  private static final AtomicLong PEAK = new AtomicLong();
  private static final AtomicLong COLLECTIONS = new AtomicLong();
  private static final Set<String> HEAP_POOLS = new HashSet<>();

  static {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        HEAP_POOLS.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(
            (notification, handback) -> {
              if (notification
                  .getType()
                  .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                record(
                    GarbageCollectionNotificationInfo.from(
                        (CompositeData) notification.getUserData()));
              }
            },
            null,
            null);
      }
    }
  }

  private HeapPeak() {}

  private static void record(GarbageCollectionNotificationInfo info) {
    long used = 0;
    for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (HEAP_POOLS.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    PEAK.accumulateAndGet(used, Math::max);
    COLLECTIONS.incrementAndGet();
  }

  /** Starts a new measurement. */
  public static void reset() {
    PEAK.set(0);
    COLLECTIONS.set(0);
  }

  /**
   * The most heap in use after a collection since the reset; if no collection ran since, the heap
   * in use now (which then includes garbage).
   */
  public static long bytes() {
    if (COLLECTIONS.get() == 0) {
      MemoryUsage now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
      return now.getUsed();
    }
    return PEAK.get();
  }
}
