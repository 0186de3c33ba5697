package io.changelake.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MedianTest {

  @Test
  void anOddCountTakesTheMiddleValueAndLeavesTheInputInItsOrder() {
    double[] ratios = {0.9, 0.5, 1.7, 0.7, 1.0};
    assertEquals(0.9, Median.of(ratios));
    assertArrayEquals(new double[] {0.9, 0.5, 1.7, 0.7, 1.0}, ratios);
  }

  @Test
  void anEvenCountTakesTheMeanOfTheTwoMiddleValues() {
    assertEquals(0.8, Median.of(1.7, 0.7, 0.9, 0.5), 1e-12);
    assertEquals(3.0, Median.of(3.0));
  }

  @Test
  void noValuesAreRefused() {
    assertThrows(IllegalArgumentException.class, Median::of);
  }
}
