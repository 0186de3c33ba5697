package io.changelake.bench;

import java.lang.management.ManagementFactory;

/**
 * The CPU time this JVM has used, every thread together (the work's own, the garbage collector's,
 * the JIT compiler's), for benchmarks to print a rate per CPU-second beside the rate per second. On
 * a shared machine the wall clock of a run depends on what else runs; its CPU time much less, so
 * ratios of CPU rates compare two engines more steadily.
 */
public final class ProcessCpu {

  private ProcessCpu() {}

  /** CPU seconds used so far, or NaN where the JVM does not say. */
  public static double seconds() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      long nanos = os.getProcessCpuTime();
      return nanos < 0 ? Double.NaN : nanos / 1e9;
    }
    return Double.NaN;
  }
}
