package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Exact run sequences in, exact pick out, by Paimon 1.3.1's universal compaction: {@code
 * compaction.max-size-amplification-percent} 200, {@code compaction.size-ratio} 1, {@code
 * num-sorted-run.compaction-trigger} 5 and six levels unless a test says otherwise. Run sizes are
 * in bytes; a pick is written as its output level and the number of runs it takes (always the
 * newest ones).
 */
class UniversalCompactionTest {

  private static final int MAX_LEVEL = 5;
  private final UniversalCompaction defaults = new UniversalCompaction(200, 1, 5);

  @Test
  void fewerRunsThanTheTriggerPickNothingWhateverTheirSizes() {
    assertEquals(
        Optional.empty(),
        defaults.pick(MAX_LEVEL, List.of(run(0, 1), run(0, 1), run(0, 1), run(5, 1))));
  }

  @Test
  void sizeAmplificationMergesEverythingIntoTheTopLevel() {
    // The four newest runs (4 bytes) exceed 200% of the oldest (1 byte).
    List<SortedRun> runs = List.of(run(0, 1), run(0, 1), run(0, 1), run(0, 1), run(5, 1));
    assertEquals(unit(MAX_LEVEL, runs, 5), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void sizeAmplificationFiresOnlyAboveThePercentage() {
    UniversalCompaction threeRuns = new UniversalCompaction(200, 1, 3);
    // 300 bytes above 150: 200%, not above it; and size ratio stops at the first run.
    List<SortedRun> atTheLimit = List.of(run(0, 1), run(0, 299), run(5, 150));
    assertEquals(Optional.empty(), threeRuns.pick(MAX_LEVEL, atTheLimit));
    List<SortedRun> above = List.of(run(0, 1), run(0, 300), run(5, 150));
    assertEquals(unit(MAX_LEVEL, above, 3), threeRuns.pick(MAX_LEVEL, above));
  }

  @Test
  void sizeRatioTakesRunsNoBiggerThanThoseTakenPlusOnePercentAndWritesBelowTheNextRun() {
    List<SortedRun> runs = List.of(run(0, 1), run(0, 1), run(0, 1), run(0, 1), run(5, 100));
    assertEquals(unit(4, runs, 4), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void sizeRatioWritesOneLevelBelowTheFirstRunItLeaves() {
    List<SortedRun> runs =
        List.of(run(0, 1), run(0, 1), run(0, 1), run(0, 1), run(3, 1000), run(5, 5000));
    assertEquals(unit(2, runs, 4), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void sizeRatioBoundaryIsInclusive() {
    UniversalCompaction threeRuns = new UniversalCompaction(200, 1, 3);
    // 101 is exactly 100 plus 1%: taken. 102 is not, and three runs do not exceed the trigger.
    List<SortedRun> taken = List.of(run(0, 100), run(0, 101), run(5, 100_000));
    assertEquals(unit(4, taken, 2), threeRuns.pick(MAX_LEVEL, taken));
    List<SortedRun> notTaken = List.of(run(0, 100), run(0, 102), run(5, 100_000));
    assertEquals(Optional.empty(), threeRuns.pick(MAX_LEVEL, notTaken));
  }

  @Test
  void exactlyTheTriggerWithoutSizeRulePicksNothing() {
    List<SortedRun> runs =
        List.of(run(0, 1), run(0, 100), run(0, 10_000), run(0, 1_000_000), run(5, 100_000_000));
    assertEquals(Optional.empty(), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void moreRunsThanTheTriggerMergeTheNewestAndNeverWriteLevelZero() {
    // Six runs: the two newest are forced together; the next run is at level 0, so the pick takes
    // runs until one has a level to write into; that is the last run, so all go to the top.
    List<SortedRun> runs =
        List.of(run(0, 1), run(0, 10), run(0, 100), run(0, 1000), run(0, 10_000), run(5, 100_000));
    assertEquals(unit(MAX_LEVEL, runs, 6), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void moreRunsThanTheTriggerStopAtTheFirstUpperLevel() {
    List<SortedRun> runs =
        List.of(
            run(0, 1),
            run(0, 10),
            run(0, 100),
            run(0, 1000),
            run(2, 10_000),
            run(4, 20_000),
            run(5, 1_000_000));
    // Seven runs, trigger 5: the three newest are forced; run 4 is at level 0, taken too; run 5
    // is at level 2, taken as the level written.
    assertEquals(unit(2, runs, 5), defaults.pick(MAX_LEVEL, runs));
  }

  @Test
  void forcingUpLevelZeroLiftsTheLevelZeroRunsBelowTheNextRun() {
    List<SortedRun> runs = List.of(run(0, 1), run(0, 1), run(3, 10));
    assertEquals(unit(2, runs, 2), defaults.pickForcingUpLevel0(MAX_LEVEL, runs));
  }

  @Test
  void forcingUpLevelZeroExtendsBySizeRatio() {
    List<SortedRun> runs = List.of(run(0, 5), run(2, 5), run(4, 1000));
    // Level 2's 5 bytes are no bigger than the 5 taken plus 1%: taken, written below level 4.
    assertEquals(unit(3, runs, 2), defaults.pickForcingUpLevel0(MAX_LEVEL, runs));
  }

  @Test
  void forcingUpLevelZeroWritesTheTopLevelWhenNothingElseIsLeft() {
    List<SortedRun> runs = List.of(run(0, 1), run(0, 1));
    assertEquals(unit(MAX_LEVEL, runs, 2), defaults.pickForcingUpLevel0(MAX_LEVEL, runs));
  }

  @Test
  void forcingUpLevelZeroWithoutLevelZeroPicksNothing() {
    assertEquals(
        Optional.empty(), defaults.pickForcingUpLevel0(MAX_LEVEL, List.of(run(3, 10), run(5, 1))));
  }

  @Test
  void forcingUpLevelZeroKeepsAPickOfTheThreeRules() {
    List<SortedRun> runs = List.of(run(0, 1), run(0, 1), run(0, 1), run(0, 1), run(5, 1));
    assertEquals(unit(MAX_LEVEL, runs, 5), defaults.pickForcingUpLevel0(MAX_LEVEL, runs));
  }

  @Test
  void fullCompactionTakesEveryRunIntoTheTopLevel() {
    List<SortedRun> runs = List.of(run(0, 1), run(3, 100), run(5, 1));
    assertEquals(unit(MAX_LEVEL, runs, 3), defaults.full(MAX_LEVEL, runs));
    List<SortedRun> oneBelowTop = List.of(run(3, 100));
    assertEquals(unit(MAX_LEVEL, oneBelowTop, 1), defaults.full(MAX_LEVEL, oneBelowTop));
  }

  @Test
  void fullCompactionLeavesAloneOneRunAlreadyAtTheTopAndNoRun() {
    assertEquals(Optional.empty(), defaults.full(MAX_LEVEL, List.of(run(5, 100))));
    assertEquals(Optional.empty(), defaults.full(MAX_LEVEL, List.of()));
  }

  private static Optional<CompactUnit> unit(int outputLevel, List<SortedRun> runs, int taken) {
    return Optional.of(new CompactUnit(outputLevel, runs.subList(0, taken)));
  }
}
