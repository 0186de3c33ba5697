package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.DataFileMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.paimon.compact.CompactUnit;
import org.apache.paimon.manifest.FileSource;
import org.apache.paimon.mergetree.LevelSortedRun;
import org.apache.paimon.mergetree.compact.ForceUpLevel0Compaction;
import org.apache.paimon.stats.SimpleStats;
import org.junit.jupiter.api.Test;

/**
 * Random run sequences and compaction options, each picked by changelake's {@link
 * UniversalCompaction} and by Paimon 1.3.1's (its universal pick, and its ForceUpLevel0Compaction
 * for lookup tables): the same runs taken, written to the same level, or both nothing.
 */
class UniversalCompactionMatchesPaimonTest {

  private static final int CASES = 5_000;

  @Test
  void everyPickIsPaimons() {
    Random random = new Random(16);
    for (int c = 0; c < CASES; c++) {
      int numLevels = 2 + random.nextInt(6);
      int maxAmp = new int[] {50, 100, 200, 400}[random.nextInt(4)];
      int sizeRatio = new int[] {0, 1, 5, 50}[random.nextInt(4)];
      int trigger = 1 + random.nextInt(7);
      List<SortedRun> runs = randomRuns(random, numLevels);
      String what =
          "case "
              + c
              + ": levels "
              + numLevels
              + ", amp "
              + maxAmp
              + ", ratio "
              + sizeRatio
              + ", trigger "
              + trigger
              + ", runs "
              + describe(runs);

      UniversalCompaction ours = new UniversalCompaction(maxAmp, sizeRatio, trigger);
      org.apache.paimon.mergetree.compact.UniversalCompaction theirs =
          new org.apache.paimon.mergetree.compact.UniversalCompaction(
              maxAmp, sizeRatio, trigger, null, null);
      List<LevelSortedRun> paimonRuns = paimonRuns(runs);

      assertEquals(
          picked(theirs.pick(numLevels, paimonRuns)),
          ours(ours.pick(numLevels - 1, runs)),
          "pick, " + what);
      assertEquals(
          picked(new ForceUpLevel0Compaction(theirs, null).pick(numLevels, paimonRuns)),
          ours(ours.pickForcingUpLevel0(numLevels - 1, runs)),
          "pick forcing up level 0, " + what);
    }
  }

  /** Level-0 runs (newest first), then runs at rising levels, of sizes over six decades. */
  private static List<SortedRun> randomRuns(Random random, int numLevels) {
    List<SortedRun> runs = new ArrayList<>();
    int level0 = random.nextInt(7);
    int file = 0;
    for (int i = 0; i < level0; i++) {
      runs.add(SortedRun.of(0, List.of(Bucket.file("f" + file++, 0, size(random)))));
    }
    for (int level = 1; level < numLevels; level++) {
      if (random.nextInt(3) == 0) {
        List<DataFileMeta> files = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
          files.add(Bucket.file("f" + file++, level, size(random)));
        }
        runs.add(SortedRun.of(level, files));
      }
    }
    return runs;
  }

  private static long size(Random random) {
    return 1 + (long) Math.pow(10, random.nextDouble() * 6);
  }

  private static List<LevelSortedRun> paimonRuns(List<SortedRun> runs) {
    List<LevelSortedRun> converted = new ArrayList<>();
    for (SortedRun run : runs) {
      List<org.apache.paimon.io.DataFileMeta> files = new ArrayList<>();
      for (DataFileMeta f : run.files()) {
        org.apache.paimon.io.DataFileMeta appended =
            org.apache.paimon.io.DataFileMeta.forAppend(
                f.fileName(),
                f.fileSize(),
                1,
                SimpleStats.EMPTY_STATS,
                0,
                0,
                0,
                List.of(),
                null,
                FileSource.APPEND,
                null,
                null,
                null,
                null);
        files.add(run.level() == 0 ? appended : appended.upgrade(run.level()));
      }
      converted.add(
          new LevelSortedRun(run.level(), org.apache.paimon.mergetree.SortedRun.fromSorted(files)));
    }
    return converted;
  }

  /** A pick as its output level and the names of its files, or "nothing". */
  private static String picked(Optional<CompactUnit> unit) {
    if (unit.isEmpty()) {
      return "nothing";
    }
    List<String> names =
        unit.get().files().stream().map(org.apache.paimon.io.DataFileMeta::fileName).toList();
    return "level " + unit.get().outputLevel() + " " + names;
  }

  private static String ours(Optional<io.changelake.mergetree.CompactUnit> unit) {
    if (unit.isEmpty()) {
      return "nothing";
    }
    List<String> names = new ArrayList<>();
    for (SortedRun run : unit.get().runs()) {
      run.files().forEach(f -> names.add(f.fileName()));
    }
    return "level " + unit.get().outputLevel() + " " + names;
  }

  private static String describe(List<SortedRun> runs) {
    List<String> parts = new ArrayList<>();
    for (SortedRun run : runs) {
      parts.add("L" + run.level() + ":" + run.totalSize());
    }
    return parts.toString();
  }
}
