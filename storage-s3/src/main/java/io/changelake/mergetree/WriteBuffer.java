package io.changelake.mergetree;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.BinaryRowOrder;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The records a bucket writer has received since its last flush, held serialized: each row as its
 * Paimon BinaryRow in pages of bytes, and beside it, in primitive arrays, its sequence number, its
 * kind and its key (the key's value when it is one integral column, else its BinaryRow's place in
 * the pages). No record keeps an object on the heap, so a full buffer is a few large arrays rather
 * than millions of small objects for the collector to trace and copy, and a flush reads its records
 * as views of their rows ({@link BufferedKeys#view}) in key order.
 *
 * <p>Bounded in memory by the worker's {@link WriteBudget} ({@code write-buffer-size}, shared by
 * every bucket writer in the JVM), counting the pages and arrays it holds: when the budget says so,
 * the records in memory are sorted and spilled to a local file as one sorted run ({@code
 * write-buffer-spillable}, the default), bytes as they are ({@link BufferSpill}), or the writer is
 * told to flush.
 *
 * <p>A flush reads {@link #keys()}, the records in memory and spilled merged by key; then {@link
 * #clear()}.
 */
final class WriteBuffer implements Closeable {

  /**
   * The bytes a record holds beside its row: sequence number, key, row address and length, kind.
   */
  private static final int RECORD_BYTES = 8 + 8 + 8 + 4 + 1;

  /** Room for records at first: the arrays double as they fill, and shrink back at a flush. */
  private static final int INITIAL_RECORDS = 16;

  private final RowType keyType;
  private final RowType valueType;
  private final Comparator<ChangeRow> versionOrder;
  private final WriteBudget budget;
  private final boolean spillable;
  private final Path spillFolder;
  private final boolean integralKey;

  /**
   * Whether a key of several columns starts with an integer one (TINYINT to BIGINT), whose value
   * {@link #prefixes} holds per record: the sort compares it before the key's bytes, and most
   * comparisons end there, in one array, rather than in two pages (as Paimon's sort buffer compares
   * a normalized key first).
   */
  private final boolean prefixed;

  private final int[] keyInValue;
  private final BinaryRowCodec rowCodec;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowOrder keyBytesOrder;
  private final int pageSize;
  private final List<byte[]> pages = new ArrayList<>();
  private final List<BufferSpill> spills = new ArrayList<>();
  private byte[] page;
  private int pagePosition;
  private long pageBytes;

  // Per record, by arrival: where its row is (page index << 32 | offset) and its length, its key
  // (the value of an integral key, else where its key's BinaryRow is), its sequence number and
  // its kind.
  private long[] rowAt = new long[INITIAL_RECORDS];
  private int[] rowLengths = new int[INITIAL_RECORDS];
  private long[] keys = new long[INITIAL_RECORDS];
  private long[] sequences = new long[INITIAL_RECORDS];
  private byte[] kinds = new byte[INITIAL_RECORDS];
  private long[] prefixes;
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
      Comparator<ChangeRow> versionOrder,
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
    this.prefixed = !integralKey && RowComparator.integral(keyType.type(0).root());
    this.prefixes = prefixed ? new long[INITIAL_RECORDS] : null;
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
    // A key and its row go into one page, the key first: its length is where its row starts.
    makeRoom(keyLength + rowLength);
    long keyValue = integralKey ? integralValue : append(keyCodec, keyLength);
    long rowAddress = append(rowCodec, rowLength);
    if (count == rowAt.length) {
      grow();
    }
    rowAt[count] = rowAddress;
    rowLengths[count] = rowLength;
    keys[count] = keyValue;
    sequences[count] = sequenceNumber;
    kinds[count] = kind.toByteValue();
    if (prefixed) {
      // The key's order puts a null first, and MIN_VALUE is no larger than any value: a tie falls
      // back to the bytes.
      prefixes[count] = key[0] == null ? Long.MIN_VALUE : RowComparator.integralValue(key);
    }
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
    spill();
    return false;
  }

  /** Starts a new page unless the current one has {@code length} bytes left. */
  private void makeRoom(int length) {
    if (page == null || pagePosition + length > page.length) {
      page = new byte[Math.max(pageSize, length)];
      pages.add(page);
      pageBytes += page.length;
      pagePosition = 0;
    }
  }

  /** Copies the row the codec just wrote into the current page, and returns where it is. */
  private long append(BinaryRowCodec codec, int length) {
    codec.copyLastRow(page, pagePosition);
    long address = ((long) (pages.size() - 1) << 32) | pagePosition;
    pagePosition += length;
    return address;
  }

  private void grow() {
    int capacity = 2 * rowAt.length;
    rowAt = Arrays.copyOf(rowAt, capacity);
    rowLengths = Arrays.copyOf(rowLengths, capacity);
    keys = Arrays.copyOf(keys, capacity);
    sequences = Arrays.copyOf(sequences, capacity);
    kinds = Arrays.copyOf(kinds, capacity);
    if (prefixed) {
      prefixes = Arrays.copyOf(prefixes, capacity);
    }
  }

  private long memoryBytes() {
    return pageBytes + (long) rowAt.length * (RECORD_BYTES + (prefixed ? 8 : 0));
  }

  boolean isEmpty() {
    return count == 0 && spills.isEmpty();
  }

  /**
   * The keys of every record held, in memory and spilled, in key order; read them before the buffer
   * changes.
   *
   * @throws IOException if a spill cannot be opened
   */
  BufferedKeys keys() throws IOException {
    List<BufferRun> runs = new ArrayList<>();
    for (BufferSpill spill : spills) {
      runs.add(spill.read());
    }
    if (count > 0) {
      runs.add(new MemoryRun(sortedPositions()));
    }
    return new BufferedKeys(runs, integralKey, keyType, valueType, keyInValue, versionOrder);
  }

  /** Writes the records in memory to a spill file, in key order, and drops them from memory. */
  private void spill() throws IOException {
    BufferSpill spill = BufferSpill.create(spillFolder, integralKey);
    try {
      MemoryRun run = new MemoryRun(sortedPositions());
      while (run.advance()) {
        spill.append(run);
      }
      spill.finish();
    } catch (IOException | RuntimeException e) {
      spill.close();
      throw e;
    }
    spills.add(spill);
    clearMemory();
  }

  /** The positions of the records in memory, by key, then arrival. */
  private int[] sortedPositions() {
    return integralKey
        ? RecordSort.byIntegralKey(keys, count)
        : RecordSort.stable(count, this::compareKeys);
  }

  private int compareKeys(int a, int b) {
    if (prefixed && prefixes[a] != prefixes[b]) {
      return prefixes[a] < prefixes[b] ? -1 : 1;
    }
    return keyBytesOrder.compare(
        pages.get(pageOf(keys[a])),
        offsetOf(keys[a]),
        pages.get(pageOf(keys[b])),
        offsetOf(keys[b]));
  }

  private static int pageOf(long address) {
    return (int) (address >>> 32);
  }

  private static int offsetOf(long address) {
    return (int) address;
  }

  /** The records in memory in the order of the positions given. */
  private final class MemoryRun implements BufferRun {

    private final int[] order;
    private int next;
    private int record = -1;
    private byte[] page;

    private MemoryRun(int[] order) {
      this.order = order;
    }

    @Override
    public boolean advance() {
      if (next == order.length) {
        return false;
      }
      record = order[next++];
      page = pages.get(pageOf(rowAt[record]));
      return true;
    }

    @Override
    public long sequenceNumber() {
      return sequences[record];
    }

    @Override
    public byte kind() {
      return kinds[record];
    }

    @Override
    public long integralKey() {
      return keys[record];
    }

    @Override
    public byte[] bytes() {
      return page;
    }

    @Override
    public int keyStart() {
      return offsetOf(keys[record]);
    }

    @Override
    public int keyLength() {
      // A key that is not integral is appended just before its row, in the same page.
      return integralKey ? 0 : offsetOf(rowAt[record]) - offsetOf(keys[record]);
    }

    @Override
    public int rowStart() {
      return offsetOf(rowAt[record]);
    }

    @Override
    public int rowLength() {
      return rowLengths[record];
    }
  }

  /** Empties the buffer and deletes its spill files. */
  void clear() throws IOException {
    clearMemory();
    for (BufferSpill s : spills) {
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
      rowLengths = new int[INITIAL_RECORDS];
      keys = new long[INITIAL_RECORDS];
      sequences = new long[INITIAL_RECORDS];
      kinds = new byte[INITIAL_RECORDS];
      prefixes = prefixed ? new long[INITIAL_RECORDS] : null;
    }
    reportedBytes = 0;
    budget.report(this, 0);
  }

  @Override
  public void close() throws IOException {
    clear();
  }
}
