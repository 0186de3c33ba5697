package io.changelake.mergetree;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: a merge function that records the sequence numbers of the versions it is given, in
 * order, and returns an insert of the key whose value is that list and whose sequence number is the
 * last one's: what reaches the merge engine, and in which order, can then be read off the result.
 */
final class Recording implements MergeFunction {

  private final List<Long> added = new ArrayList<>();
  private Object[] key;
  private int resets;

  @Override
  public void reset() {
    added.clear();
    key = null;
    resets++;
  }

  @Override
  public void add(ChangeRow version) {
    key = version.toKeyValue().key();
    added.add(version.sequenceNumber());
  }

  @Override
  public KeyValue result() {
    return new KeyValue(
        key, added.get(added.size() - 1), RowKind.INSERT, new Object[] {List.copyOf(added)});
  }

  /** How many keys the function was reset for. */
  int resets() {
    return resets;
  }
}
