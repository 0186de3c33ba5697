package io.changelake.mergetree;

import java.util.List;
import java.util.Optional;

/**
 * Which sorted runs of a bucket to merge, by RocksDB's universal compaction, as Paimon picks them.
 * Runs are ordered newest first (level-0 files, then levels 1 up); a compaction always takes a
 * prefix of them and writes it one level below the first run it leaves (or at the top level if it
 * takes all). Three numbers decide:
 *
 * <p>With fewer runs than the sorted-run trigger nothing is picked; from the trigger on:
 *
 * <ol>
 *   <li><b>Size amplification</b> ({@code compaction.max-size-amplification-percent}, 200): when
 *       the runs above the oldest add up to more than that percentage of the oldest, everything is
 *       merged into the top level. This bounds the space that stale versions take and how many runs
 *       a read must merge.
 *   <li><b>Size ratio</b> ({@code compaction.size-ratio}, 1): starting from the newest run, the
 *       next run joins while it is no bigger than the runs taken so far plus that percentage. Runs
 *       of similar size merge, so each record is rewritten about log(n) times.
 *   <li><b>Sorted-run trigger</b> ({@code num-sorted-run.compaction-trigger}, 5): with more runs
 *       than this, the newest runs are merged anyway until the count is back under it. This bounds
 *       the runs a read merges and the level-0 files that pile up.
 * </ol>
 *
 * <p>For the lookup producer every level-0 record must be lifted above level 0 at each commit
 * ({@link #pickForcingUpLevel0}): when no rule above fires, the level-0 runs are merged anyway,
 * extended by size ratio, and never written back to level 0.
 */
public final class UniversalCompaction {

  private final int maxSizeAmplificationPercent;
  private final int sizeRatio;
  private final int runTrigger;

  public UniversalCompaction(int maxSizeAmplificationPercent, int sizeRatio, int runTrigger) {
    this.maxSizeAmplificationPercent = maxSizeAmplificationPercent;
    this.sizeRatio = sizeRatio;
    this.runTrigger = runTrigger;
  }

  /**
   * A compaction by the three rules, or empty when none fires.
   *
   * @param maxLevel the top level
   * @param runs the sorted runs, newest first
   */
  public Optional<CompactUnit> pick(int maxLevel, List<SortedRun> runs) {
    // Below the trigger neither size rule looks at the runs: Paimon's UniversalCompaction.
    if (runs.size() < 2 || runs.size() < runTrigger) {
      return Optional.empty();
    }
    if (sizeAmplified(runs)) {
      return Optional.of(unit(maxLevel, runs, runs.size()));
    }
    Optional<CompactUnit> byRatio = pickBySizeRatio(maxLevel, runs, 1, false);
    if (byRatio.isPresent()) {
      return byRatio;
    }
    if (runs.size() > runTrigger) {
      return pickBySizeRatio(maxLevel, runs, runs.size() - runTrigger + 1, true);
    }
    return Optional.empty();
  }

  /**
   * As {@link #pick}, but when no rule fires and level-0 runs exist, merges them (and the runs size
   * ratio adds) to a level above 0: the lookup producer's compaction.
   */
  public Optional<CompactUnit> pickForcingUpLevel0(int maxLevel, List<SortedRun> runs) {
    Optional<CompactUnit> picked = pick(maxLevel, runs);
    if (picked.isPresent() && picked.get().outputLevel() > 0) {
      return picked;
    }
    int level0Runs = 0;
    while (level0Runs < runs.size() && runs.get(level0Runs).level() <= 0) {
      level0Runs++;
    }
    if (level0Runs == 0) {
      return Optional.empty();
    }
    return pickBySizeRatio(maxLevel, runs, level0Runs, true);
  }

  /**
   * Everything into the top level, or empty when there is nothing to merge: no run, or one run
   * already at the top level (Paimon's full compaction leaves it as it is).
   */
  public Optional<CompactUnit> full(int maxLevel, List<SortedRun> runs) {
    if (runs.isEmpty() || (runs.size() == 1 && runs.get(0).level() == maxLevel)) {
      return Optional.empty();
    }
    return Optional.of(unit(maxLevel, runs, runs.size()));
  }

  private boolean sizeAmplified(List<SortedRun> runs) {
    long younger = 0;
    for (int i = 0; i < runs.size() - 1; i++) {
      younger += runs.get(i).totalSize();
    }
    long oldest = runs.get(runs.size() - 1).totalSize();
    return younger * 100 > (long) maxSizeAmplificationPercent * oldest;
  }

  private Optional<CompactUnit> pickBySizeRatio(
      int maxLevel, List<SortedRun> runs, int candidates, boolean force) {
    long candidateSize = 0;
    for (int i = 0; i < candidates; i++) {
      candidateSize += runs.get(i).totalSize();
    }
    int taken = candidates;
    while (taken < runs.size()) {
      SortedRun next = runs.get(taken);
      if (next.totalSize() * 100 > candidateSize * (100L + sizeRatio)) {
        break;
      }
      candidateSize += next.totalSize();
      taken++;
    }
    if (!force && taken == 1) {
      return Optional.empty();
    }
    return Optional.of(unit(maxLevel, runs, taken));
  }

  /** The first {@code taken} runs, written below the next run, never to level 0. */
  private static CompactUnit unit(int maxLevel, List<SortedRun> runs, int taken) {
    int outputLevel;
    if (taken == runs.size()) {
      outputLevel = maxLevel;
    } else {
      outputLevel = Math.max(0, runs.get(taken).level() - 1);
      // Writing level 0 would leave a level-0 run; take runs until one has a level to write into.
      while (outputLevel == 0 && taken < runs.size()) {
        int level = runs.get(taken).level();
        taken++;
        if (level > 0) {
          outputLevel = level;
        }
      }
    }
    if (taken == runs.size()) {
      outputLevel = maxLevel;
    }
    return new CompactUnit(outputLevel, runs.subList(0, taken));
  }
}
