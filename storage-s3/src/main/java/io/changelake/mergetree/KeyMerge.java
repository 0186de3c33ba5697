package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import java.util.Comparator;

/**
 * Turns the versions of one key into the version stored by a compaction or returned by a read.
 *
 * <p>A lone version stays as it is (as Paimon's reducer keeps it: a lone retraction stays a
 * retraction); several go through the merge engine. In a lookup table every version above level 0
 * already holds the key's fully merged value, so only the newest of them counts, with the level-0
 * versions after it; older upper-level versions are superseded, not merged in again (Paimon's
 * lookup merge does the same).
 */
public final class KeyMerge {

  private final MergeFunction mergeFunction;
  private final Comparator<ChangeRow> versionOrder;
  private final boolean newestUpperLevelOnly;

  /**
   * @param mergeFunction the merge engine's rule
   * @param versionOrder the order of versions
   * @param newestUpperLevelOnly true for lookup tables
   */
  public KeyMerge(
      MergeFunction mergeFunction,
      Comparator<ChangeRow> versionOrder,
      boolean newestUpperLevelOnly) {
    this.mergeFunction = mergeFunction;
    this.versionOrder = versionOrder;
    this.newestUpperLevelOnly = newestUpperLevelOnly;
  }

  /**
   * The version to store or read, or null when nothing remains: one of the versions (or the one
   * looked up) as it is where the engine keeps one (deduplicate, first-row), so a view valid as
   * long as they are.
   */
  public ChangeRow reduce(KeyVersions versions) {
    ChangeRow upper = newestUpperLevelOnly ? versions.newestUpperLevel() : null;
    int counted = 0;
    ChangeRow only = null;
    for (int i = 0; i < versions.size(); i++) {
      if (counts(versions, i, upper)) {
        counted++;
        only = versions.record(i);
      }
    }
    return counted == 1 ? only : merge(versions, null);
  }

  /**
   * The merge engine over the versions that count, always (even a lone one), with an older version
   * looked up elsewhere joining at its place in version order: the lookup producer's AFTER.
   */
  public ChangeRow merge(KeyVersions versions, ChangeRow lookedUp) {
    ChangeRow upper = newestUpperLevelOnly ? versions.newestUpperLevel() : null;
    mergeFunction.reset();
    ChangeRow pending = lookedUp;
    for (int i = 0; i < versions.size(); i++) {
      if (!counts(versions, i, upper)) {
        continue;
      }
      ChangeRow kv = versions.record(i);
      if (pending != null && versionOrder.compare(pending, kv) < 0) {
        mergeFunction.add(pending);
        pending = null;
      }
      mergeFunction.add(kv);
    }
    if (pending != null) {
      mergeFunction.add(pending);
    }
    return mergeFunction.result();
  }

  // Identity, not equality: the upper version is one particular record of the key's versions.
  @SuppressWarnings("ReferenceEquality")
  private static boolean counts(KeyVersions versions, int i, ChangeRow upper) {
    return upper == null || versions.level(i) <= 0 || versions.record(i) == upper;
  }
}
