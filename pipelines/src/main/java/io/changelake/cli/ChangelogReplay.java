package io.changelake.cli;

import io.changelake.types.RowKind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a downstream consumer holds after applying a changelog as it comes, without normalizing it:
 * for each primary key, a signed multiset of row versions. An add (+I, +U) counts a version up, a
 * retraction (-U, -D) counts it down. A correct changelog leaves each key with exactly its current
 * row once; a {@code none} table updated by upserts leaves both 100 and 80 for one order, which is
 * why a SUM downstream says 180.
 */
final class ChangelogReplay {

  private final PrimaryKey primaryKey;
  private final Map<RowValues, Map<RowValues, Long>> versionsByKey = new LinkedHashMap<>();

  ChangelogReplay(PrimaryKey primaryKey) {
    this.primaryKey = primaryKey;
  }

  /** Applies one change. */
  void apply(RowKind kind, Object[] row) {
    Map<RowValues, Long> versions =
        versionsByKey.computeIfAbsent(primaryKey.of(row), k -> new LinkedHashMap<>());
    versions.merge(new RowValues(row), kind.isAdd() ? 1L : -1L, Long::sum);
    versions.values().removeIf(count -> count == 0);
  }

  /**
   * Each key's versions and their counts; a count above 1 is a row counted twice, below 0 a row
   * retracted that was never added. Keys whose versions cancelled out have an empty map.
   */
  Map<RowValues, Map<RowValues, Long>> versionsByKey() {
    return versionsByKey;
  }
}
