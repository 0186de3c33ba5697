package io.changelake.mergetree;

import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.types.ChangeRow;
import java.io.IOException;

/**
 * What a compaction of a lookup-producer or first-row table does with a key it takes from level 0
 * (Paimon's lookup merge wrappers): it finds the key's BEFORE image, merges the level-0 versions
 * onto it, and, for the lookup producer, emits the difference by the {@link ChangelogRule}.
 *
 * <table>
 *   <caption>The BEFORE image of a key taken from level 0</caption>
 *   <tr><th>the compaction also takes</th><th>BEFORE</th><th>AFTER</th></tr>
 *   <tr><td>a version from a level above 0</td><td>the newest such version</td><td>the level-0
 *     versions merged onto it</td></tr>
 *   <tr><td>none, output below the top level</td><td>the key's version found by a lookup from
 *     the level above the output on</td><td>the level-0 versions merged with the looked-up one at
 *     its place in version order</td></tr>
 *   <tr><td>none, output at the top level</td><td>absent</td><td>the level-0 versions
 *     merged</td></tr>
 * </table>
 *
 * <p>A first-row table whose key is found by the lookup keeps nothing of the newer rows: its first
 * row stays above, and its readers do not merge levels (Paimon's FirstRowMergeFunctionWrapper). A
 * key the compaction takes from above level 0 only emits nothing, but still goes through the merge
 * engine, even a lone version (Paimon's LookupMergeFunction): a partial-update or aggregation row
 * stored as +U is rewritten as +I. The rule applies only to a compaction that takes a level-0 file;
 * one that does not merges as any compaction merges ({@code CompactRewriter}).
 */
final class LookupChangelogRule {

  /**
   * Finds a key's current version in the levels from {@code startLevel} up ({@link LookupLevels}).
   */
  interface KeyLookup {
    /**
     * The version found of the key {@code row} holds in its key columns (a row of every table
     * column), or null: a view valid until the next lookup.
     */
    ChangeRow lookup(ChangeRow row, int startLevel) throws IOException;
  }

  private final KeyMerge keyMerge;
  private final ChangelogRule changelogRule;
  private final KeyLookup lookup;
  private final boolean emits;
  private final boolean firstRow;

  /**
   * @param keyMerge the merge of a key's versions
   * @param changelogRule what a change of a key emits
   * @param lookup the levels' lookup
   * @param emits whether the table's producer is {@code lookup} (a first-row table with another
   *     producer looks up without emitting)
   * @param firstRow whether the merge engine is first-row
   */
  LookupChangelogRule(
      KeyMerge keyMerge,
      ChangelogRule changelogRule,
      KeyLookup lookup,
      boolean emits,
      boolean firstRow) {
    this.keyMerge = keyMerge;
    this.changelogRule = changelogRule;
    this.lookup = lookup;
    this.emits = emits;
    this.firstRow = firstRow;
  }

  /**
   * The version the compaction writes for one key, or null when nothing is written, emitting its
   * changelog into {@code changelog}: a view valid until the versions or the lookup move on, where
   * the engine keeps one version as it is.
   *
   * @param versions the key's versions the compaction takes
   * @param outputLevel the level the compaction writes
   * @param maxLevel the top level
   */
  ChangeRow merge(KeyVersions versions, int outputLevel, int maxLevel, ChangelogRule.Sink changelog)
      throws IOException {
    if (versions.minLevel() > 0) {
      // Paimon's lookup merge runs the engine over every key of the compaction, so a lone upper
      // version is rewritten too: partial-update and aggregation store it as +I.
      return keyMerge.merge(versions, null);
    }
    ChangeRow before = versions.newestUpperLevel();
    ChangeRow lookedUp = null;
    if (before == null && outputLevel < maxLevel) {
      lookedUp = lookup.lookup(versions.record(0), outputLevel + 1);
      before = lookedUp;
    }
    if (lookedUp != null && firstRow) {
      return null;
    }
    ChangeRow after = keyMerge.merge(versions, lookedUp);
    if (emits) {
      changelogRule.emit(before, after, changelog);
    }
    return after;
  }

  /**
   * {@link #merge} for a table whose newest version wins, its key's versions read as views by
   * {@link RunKeys#nextNewestOverUpper}: the same version stored, the same changelog emitted, no
   * key-value built unless a lookup finds one. The merge engine keeps the newest version, a lone
   * upper one as it is, so the result is {@link RunKeys#newest}, or the looked-up version if it is
   * not older.
   *
   * @return the version the compaction writes: a view valid until the keys or the lookup move on
   */
  ChangeRow mergeNewest(RunKeys keys, int outputLevel, int maxLevel, ChangelogRule.Sink changelog)
      throws IOException {
    ChangeRow after = keys.newest();
    if (!keys.fromLevel0()) {
      return after;
    }
    ChangeRow before = keys.atLevel();
    if (before == null && outputLevel < maxLevel) {
      before = lookup.lookup(after, outputLevel + 1);
      // KeyMerge places a looked-up version after the versions it is not older than.
      if (before != null && before.sequenceNumber() >= after.sequenceNumber()) {
        after = before;
      }
    }
    if (emits) {
      changelogRule.emit(before, after, changelog);
    }
    return after;
  }
}
