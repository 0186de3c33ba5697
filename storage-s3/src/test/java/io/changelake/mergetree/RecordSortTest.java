package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordSortTest {

  @Test
  void sortsByIntegralKeyAndKeepsArrivalOrderAmongEqualKeys() {
    Random random = new Random(7);
    for (int round = 0; round < 50; round++) {
      int n = random.nextInt(2_000);
      // Room past the records, as a buffer's arrays have.
      long[] keys = new long[n + random.nextInt(10)];
      for (int i = 0; i < n; i++) {
        keys[i] = random.nextInt(100) - 50 + (random.nextBoolean() ? Long.MIN_VALUE / 2 : 0);
      }
      long[] before = keys.clone();
      int[] expected =
          positions(n).stream()
              .sorted(Comparator.comparingLong(p -> keys[p]))
              .mapToInt(Integer::intValue)
              .toArray();
      assertArrayEquals(expected, RecordSort.byIntegralKey(keys, n));
      assertArrayEquals(before, keys, "the keys are left as they were");
    }
  }

  @Test
  void sortsStablyByAnyOrderOfRecords() {
    Random random = new Random(11);
    for (int round = 0; round < 50; round++) {
      int n = random.nextInt(2_000);
      // Few distinct values, and one hot value: long runs of ties, kept in arrival order.
      int[] values = new int[n];
      for (int i = 0; i < n; i++) {
        values[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(300) - 150;
      }
      int[] expected =
          positions(n).stream()
              .sorted(Comparator.comparingInt(p -> values[p]))
              .mapToInt(Integer::intValue)
              .toArray();
      assertArrayEquals(
          expected, RecordSort.stable(n, (a, b) -> Integer.compare(values[a], values[b])));
    }
  }

  private static List<Integer> positions(int n) {
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      positions.add(i);
    }
    return positions;
  }
}
