package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.format.BinaryRowView;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The records a bucket writer has received since its last flush, held serialized: each row as its
 * Paimon BinaryRow in pages of bytes, and beside it, in primitive arrays, its sequence number, its
 * kind and its key (the key's value when it is one integral column, else its BinaryRow's place in
 * the pages). No record keeps an object on the heap, so a full buffer is a few large arrays rather
 * than millions of small objects for the collector to trace and copy, and a flush reads its records
 * as views ({@link SortedKeys#view}) in key order.
 *
 * <p>Bounded in memory by the worker's {@link WriteBudget} ({@code write-buffer-size}, shared by
 * every bucket writer in the JVM), counting the pages and arrays it holds: when the budget says so,
 * the records in memory are sorted and spilled to a local file as one sorted run ({@code
 * write-buffer-spillable}, the default), or the writer is told to flush.
 *
 * <p>A flush reads {@link #sortedKeys()} when nothing was spilled, else merges {@link
 * #sortedRuns()}; then {@link #clear()}.
 */
final class WriteBuffer implements Closeable {

  /** The bytes a record holds beside its row: sequence number, key, row address, kind. */
  private static final int RECORD_BYTES = 8 + 8 + 8 + 1;

  private static final int INITIAL_RECORDS = 1024;

  private final RowType keyType;
  private final RowType valueType;
  private final Comparator<KeyValue> versionOrder;
  private final WriteBudget budget;
  private final boolean spillable;
  private final Path spillFolder;
  private final boolean integralKey;
  private final int[] keyInValue;
  private final BinaryRowCodec rowCodec;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowOrder keyBytesOrder;
  private final int pageSize;
  private final List<byte[]> pages = new ArrayList<>();
  private final List<KeyValueSpill> spills = new ArrayList<>();
  private byte[] page;
  private int pagePosition;
  private long pageBytes;

  // Per record, by arrival: where its row is (page index << 32 | offset), its key (the value of
  // an integral key, else where its key's BinaryRow is), its sequence number and its kind.
  private long[] rowAt = new long[INITIAL_RECORDS];
  private long[] keys = new long[INITIAL_RECORDS];
  private long[] sequences = new long[INITIAL_RECORDS];
  private byte[] kinds = new byte[INITIAL_RECORDS];
  private int count;
  private long reportedBytes;

  /**
   * @param keyType the key's columns, each a column of {@code valueType}
   * @param valueType every column of the table
   * @param versionOrder the order of a key's versions ({@code sequence.field}), or null for their
   *     arrival order
   * @param budget {@code write-buffer-size}: the JVM's shared budget of that size bounds the buffer
   * @param pageSize {@code page-size}: the pages rows are held in; a larger row takes a page of its
   *     own
   */
  WriteBuffer(
      RowType keyType,
      RowType valueType,
      Comparator<KeyValue> versionOrder,
      long budget,
      int pageSize,
      boolean spillable,
      Path spillFolder) {
    this.keyType = keyType;
    this.valueType = valueType;
    this.versionOrder = versionOrder;
    this.budget = WriteBudget.shared(budget);
    this.spillable = spillable;
    this.spillFolder = spillFolder;
    this.integralKey = RowComparator.integral(keyType);
    this.keyInValue = valueType.positionsOf(keyType);
    if (keyInValue == null) {
      throw new IllegalArgumentException(
          "the key " + keyType.names() + " is not among the columns " + valueType.names());
    }
    this.rowCodec = new BinaryRowCodec(valueType);
    this.keyCodec = integralKey ? null : new BinaryRowCodec(keyType);
    this.keyBytesOrder = integralKey ? null : new BinaryRowOrder(keyType);
    this.pageSize = pageSize;
  }

  /**
   * Adds a record: its row is serialized now, and neither array is kept.
   *
   * @param key the record's key, the {@code keyType} columns of {@code row}
   * @return true if the buffer is over budget and cannot spill: the writer should flush now
   * @throws IllegalArgumentException naming the column if a value is not of its column's type; the
   *     buffer is left as it was
   */
  boolean add(Object[] key, long sequenceNumber, RowKind kind, Object[] row) throws IOException {
    // Everything that can fail runs before anything is appended.
    long integralValue = integralKey ? RowComparator.integralValue(key) : 0;
    int rowLength = rowCodec.writeRow(row);
    int keyLength = integralKey ? 0 : keyCodec.writeRow(key);
    long keyValue = integralKey ? integralValue : append(keyCodec, keyLength);
    long rowAddress = append(rowCodec, rowLength);
    if (count == rowAt.length) {
      grow();
    }
    rowAt[count] = rowAddress;
    keys[count] = keyValue;
    sequences[count] = sequenceNumber;
    kinds[count] = kind.toByteValue();
    count++;
    long memoryBytes = memoryBytes();
    if (memoryBytes - reportedBytes < budget.reportStep()) {
      return false;
    }
    reportedBytes = memoryBytes;
    if (!budget.report(this, memoryBytes)) {
      return false;
    }
    if (!spillable) {
      return true;
    }
    spills.add(KeyValueSpill.write(spillFolder, keyType, valueType, sortedKeyValues()));
    clearMemory();
    return false;
  }

  /** Copies the row the codec just wrote into the pages, and returns where it is. */
  private long append(BinaryRowCodec codec, int length) {
    if (page == null || pagePosition + length > page.length) {
      page = new byte[Math.max(pageSize, length)];
      pages.add(page);
      pageBytes += page.length;
      pagePosition = 0;
    }
    codec.copyLastRow(page, pagePosition);
    long address = ((long) (pages.size() - 1) << 32) | pagePosition;
    pagePosition += length;
    return address;
  }

  private void grow() {
    int capacity = 2 * rowAt.length;
    rowAt = Arrays.copyOf(rowAt, capacity);
    keys = Arrays.copyOf(keys, capacity);
    sequences = Arrays.copyOf(sequences, capacity);
    kinds = Arrays.copyOf(kinds, capacity);
  }

  private long memoryBytes() {
    return pageBytes + (long) count * RECORD_BYTES;
  }

  boolean isEmpty() {
    return count == 0 && spills.isEmpty();
  }

  /** Whether some records were spilled to local files: a flush then merges {@link #sortedRuns}. */
  boolean spilled() {
    return !spills.isEmpty();
  }

  /** Records held, in memory and spilled. */
  long size() {
    long size = count;
    for (KeyValueSpill s : spills) {
      size += s.count();
    }
    return size;
  }

  /**
   * The records as sorted runs (those in memory, then each spill), each sorted by key, then
   * version, as key-values to merge.
   */
  List<Iterator<KeyValue>> sortedRuns() throws IOException {
    List<Iterator<KeyValue>> runs = new ArrayList<>();
    if (count > 0) {
      runs.add(sortedKeyValues());
    }
    for (KeyValueSpill s : spills) {
      runs.add(s.read());
    }
    return runs;
  }

  /** The records in memory as key-values, by key, then version. */
  private Iterator<KeyValue> sortedKeyValues() {
    SortedKeys sorted = sortedKeys();
    List<KeyValue> versions = new ArrayList<>();
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        if (next < versions.size()) {
          return true;
        }
        versions.clear();
        next = 0;
        if (sorted.next()) {
          sorted.addVersions(versions);
        }
        return !versions.isEmpty();
      }

      @Override
      public KeyValue next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return versions.get(next++);
      }
    };
  }

  /** The records in memory by key; read them before the buffer changes. */
  SortedKeys sortedKeys() {
    int[] order =
        integralKey
            ? RecordSort.byIntegralKey(keys, count)
            : RecordSort.stable(count, this::compareKeys);
    return new SortedKeys(order);
  }

  private int compareKeys(int a, int b) {
    return keyBytesOrder.compare(
        pages.get(pageOf(keys[a])),
        offsetOf(keys[a]),
        pages.get(pageOf(keys[b])),
        offsetOf(keys[b]));
  }

  private boolean sameKey(int a, int b) {
    return integralKey ? keys[a] == keys[b] : compareKeys(a, b) == 0;
  }

  private static int pageOf(long address) {
    return (int) (address >>> 32);
  }

  private static int offsetOf(long address) {
    return (int) address;
  }

  /**
   * The keys of the records in memory, one at a time in key order, each with its versions in
   * arrival order: read as views of their rows, or as key-values.
   */
  final class SortedKeys {

    private final int[] order;
    private final BinaryRowView view = new BinaryRowView(valueType, keyInValue);
    private int from;
    private int to;

    private SortedKeys(int[] order) {
      this.order = order;
    }

    /** Moves to the next key; false at the end. */
    boolean next() {
      from = to;
      if (from >= order.length) {
        return false;
      }
      to = from + 1;
      while (to < order.length && sameKey(order[from], order[to])) {
        to++;
      }
      return true;
    }

    /** The number of versions of the key. */
    int versions() {
      return to - from;
    }

    /**
     * Version {@code i} of the key, in arrival order (sequence number), as a view of its row: valid
     * until the next call.
     */
    ChangeRow view(int i) {
      int record = order[from + i];
      long address = rowAt[record];
      return view.of(
          pages.get(pageOf(address)),
          offsetOf(address),
          sequences[record],
          RowKind.fromByteValue(kinds[record]));
    }

    /**
     * Adds the key's versions to {@code versions} as key-values, in version order: by {@code
     * sequence.field}, then arrival, if the table has one.
     */
    void addVersions(List<KeyValue> versions) {
      int first = versions.size();
      for (int i = 0; i < versions(); i++) {
        int record = order[from + i];
        long address = rowAt[record];
        Object[] row = rowCodec.decodeRow(pages.get(pageOf(address)), offsetOf(address));
        Object[] key = new Object[keyInValue.length];
        for (int k = 0; k < key.length; k++) {
          key[k] = row[keyInValue[k]];
        }
        versions.add(
            new KeyValue(key, sequences[record], RowKind.fromByteValue(kinds[record]), row));
      }
      if (versionOrder != null && versions.size() - first > 1) {
        // A stable sort: versions the order ties keep their arrival order.
        versions.subList(first, versions.size()).sort(versionOrder);
      }
    }
  }

  /** Empties the buffer and deletes its spill files. */
  void clear() throws IOException {
    clearMemory();
    for (KeyValueSpill s : spills) {
      s.close();
    }
    spills.clear();
  }

  private void clearMemory() {
    pages.clear();
    page = null;
    pagePosition = 0;
    pageBytes = 0;
    count = 0;
    if (rowAt.length > INITIAL_RECORDS) {
      rowAt = new long[INITIAL_RECORDS];
      keys = new long[INITIAL_RECORDS];
      sequences = new long[INITIAL_RECORDS];
      kinds = new byte[INITIAL_RECORDS];
    }
    reportedBytes = 0;
    budget.report(this, 0);
  }

  @Override
  public void close() throws IOException {
    clear();
  }
}
