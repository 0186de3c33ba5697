package io.changelake.format;

import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.dictionary.DictionaryValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;

/**
 * The dictionary of an INT32 or INT64 column chunk, as Parquet's own {@code
 * PlainIntegerDictionaryValuesWriter} and {@code PlainLongDictionaryValuesWriter} keep it, on a
 * plain open-addressing table of primitives: the same ids in the same order (a value's id is the
 * number of distinct values before it), the same dictionary size and fallback, hence the same
 * pages, dictionary page and bytes.
 *
 * <p>Why: Parquet's writers keep the dictionary in a linked hash map (fastutil's {@code
 * Long2IntLinkedOpenHashMap}), probed twice for every new value and linked for insertion order; a
 * profile of the lookup write put that map at a sixth of the Parquet encoding. Here a value is
 * hashed once, the table holds only ids, and the values sit in an array in id order, which is the
 * dictionary page and the fallback's reverse dictionary as it is.
 *
 * <p>A column that never descends is not hashed at all: while every value is the one before or
 * greater, it is the last id or a new one, without a probe. The key columns of a sorted file do not
 * descend (the file's key and the value's copy of it; a changelog file repeats a key for its -U and
 * +U); the values are indexed at the first value that descends, and looked up from then on.
 *
 * <p>Small values that are not negative are indexed densely, a value's id at the value's index;
 * others, or values too far apart for their number, in the table. A column moves from one to the
 * other as its values grow in number or in range.
 *
 * <p>A page's ids are kept in one {@code int[]}, reused page after page, and {@link
 * RleHybridEncoder} encodes them in one call, where Parquet's writer appends them to a list of
 * slabs allocated afresh for every page and encodes them one call each.
 *
 * <p>{@link NumberValuesWriters} hands these to the number columns of a {@link RowGroupWriter}.
 */
final class NumberDictionaryWriter extends DictionaryValuesWriter {

  /**
   * Slots of the smallest table, and twice the values' array at first: a power of two. Also the
   * ids' array at first.
   */
  private static final int INITIAL_SLOTS = 64;

  private final boolean ints;
  private final int bytesPerValue;

  /** Distinct values by id: the dictionary page, and the fallback's reverse dictionary. */
  private long[] values = new long[INITIAL_SLOTS / 2];

  /**
   * Open addressing, linear probing, at most a quarter full: a slot holds a value's id + 1 (0 for
   * an empty slot), compared through {@link #values}. Ids alone keep the table a quarter of the
   * size of value and id side by side (2 MiB at Parquet's 131,072 longs), and in the caches: that
   * measured 5 to 20% faster on repeating values. Null until a value descends, and while {@link
   * #dense} indexes the values.
   */
  private int[] table;

  /**
   * A value's id + 1 at the value's index (0 for a value not seen), while every value is small and
   * not negative: a status, a count, a store number, an amount in a narrow range. One load finds a
   * value's id, where the table takes a hash, a probe or more, and a load from {@link #values}; and
   * for values close together the index is smaller than the table and its values, so it stays in
   * the caches among the other columns' pages and the merge's rows. In a profile of the
   * full-compaction write (CPU cycles), the dictionaries' lookups were a tenth of the write; the
   * benchmark's 10,000 distinct amounts had filled a table of 65,536 slots (256 KiB) beside 128 KiB
   * of values, where their index takes 64 KiB. With the index that write ran 3.5% faster side by
   * side than with the table. Null unless the values allow it ({@link #denseLength}); then {@link
   * #table} is null.
   */
  private int[] dense;

  private static final int DENSE_MIN_LENGTH = 1024;
  private static final int DENSE_MAX_LENGTH = 1 << 18;

  private int size;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;

  /** The ids of the page's values, in order: {@code ids[0..idCount)}. */
  private int[] ids = new int[INITIAL_SLOTS];

  private int idCount;

  private final RleHybridEncoder encoder = new RleHybridEncoder();

  /**
   * @param ints whether the column is INT32 (else INT64)
   * @param maxDictionaryByteSize the dictionary size past which the column falls back to plain
   */
  // PARQUET_1_0 labels dictionary pages and their data pages PLAIN_DICTIONARY, as Parquet's own
  // V1 factory does; the newer label (RLE_DICTIONARY) belongs to version 2 files.
  @SuppressWarnings("deprecation")
  NumberDictionaryWriter(boolean ints, int maxDictionaryByteSize, ByteBufferAllocator allocator) {
    super(maxDictionaryByteSize, Encoding.PLAIN_DICTIONARY, Encoding.PLAIN_DICTIONARY, allocator);
    this.ints = ints;
    this.bytesPerValue = ints ? 4 : 8;
  }

  @Override
  public void writeInteger(int v) {
    add(v);
  }

  @Override
  public void writeLong(long v) {
    add(v);
  }

  private void add(long v) {
    if (table == null && dense == null) {
      if (size == 0 || v > values[size - 1]) {
        addId(append(v));
        return;
      }
      if (v == values[size - 1]) {
        addId(size - 1);
        return;
      }
      index();
    }
    if (dense != null) {
      addDense(v);
    } else {
      addHashed(v);
    }
  }

  private void addDense(long v) {
    if (v >= 0 && v < dense.length) {
      int stored = dense[(int) v];
      if (stored == 0) {
        stored = append(v) + 1;
        dense[(int) v] = stored;
      }
      addId(stored - 1);
      return;
    }
    int id = append(v);
    index();
    addId(id);
  }

  private void addHashed(long v) {
    int mask = table.length - 1;
    int slot = spread(v) & mask;
    int stored;
    while ((stored = table[slot]) != 0) {
      if (values[stored - 1] == v) {
        addId(stored - 1);
        return;
      }
      slot = (slot + 1) & mask;
    }
    int id = append(v);
    table[slot] = id + 1;
    if (4 * size > table.length) {
      index();
    }
    addId(id);
  }

  private void addId(int id) {
    if (idCount == ids.length) {
      ids = Arrays.copyOf(ids, 2 * ids.length);
    }
    ids[idCount++] = id;
  }

  /** Gives {@code v}, a value not in the dictionary, the next id. */
  private int append(long v) {
    int id = size++;
    if (id == values.length) {
      values = Arrays.copyOf(values, 2 * values.length);
    }
    values[id] = v;
    min = Math.min(min, v);
    max = Math.max(max, v);
    dictionaryByteSize += bytesPerValue;
    return id;
  }

  /**
   * Indexes the values so far: densely if they allow it ({@link #denseLength}), else in a hash
   * table at most a quarter full.
   */
  private void index() {
    int length = denseLength();
    if (length > 0) {
      table = null;
      dense = new int[length];
      for (int id = 0; id < size; id++) {
        dense[(int) values[id]] = id + 1;
      }
    } else {
      dense = null;
      table = tableFor(size);
    }
  }

  /**
   * The length of a dense index of the values so far, a power of two above the largest; 0 if a
   * value is negative, or the index would be longer than {@link #DENSE_MAX_LENGTH} or than 16 slots
   * a value (a hash table takes 4, and 8 bytes a value in {@link #values}).
   */
  private int denseLength() {
    if (min < 0 || max >= DENSE_MAX_LENGTH) {
      return 0;
    }
    int length = Math.max(DENSE_MIN_LENGTH, Integer.highestOneBit((int) max) << 1);
    return length <= Math.max(DENSE_MIN_LENGTH, 16 * size) ? length : 0;
  }

  /** Spreads a value's bits over the low ones the table uses (fastutil's and Murmur3's mix). */
  private static int spread(long v) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32) ^ (h >>> 16));
  }

  /** A table of the first {@code count} values, at most a quarter full. */
  private int[] tableFor(int count) {
    int slots = Math.max(INITIAL_SLOTS, Integer.highestOneBit(4 * count - 1) << 1);
    int[] built = new int[slots];
    int mask = slots - 1;
    for (int id = 0; id < count; id++) {
      int slot = spread(values[id]) & mask;
      while (built[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      built[slot] = id + 1;
    }
    return built;
  }

  @Override
  public DictionaryPage toDictPageAndClose() {
    if (lastUsedDictionarySize == 0) {
      // As Parquet's: a dictionary only if a page used it.
      return null;
    }
    PlainValuesWriter page =
        new PlainValuesWriter(lastUsedDictionaryByteSize, maxDictionaryByteSize, allocator);
    for (int id = 0; id < lastUsedDictionarySize; id++) {
      writeValue(page, id);
    }
    return dictPage(page);
  }

  @Override
  public int getDictionarySize() {
    return size;
  }

  @Override
  protected void clearDictionaryContent() {
    table = null;
    dense = null;
    size = 0;
    min = Long.MAX_VALUE;
    max = Long.MIN_VALUE;
  }

  /** The page's ids at the width of the largest id, as Parquet's writer encodes them. */
  @Override
  public BytesInput getBytes() {
    BytesInput bytes =
        encoder.encodeWithWidth(ids, idCount, BytesUtils.getWidthFromMaxInt(size - 1));
    lastUsedDictionarySize = size;
    lastUsedDictionaryByteSize = Math.toIntExact(dictionaryByteSize);
    return bytes;
  }

  @Override
  public long getBufferedSize() {
    return idCount * 4L;
  }

  @Override
  public long getAllocatedSize() {
    return idCount * 4L + dictionaryByteSize;
  }

  @Override
  public void reset() {
    super.reset();
    idCount = 0;
  }

  @Override
  public void fallBackDictionaryEncodedData(ValuesWriter writer) {
    for (int i = 0; i < idCount; i++) {
      writeValue(writer, ids[i]);
    }
  }

  /**
   * Hands the page's values to the plain writer; the ids are dropped whether or not earlier pages
   * used the dictionary, since this writer takes no more values before the next row group.
   */
  @Override
  public void fallBackAllValuesTo(ValuesWriter writer) {
    super.fallBackAllValuesTo(writer);
    idCount = 0;
  }

  @Override
  public String memUsageString(String prefix) {
    return prefix
        + " NumberDictionaryWriter{dictionary "
        + dictionaryByteSize
        + " bytes, ids "
        + idCount * 4L
        + " bytes}";
  }

  /** Writes the value of dictionary id {@code id} to {@code out} as the column's type. */
  private void writeValue(ValuesWriter out, int id) {
    if (ints) {
      out.writeInteger((int) values[id]);
    } else {
      out.writeLong(values[id]);
    }
  }
}
