package io.changelake.mergetree;

import io.changelake.format.KeyValueFileReader;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The newest version of each key of a bucket's files, in key order, as the deduplicate merge engine
 * (versions ordered by sequence number) resolves them; keys whose newest version retracts are left
 * out. With {@code ignore-delete}, retractions are passed over and the newest addition wins.
 *
 * <p>It gives what {@link SortMergeReader}, {@link KeyVersions} and {@link KeyMerge} give for such
 * a table, for less: only the version that wins has its values read; each version it supersedes is
 * passed over with its key, sequence number and kind alone ({@link KeyValueFileReader#advance}),
 * and a key of one BIGINT or INT column is compared unboxed. A batch read of a table whose files
 * overlap reads mostly superseded versions.
 *
 * <p>Whether a version is superseded is known before its file moves on: the versions of a key leave
 * the heap oldest first, so a version is superseded when the file next in the heap's order holds
 * the same key. A file holding a key twice (a sorted run never does) is still read right: its later
 * version replaces the earlier one, whose values were read for nothing.
 */
public final class NewestVersionMerge implements Iterator<KeyValue> {

  private final KeyValueFileReader[] files;
  private final RowComparator keyOrder;
  private final boolean ignoreDelete;
  private final boolean integralKeys;

  // Per file, its current key (when integral) and sequence number: the heap compares these
  // without reaching into the readers.
  private final long[] keys;
  private final long[] sequences;

  // The files by current key, then sequence number, then position.
  private final RunHeap heap;
  private KeyValue next;

  /**
   * @param files the files of one bucket, each sorted by key, none read yet; closing them is the
   *     caller's
   * @param keyOrder the table's key order
   * @param ignoreDelete whether the table ignores retractions ({@code ignore-delete})
   */
  public NewestVersionMerge(
      List<KeyValueFileReader> files, RowComparator keyOrder, boolean ignoreDelete) {
    this.files = files.toArray(KeyValueFileReader[]::new);
    this.keyOrder = keyOrder;
    this.ignoreDelete = ignoreDelete;
    this.integralKeys = files.stream().allMatch(KeyValueFileReader::hasIntegralKey);
    this.keys = new long[this.files.length];
    this.sequences = new long[this.files.length];
    this.heap = new RunHeap(this.files.length, this::before);
    for (int i = 0; i < this.files.length; i++) {
      if (this.files[i].advance()) {
        remember(i);
        heap.add(i);
      }
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null) {
      next = nextNewest();
    }
    return next != null;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    KeyValue newest = next;
    next = null;
    return newest;
  }

  /** Takes key after key until one has a newest version to give; null at the end. */
  private KeyValue nextNewest() {
    while (heap.size() > 0) {
      int first = heap.top();
      long key = keys[first];
      Object[] objectKey = integralKeys ? null : files[first].key();
      KeyValue newest = null;
      do {
        KeyValueFileReader file = files[heap.top()];
        RowKind kind = file.kind();
        boolean passedOver = ignoreDelete && !kind.isAdd();
        if (!passedOver && !supersededByNextInHeap()) {
          newest =
              kind.isAdd()
                  ? new KeyValue(file.key(), file.sequenceNumber(), kind, file.value())
                  : null;
        }
        advanceTop();
      } while (heap.size() > 0 && holds(heap.top(), key, objectKey));
      if (newest != null) {
        return newest;
      }
    }
    return null;
  }

  /**
   * Whether a later version of the top's key is in the heap: the file next in the heap's order (a
   * child of the top) holds the key. Under {@code ignore-delete} only a later addition supersedes.
   */
  private boolean supersededByNextInHeap() {
    int following = heap.second();
    if (following < 0) {
      return false;
    }
    int top = heap.top();
    return holds(following, keys[top], integralKeys ? null : files[top].key())
        && (!ignoreDelete || files[following].kind().isAdd());
  }

  /** Whether a file's current key is {@code key} (when integral) or {@code objectKey}. */
  private boolean holds(int file, long key, Object[] objectKey) {
    return integralKeys ? keys[file] == key : keyOrder.compare(files[file].key(), objectKey) == 0;
  }

  /** Moves the top file to its next version, or out of the heap when it has none. */
  private void advanceTop() {
    int top = heap.top();
    if (files[top].advance()) {
      remember(top);
      heap.topChanged();
    } else {
      heap.removeTop();
    }
  }

  private void remember(int file) {
    if (integralKeys) {
      keys[file] = files[file].integralKey();
    }
    sequences[file] = files[file].sequenceNumber();
  }

  /** Whether file {@code a}'s current version comes before file {@code b}'s. */
  private boolean before(int a, int b) {
    int c =
        integralKeys
            ? Long.compare(keys[a], keys[b])
            : keyOrder.compare(files[a].key(), files[b].key());
    if (c == 0) {
      c = Long.compare(sequences[a], sequences[b]);
    }
    return c != 0 ? c < 0 : a < b;
  }
}
