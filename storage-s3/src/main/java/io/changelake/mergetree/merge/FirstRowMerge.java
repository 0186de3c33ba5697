package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
import io.changelake.mergetree.MergeFunction;
import io.changelake.types.ChangeRow;
import java.util.Arrays;

/**
 * merge-engine {@code first-row}: the first version of a key is kept as it is, with its own
 * sequence number; later ones are dropped. A retraction fails unless {@code ignore-delete} skips
 * it. Paimon 1.3: {@code FirstRowMergeFunction}.
 */
final class FirstRowMerge implements MergeFunction {

  private final boolean ignoreDelete;
  private ChangeRow first;

  FirstRowMerge(boolean ignoreDelete) {
    this.ignoreDelete = ignoreDelete;
  }

  @Override
  public void reset() {
    first = null;
  }

  @Override
  public void add(ChangeRow version) {
    if (!version.kind().isAdd()) {
      if (ignoreDelete) {
        return;
      }
      throw new MergeException(
          "merge-engine 'first-row' cannot take the retraction "
              + version.kind().shortString()
              + " of key "
              + Arrays.toString(version.toKeyValue().key())
              + ": set table option 'ignore-delete'"
              + " (or 'first-row.ignore-delete') = 'true' to drop retractions");
    }
    if (first == null) {
      first = version;
    }
  }

  @Override
  public ChangeRow result() {
    return first;
  }
}
