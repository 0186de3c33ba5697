package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One write-buffer budget shared by the buffers of a worker, the largest giving way first. */
class WriteBudgetTest {

  @Test
  void theBufferAboveItsFairShareSpillsWhenTheBuffersTogetherReachTheBudget() {
    WriteBudget budget = new WriteBudget(1000);
    Object quiet = new Object();
    Object busy = new Object();
    assertFalse(budget.report(quiet, 300));
    assertFalse(budget.report(busy, 600));
    assertFalse(budget.report(quiet, 350), "below its share of 500: keeps its records");
    assertTrue(budget.report(busy, 700), "over the budget and above its share: spills");
    assertFalse(budget.report(busy, 0));
    assertEquals(350, budget.used());
    assertTrue(budget.report(quiet, 1000), "alone, a buffer has the whole budget");
  }

  @Test
  void writersAskingForTheSameSizeShareOneBudget() {
    assertSame(WriteBudget.shared(123_456), WriteBudget.shared(123_456));
  }
}
