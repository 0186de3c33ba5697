package io.changelake.bench;

import java.util.Arrays;

/** The median benchmarks print over repeated runs: steadier than the mean on a shared machine. */
public final class Median {

  private Median() {}

  /**
   * The middle value, or the mean of the two middle values of an even count.
   *
   * @throws IllegalArgumentException if there are no values
   */
  public static double of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values to take the median of");
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
