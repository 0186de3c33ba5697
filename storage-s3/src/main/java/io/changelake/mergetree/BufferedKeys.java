package io.changelake.mergetree;

import io.changelake.format.BinaryRowOrder;
import io.changelake.format.BinaryRowView;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The keys of a write buffer at a flush, one at a time in key order: its runs (the records in
 * memory and each spill, {@link BufferRun}) merged by key, then sequence number, each key's
 * versions gathered, oldest first, as BinaryRows copied into one reused array. A version is read as
 * a view of its row ({@link #view}), which is how a flush writes a version as it is and how the
 * key's versions go to the merge engine ({@link #addVersions}).
 */
final class BufferedKeys {

  private final List<BufferRun> runs;
  private final boolean integralKey;
  private final BinaryRowOrder keyOrder;
  private final Comparator<ChangeRow> versionOrder;
  private final RunHeap heap;
  private final RowType valueType;
  private final int[] keyInValue;
  // A view per version of the current key, so that all of them are valid at once.
  private BinaryRowView[] views = new BinaryRowView[0];

  // The current key: its value if integral, else its BinaryRow; then, per version, where its row
  // starts in the rows array, its sequence number and kind.
  private long key;
  private byte[] keyBytes = new byte[64];
  private byte[] rows = new byte[1024];
  private int rowsEnd;
  private int[] rowStarts = new int[8];
  private long[] sequences = new long[8];
  private byte[] kinds = new byte[8];
  private int versions;

  /**
   * @param runs the buffer's runs, none advanced yet
   * @param integralKey whether the key is one integral column ({@link BufferRun#integralKey})
   * @param keyType the key's columns
   * @param valueType every column of the table
   * @param keyInValue where each key column stands in {@code valueType}
   * @param versionOrder the order of a key's versions ({@code sequence.field}), or null for their
   *     sequence numbers
   */
  BufferedKeys(
      List<BufferRun> runs,
      boolean integralKey,
      RowType keyType,
      RowType valueType,
      int[] keyInValue,
      Comparator<ChangeRow> versionOrder) {
    this.runs = List.copyOf(runs);
    this.integralKey = integralKey;
    this.keyOrder = integralKey ? null : new BinaryRowOrder(keyType);
    this.versionOrder = versionOrder;
    this.valueType = valueType;
    this.keyInValue = keyInValue;
    this.heap = new RunHeap(runs.size(), this::before);
    for (int i = 0; i < runs.size(); i++) {
      if (runs.get(i).advance()) {
        heap.add(i);
      }
    }
  }

  /** Whether run {@code a}'s record comes before run {@code b}'s: by key, then sequence number. */
  private boolean before(int a, int b) {
    BufferRun x = runs.get(a);
    BufferRun y = runs.get(b);
    int c =
        integralKey
            ? Long.compare(x.integralKey(), y.integralKey())
            : keyOrder.compare(x.bytes(), x.keyStart(), y.bytes(), y.keyStart());
    return c != 0 ? c < 0 : x.sequenceNumber() < y.sequenceNumber();
  }

  /** Moves to the next key; false at the end. */
  boolean next() {
    if (heap.size() == 0) {
      return false;
    }
    BufferRun first = runs.get(heap.top());
    if (integralKey) {
      key = first.integralKey();
    } else {
      keyBytes = copy(first.bytes(), first.keyStart(), first.keyLength(), keyBytes, 0);
    }
    versions = 0;
    rowsEnd = 0;
    do {
      BufferRun run = runs.get(heap.top());
      take(run);
      if (run.advance()) {
        heap.topChanged();
      } else {
        heap.removeTop();
      }
    } while (heap.size() > 0 && holdsKey(runs.get(heap.top())));
    return true;
  }

  private boolean holdsKey(BufferRun run) {
    return integralKey
        ? run.integralKey() == key
        : keyOrder.compare(run.bytes(), run.keyStart(), keyBytes, 0) == 0;
  }

  /** Copies the run's current record into the key's versions. */
  private void take(BufferRun run) {
    if (versions == rowStarts.length) {
      rowStarts = Arrays.copyOf(rowStarts, 2 * versions);
      sequences = Arrays.copyOf(sequences, 2 * versions);
      kinds = Arrays.copyOf(kinds, 2 * versions);
    }
    rowStarts[versions] = rowsEnd;
    sequences[versions] = run.sequenceNumber();
    kinds[versions] = run.kind();
    versions++;
    rows = copy(run.bytes(), run.rowStart(), run.rowLength(), rows, rowsEnd);
    rowsEnd += run.rowLength();
  }

  /** Copies {@code length} bytes to {@code target} at {@code at}, growing it if need be. */
  private static byte[] copy(byte[] source, int from, int length, byte[] target, int at) {
    byte[] into =
        at + length <= target.length
            ? target
            : Arrays.copyOf(target, Math.max(2 * target.length, at + length));
    System.arraycopy(source, from, into, at, length);
    return into;
  }

  /** The number of versions of the key. */
  int versions() {
    return versions;
  }

  /**
   * Version {@code i} of the key, oldest first (by sequence number), as a view of its row: valid
   * until the next key.
   */
  ChangeRow view(int i) {
    if (i >= views.length) {
      int grown = views.length;
      views = Arrays.copyOf(views, Math.max(versions, 2 * views.length));
      for (int v = grown; v < views.length; v++) {
        views[v] = new BinaryRowView(valueType, keyInValue);
      }
    }
    return views[i].of(rows, rowStarts[i], sequences[i], RowKind.fromByteValue(kinds[i]));
  }

  /**
   * Adds the key's versions to {@code versions}, in version order: by {@code sequence.field}, then
   * sequence number, if the table has one, else by sequence number. Each as a view ({@link #view}).
   */
  void addVersions(KeyVersions versions) {
    for (int i = 0; i < this.versions; i++) {
      versions.add(view(i), 0);
    }
    if (versionOrder != null) {
      versions.sort(versionOrder);
    }
  }
}
