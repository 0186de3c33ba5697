package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RunHeapTest {

  /**
   * Runs whose current records are random numbers join, move on, leave and are asked for the second
   * run in any order: after each step the top and the second are what sorting the runs gives, ties
   * going to the lower run.
   */
  @Test
  void topAndSecondAreTheFirstTwoRunsInOrderWhateverTheOrderOfCalls() {
    for (int seed = 0; seed < 200; seed++) {
      Random random = new Random(seed);
      int runs = 1 + random.nextInt(12);
      long[] current = new long[runs];
      Comparator<Integer> order =
          Comparator.<Integer>comparingLong(run -> current[run]).thenComparingInt(run -> run);
      RunHeap heap = new RunHeap(runs, (a, b) -> order.compare(a, b) < 0);
      boolean[] in = new boolean[runs];
      int added = 0;
      while (added < runs || heap.size() > 0) {
        // Runs join between the other steps too.
        if (added < runs && (heap.size() == 0 || random.nextInt(3) == 0)) {
          current[added] = random.nextInt(20);
          heap.add(added);
          in[added++] = true;
          continue;
        }
        List<Integer> sorted =
            IntStream.range(0, runs).filter(run -> in[run]).boxed().sorted(order).toList();
        String step = "seed " + seed + ", runs in order " + sorted;
        assertEquals(sorted.size(), heap.size(), step);
        assertEquals(sorted.get(0), heap.top(), step);
        if (random.nextBoolean()) {
          assertEquals(sorted.size() > 1 ? sorted.get(1) : -1, heap.second(), step);
        }
        int top = heap.top();
        if (random.nextInt(4) == 0) {
          in[top] = false;
          heap.removeTop();
        } else {
          // A run's records come in order, but a merge of runs that break that is still read.
          current[top] += random.nextInt(8) - 1;
          heap.topChanged();
        }
      }
    }
  }
}
