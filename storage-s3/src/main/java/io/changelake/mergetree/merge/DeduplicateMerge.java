package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeFunction;
import io.changelake.types.ChangeRow;

/**
 * merge-engine {@code deduplicate}: the last version wins, whatever its kind, so a final -U or -D
 * deletes the key. With {@code ignore-delete} retractions are skipped, and a key that only had
 * retractions gives no result. Paimon 1.3: {@code DeduplicateMergeFunction}.
 */
final class DeduplicateMerge implements MergeFunction {

  private final boolean ignoreDelete;
  private ChangeRow latest;

  DeduplicateMerge(boolean ignoreDelete) {
    this.ignoreDelete = ignoreDelete;
  }

  @Override
  public void reset() {
    latest = null;
  }

  @Override
  public void add(ChangeRow version) {
    // Tables written before ignore-delete was applied on write may hold retractions.
    if (ignoreDelete && !version.kind().isAdd()) {
      return;
    }
    latest = version;
  }

  @Override
  public ChangeRow result() {
    return latest;
  }
}
