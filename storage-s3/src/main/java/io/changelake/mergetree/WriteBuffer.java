package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * The records a bucket writer has received since its last flush, bounded in memory by the worker's
 * {@link WriteBudget} ({@code write-buffer-size}, shared by every bucket writer in the JVM): when
 * the budget says so, the records in memory are sorted and spilled to a local file as one sorted
 * run ({@code write-buffer-spillable}, the default), or the writer is told to flush.
 *
 * <p>A flush reads {@link #sortedRuns()}, merges them and writes the result; then {@link #clear()}.
 */
final class WriteBuffer implements Closeable {

  /** Rough heap cost of a key-value and of each field, for the budget. */
  private static final long RECORD_OVERHEAD = 96;

  private static final long FIELD_OVERHEAD = 24;

  private final RowType keyType;
  private final RowType valueType;
  private final Comparator<KeyValue> order;
  private final Comparator<KeyValue> versionOrder;
  private final WriteBudget budget;
  private final boolean spillable;
  private final Path spillFolder;
  private final boolean integralKey;
  private final List<KeyValue> memory = new ArrayList<>();
  private final List<KeyValueSpill> spills = new ArrayList<>();
  private long memoryBytes;
  private long reportedBytes;

  /**
   * @param keyOrder the order of keys
   * @param versionOrder the order of a key's versions ({@code sequence.field}), or null for their
   *     arrival order; the sort is stable
   * @param budget {@code write-buffer-size}: the JVM's shared budget of that size bounds the buffer
   */
  WriteBuffer(
      RowType keyType,
      RowType valueType,
      Comparator<Object[]> keyOrder,
      Comparator<KeyValue> versionOrder,
      long budget,
      boolean spillable,
      Path spillFolder) {
    this.keyType = keyType;
    this.valueType = valueType;
    Comparator<KeyValue> byKey = (a, b) -> keyOrder.compare(a.key(), b.key());
    this.order = versionOrder == null ? byKey : byKey.thenComparing(versionOrder);
    this.versionOrder = versionOrder;
    this.budget = WriteBudget.shared(budget);
    this.spillable = spillable;
    this.spillFolder = spillFolder;
    this.integralKey = RowComparator.integral(keyType);
  }

  /**
   * Adds a record.
   *
   * @return true if the buffer is over budget and cannot spill: the writer should flush now
   */
  boolean add(KeyValue kv) throws IOException {
    memory.add(kv);
    memoryBytes += estimate(kv);
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
    sortMemory();
    spills.add(KeyValueSpill.write(spillFolder, keyType, valueType, memory.iterator()));
    memory.clear();
    release();
    return false;
  }

  boolean isEmpty() {
    return memory.isEmpty() && spills.isEmpty();
  }

  /** Records held, in memory and spilled. */
  long size() {
    long size = memory.size();
    for (KeyValueSpill s : spills) {
      size += s.count();
    }
    return size;
  }

  /** The records as sorted runs (the memory run sorted now, then each spill), to merge. */
  List<Iterator<KeyValue>> sortedRuns() throws IOException {
    sortMemory();
    List<Iterator<KeyValue>> runs = new ArrayList<>();
    if (!memory.isEmpty()) {
      runs.add(memory.iterator());
    }
    for (KeyValueSpill s : spills) {
      runs.add(s.read());
    }
    return runs;
  }

  private void sortMemory() {
    if (integralKey) {
      IntegralKeySort.sort(memory, versionOrder);
    } else {
      memory.sort(order);
    }
  }

  /** Empties the buffer and deletes its spill files. */
  void clear() throws IOException {
    memory.clear();
    release();
    for (KeyValueSpill s : spills) {
      s.close();
    }
    spills.clear();
  }

  private void release() {
    memoryBytes = 0;
    reportedBytes = 0;
    budget.report(this, 0);
  }

  @Override
  public void close() throws IOException {
    clear();
  }

  private static long estimate(KeyValue kv) {
    return RECORD_OVERHEAD + estimate(kv.key()) + estimate(kv.value());
  }

  private static long estimate(Object[] fields) {
    long bytes = 16 + 8L * fields.length;
    for (Object f : fields) {
      if (f instanceof String s) {
        bytes += 40 + s.length();
      } else if (f instanceof byte[] b) {
        bytes += 16 + b.length;
      } else if (f instanceof BigDecimal) {
        bytes += 64;
      } else if (f != null) {
        bytes += FIELD_OVERHEAD;
      }
    }
    return bytes;
  }
}
