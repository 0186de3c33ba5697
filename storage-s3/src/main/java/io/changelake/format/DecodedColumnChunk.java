package io.changelake.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * One column chunk of a row group, decoded a whole page at a time into primitive arrays, then
 * handed out row by row, or for a bulk read a page's stretch of rows in one loop ({@link
 * #readInto}, {@link #readPrimitives}): the column-batch reader of {@link KeyValueFileReader}.
 *
 * <p>Parquet's own column reader decodes a value per call through several layers (level readers,
 * value readers, dictionary lookups, converters); here a page's definition levels and dictionary
 * ids are decoded in bulk ({@link RleHybridDecoder}), plain values are copied in bulk, and a read
 * is an array access. It decodes what Paimon's and this project's writers produce, flat columns of
 * data pages v1 or v2 with plain or dictionary values, and RLE booleans ({@link #decodes}); a chunk
 * in any other encoding is read by Parquet's reader instead ({@link AssembledColumn}).
 */
// PLAIN_DICTIONARY and BIT_PACKED are deprecated for writing, and still read; BytesInput's
// toByteArray and toByteBuffer are deprecated for the copy one makes and the array the other may
// share, which pageBytes chooses between on purpose.
@SuppressWarnings("deprecation")
final class DecodedColumnChunk implements ColumnValues {

  private static final Set<Encoding> DECODED =
      EnumSet.of(
          Encoding.PLAIN,
          Encoding.PLAIN_DICTIONARY,
          Encoding.RLE_DICTIONARY,
          // Definition levels, and the booleans of v2 pages.
          Encoding.RLE,
          // Listed for the repetition levels of flat columns, which have none to decode.
          Encoding.BIT_PACKED);

  private final ColumnDescriptor descriptor;
  private final PageReader pages;
  private final PrimitiveTypeName type;
  private final int fixedLength;
  private final int maxDefinition;
  private final int levelBitWidth;
  private final Object dictionary;
  private final int dictionarySize;
  private final ColumnCodec codec;

  /**
   * The dictionary's Java values, converted once, shared by every row that holds them: no boxing
   * and no conversion (a string decoded, a decimal built) per row. Built by {@link
   * #sharedDictionary} when a row is first read as an object, so that a column read unboxed ({@link
   * #readPrimitives}) never boxes its dictionary; null for columns whose values cannot be shared
   * ({@link ColumnCodec#sharesValues}).
   */
  private Object[] dictionaryValues;

  /**
   * Whether the current page's values are dictionary ids ({@link #ids}), read through {@link
   * #dictionaryValues} or, where values are not shared, {@link #dictionary}.
   */
  private boolean dictionaryPage;

  /** Per row of the page, its definition level; null when the column is required. */
  private int[] definitions;

  /** The dictionary ids of the page's values, when they are dictionary-encoded. */
  private int[] ids = new int[0];

  /**
   * A plain page's non-null values, in an array of the column's physical type (long[], int[],
   * float[], double[], boolean[] or Binary[]) reused from page to page: rows get them boxed or
   * converted.
   */
  private Object values;

  private int capacity;

  private int rowsInPage;
  private int row;
  private int valueIndex;

  /**
   * Whether this class decodes a chunk of the column {@code descriptor} written with {@code
   * encodings}.
   */
  static boolean decodes(Set<Encoding> encodings, ColumnDescriptor descriptor) {
    return descriptor.getMaxRepetitionLevel() == 0
        && descriptor.getMaxDefinitionLevel() <= 1
        && DECODED.containsAll(encodings);
  }

  /**
   * Whether this class, reading {@code column}, keeps nothing that points into a page once it has
   * decoded it: values of every type but binary ones are copied out of the page. Parquet's own
   * column reader gives no such promise.
   */
  static boolean keepsNoPage(ColumnDescriptor column) {
    PrimitiveTypeName type = column.getPrimitiveType().getPrimitiveTypeName();
    return type != PrimitiveTypeName.BINARY
        && type != PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
        && type != PrimitiveTypeName.INT96;
  }

  /**
   * @param codec the column's codec, or null for a system column read by {@link #readLong} or
   *     {@link #readInt}
   */
  DecodedColumnChunk(ColumnDescriptor descriptor, PageReader pages, ColumnCodec codec)
      throws IOException {
    this.descriptor = descriptor;
    this.codec = codec;
    this.pages = pages;
    this.type = descriptor.getPrimitiveType().getPrimitiveTypeName();
    this.fixedLength =
        type == PrimitiveTypeName.INT96 ? 12 : descriptor.getPrimitiveType().getTypeLength();
    this.maxDefinition = descriptor.getMaxDefinitionLevel();
    this.levelBitWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
    DictionaryPage page = pages.readDictionaryPage();
    this.dictionary = page == null ? null : dictionary(page);
    this.dictionarySize = page == null ? 0 : page.getDictionarySize();
  }

  /**
   * The dictionary page's values in an array of the column's physical type. Fixed-width numbers in
   * plain encoding (what Paimon's and this project's writers give) are copied in bulk: Parquet's
   * own dictionaries read them one value at a time through a stream, which a profile of the
   * changelog read put at a seventh of its time, since a key column's dictionary holds about one
   * entry per row.
   */
  private Object dictionary(DictionaryPage page) throws IOException {
    Encoding encoding = page.getEncoding();
    if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.PLAIN) {
      if (isNumber(type)) {
        ByteBuffer bytes = pageBytes(page.getBytes()).slice().order(ByteOrder.LITTLE_ENDIAN);
        Object values = newArray(type, page.getDictionarySize());
        copyNumbers(bytes, values, page.getDictionarySize());
        return values;
      }
    }
    return materialize(encoding.initDictionary(descriptor, page));
  }

  @Override
  public Object read() {
    int r = nextRow();
    if (definitions != null && definitions[r] != maxDefinition) {
      return null;
    }
    int v = valueIndex++;
    if (!dictionaryPage) {
      return codec.fromPhysical(physical(values, v));
    }
    Object[] shared = sharedDictionary();
    return shared != null ? shared[ids[v]] : codec.fromPhysical(physical(dictionary, ids[v]));
  }

  /**
   * {@link #read} for {@code count} rows, a page's stretch at a time: the page check, the kind of
   * page and the codec are looked at once per stretch, not once per value.
   */
  @Override
  public void readInto(Object[][] rows, int column, int count) {
    int done = 0;
    while (done < count) {
      pageWithRows();
      int n = Math.min(count - done, rowsInPage - row);
      Object[] shared = sharedDictionary();
      if (definitions == null && !dictionaryPage && type == PrimitiveTypeName.INT64) {
        long[] longs = (long[]) values;
        boolean asStored = codec.keepsPhysical();
        for (int i = 0; i < n; i++) {
          long v = longs[valueIndex + i];
          rows[done + i][column] = asStored ? (Object) v : codec.fromPhysical(v);
        }
        valueIndex += n;
        row += n;
      } else if (shared != null) {
        for (int i = 0; i < n; i++) {
          int r = row++;
          rows[done + i][column] =
              definitions != null && definitions[r] != maxDefinition
                  ? null
                  : shared[ids[valueIndex++]];
        }
      } else {
        for (int i = 0; i < n; i++) {
          rows[done + i][column] = read();
        }
      }
      done += n;
    }
  }

  /** The value at {@code index} of an array of the column's physical type, boxed. */
  private Object physical(Object array, int index) {
    switch (type) {
      case INT64:
        return ((long[]) array)[index];
      case INT32:
        return ((int[]) array)[index];
      case DOUBLE:
        return ((double[]) array)[index];
      case FLOAT:
        return ((float[]) array)[index];
      case BOOLEAN:
        return ((boolean[]) array)[index];
      default:
        return ((Binary[]) array)[index];
    }
  }

  @Override
  public Object lastShared() {
    Object[] shared = sharedDictionary();
    return shared != null ? shared[ids[valueIndex - 1]] : null;
  }

  /** Moves past the current row: no value is boxed, converted or looked up. */
  @Override
  public void skip() {
    int r = nextRow();
    if (definitions == null || definitions[r] == maxDefinition) {
      valueIndex++;
    }
  }

  @Override
  public long readLong() {
    nextRow();
    int v = valueIndex++;
    return dictionaryPage ? ((long[]) dictionary)[ids[v]] : ((long[]) values)[v];
  }

  @Override
  public int readInt() {
    nextRow();
    int v = valueIndex++;
    return dictionaryPage ? ((int[]) dictionary)[ids[v]] : ((int[]) values)[v];
  }

  @Override
  public void readLongs(long[] into, int count) {
    readPrimitives(into, null, count);
  }

  @Override
  public void readPrimitives(Object into, boolean[] nulls, int count) {
    int done = 0;
    while (done < count) {
      pageWithRows();
      int n = Math.min(count - done, rowsInPage - row);
      if (definitions == null && !dictionaryPage) {
        System.arraycopy(values, valueIndex, into, done, n);
        valueIndex += n;
        row += n;
        if (nulls != null) {
          Arrays.fill(nulls, done, done + n, false);
        }
      } else {
        Object source = dictionaryPage ? dictionary : values;
        for (int i = 0; i < n; i++) {
          boolean isNull = definitions != null && definitions[row] != maxDefinition;
          row++;
          if (nulls != null) {
            nulls[done + i] = isNull;
          }
          if (!isNull) {
            int v = valueIndex++;
            copy(source, dictionaryPage ? ids[v] : v, into, done + i);
          }
        }
      }
      done += n;
    }
  }

  /** Copies value {@code index} of an array of the column's physical type into {@code into}. */
  private void copy(Object from, int index, Object into, int at) {
    switch (type) {
      case INT64:
        ((long[]) into)[at] = ((long[]) from)[index];
        break;
      case INT32:
        ((int[]) into)[at] = ((int[]) from)[index];
        break;
      case DOUBLE:
        ((double[]) into)[at] = ((double[]) from)[index];
        break;
      case FLOAT:
        ((float[]) into)[at] = ((float[]) from)[index];
        break;
      case BOOLEAN:
        ((boolean[]) into)[at] = ((boolean[]) from)[index];
        break;
      default:
        throw new IllegalStateException("column " + descriptor + " holds no primitive values");
    }
  }

  @Override
  public void readInts(int[] into, int count) {
    readPrimitives(into, null, count);
  }

  private int nextRow() {
    pageWithRows();
    return row++;
  }

  /** Moves to the next page if the current one has no row left. */
  private void pageWithRows() {
    if (row == rowsInPage) {
      try {
        nextPage();
      } catch (IOException e) {
        throw new UncheckedIOException("reading a page of column " + descriptor, e);
      }
    }
  }

  private void nextPage() throws IOException {
    DataPage page = pages.readPage();
    if (page == null) {
      throw new IllegalStateException("column " + descriptor + " has no page left for its rows");
    }
    int count = page.getValueCount();
    ByteBuffer bytes;
    int offset;
    Encoding encoding;
    if (page instanceof DataPageV1 v1) {
      bytes = pageBytes(v1.getBytes());
      offset = bytes.arrayOffset() + bytes.position();
      if (maxDefinition > 0) {
        offset =
            readV1Definitions(
                v1, bytes.array(), offset, bytes.arrayOffset() + bytes.limit(), count);
      }
      encoding = v1.getValueEncoding();
    } else {
      DataPageV2 v2 = (DataPageV2) page;
      if (maxDefinition > 0) {
        byte[] levels = v2.getDefinitionLevels().toByteArray();
        RleHybridDecoder.decode(levels, 0, levels.length, levelBitWidth, definitions(count), count);
      }
      bytes = pageBytes(v2.getData());
      offset = bytes.arrayOffset() + bytes.position();
      encoding = v2.getDataEncoding();
    }
    byte[] data = bytes.array();
    int end = bytes.arrayOffset() + bytes.limit();
    int present = count;
    if (maxDefinition > 0) {
      present = 0;
      for (int i = 0; i < count; i++) {
        if (definitions[i] == maxDefinition) {
          present++;
        }
      }
    } else {
      definitions = null;
    }
    dictionaryPage = encoding.usesDictionary();
    if (dictionaryPage) {
      if (dictionary == null) {
        throw new IllegalStateException(
            "column " + descriptor + " has dictionary ids but no dictionary");
      }
      int bitWidth = data[offset] & 0xff;
      RleHybridDecoder.decode(data, offset + 1, end, bitWidth, ids(present), present);
    } else if (encoding == Encoding.PLAIN) {
      plain(data, offset, end, present);
    } else if (encoding == Encoding.RLE && type == PrimitiveTypeName.BOOLEAN) {
      // Booleans of v2 pages: a length, then runs of bit width 1.
      int length = littleEndianInt(data, offset);
      RleHybridDecoder.decode(data, offset + 4, offset + 4 + length, 1, ids(present), present);
      boolean[] booleans = (boolean[]) buffer(present);
      for (int i = 0; i < present; i++) {
        booleans[i] = ids[i] != 0;
      }
    } else {
      throw new IllegalStateException(
          "column "
              + descriptor
              + " has a page in "
              + encoding
              + ", which its chunk does not list");
    }
    rowsInPage = count;
    row = 0;
    valueIndex = 0;
  }

  /**
   * Decodes a v1 page's definition levels, which start at {@code start} of {@code data} (the page
   * ends at {@code end}), into {@link #definitions}; returns where values start.
   */
  private int readV1Definitions(DataPageV1 page, byte[] data, int start, int end, int count)
      throws IOException {
    int[] levels = definitions(count);
    if (page.getDlEncoding() == Encoding.RLE) {
      int length = littleEndianInt(data, start);
      RleHybridDecoder.decode(data, start + 4, start + 4 + length, levelBitWidth, levels, count);
      return start + 4 + length;
    }
    ValuesReader reader =
        page.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
    ByteBufferInputStream in =
        ByteBufferInputStream.wrap(ByteBuffer.wrap(data, start, end - start).slice());
    reader.initFromPage(count, in);
    for (int i = 0; i < count; i++) {
      levels[i] = reader.readInteger();
    }
    return start + (int) in.position();
  }

  /**
   * A page's bytes in a heap buffer, from its position to its limit. The page's own array where it
   * has one (a decompressed page, or a stretch of the chunk's bytes), for a column whose values are
   * copied out of the page as it is decoded; a copy for a column of binary values, which point into
   * the bytes until each is read: the array under a page is the page reader's, which promises
   * nothing about what it does with it later ({@link RowGroupPages#getTransientPageReader} reuses
   * it).
   */
  private ByteBuffer pageBytes(BytesInput page) throws IOException {
    if (keepsNoPage(descriptor)) {
      ByteBuffer bytes = page.toByteBuffer();
      if (bytes.hasArray()) {
        return bytes;
      }
    }
    return ByteBuffer.wrap(page.toByteArray());
  }

  /** {@link #values}, holding at least {@code count} values. */
  private Object buffer(int count) {
    if (values == null || capacity < count) {
      capacity = Math.max(count, 2 * capacity);
      values = newArray(type, capacity);
    }
    return values;
  }

  private static int littleEndianInt(byte[] data, int offset) {
    return (data[offset] & 0xff)
        | (data[offset + 1] & 0xff) << 8
        | (data[offset + 2] & 0xff) << 16
        | (data[offset + 3] & 0xff) << 24;
  }

  private int[] definitions(int count) {
    int size = count + 7;
    if (definitions == null || definitions.length < size) {
      definitions = new int[size];
    }
    return definitions;
  }

  private int[] ids(int count) {
    int size = count + 7;
    if (ids.length < size) {
      ids = new int[size];
    }
    return ids;
  }

  private void plain(byte[] data, int offset, int end, int count) {
    ByteBuffer bytes =
        ByteBuffer.wrap(data, offset, end - offset).slice().order(ByteOrder.LITTLE_ENDIAN);
    if (isNumber(type)) {
      copyNumbers(bytes, buffer(count), count);
      return;
    }
    switch (type) {
      case BOOLEAN:
        boolean[] booleans = (boolean[]) buffer(count);
        for (int i = 0; i < count; i++) {
          booleans[i] = ((data[offset + (i >>> 3)] >>> (i & 7)) & 1) != 0;
        }
        break;
      case BINARY:
        Binary[] binaries = (Binary[]) buffer(count);
        int pos = offset;
        for (int i = 0; i < count; i++) {
          int length = littleEndianInt(data, pos);
          binaries[i] = Binary.fromConstantByteArray(data, pos + 4, length);
          pos += 4 + length;
        }
        break;
      default:
        Binary[] fixed = (Binary[]) buffer(count);
        for (int i = 0; i < count; i++) {
          fixed[i] = Binary.fromConstantByteArray(data, offset + i * fixedLength, fixedLength);
        }
    }
  }

  /** Whether values of {@code type} are fixed-width numbers Parquet stores little-endian. */
  private static boolean isNumber(PrimitiveTypeName type) {
    return type == PrimitiveTypeName.INT64
        || type == PrimitiveTypeName.INT32
        || type == PrimitiveTypeName.DOUBLE
        || type == PrimitiveTypeName.FLOAT;
  }

  /** An array of {@code size} values of the physical type {@code type}. */
  static Object newArray(PrimitiveTypeName type, int size) {
    switch (type) {
      case INT64:
        return new long[size];
      case INT32:
        return new int[size];
      case DOUBLE:
        return new double[size];
      case FLOAT:
        return new float[size];
      case BOOLEAN:
        return new boolean[size];
      default:
        return new Binary[size];
    }
  }

  /** Copies {@code count} little-endian numbers of {@code bytes} into a number array, in bulk. */
  private static void copyNumbers(ByteBuffer bytes, Object array, int count) {
    if (array instanceof long[] longs) {
      bytes.asLongBuffer().get(longs, 0, count);
    } else if (array instanceof int[] ints) {
      bytes.asIntBuffer().get(ints, 0, count);
    } else if (array instanceof double[] doubles) {
      bytes.asDoubleBuffer().get(doubles, 0, count);
    } else {
      bytes.asFloatBuffer().get((float[]) array, 0, count);
    }
  }

  /**
   * The dictionary's values as rows share them ({@link #dictionaryValues}), when the current page
   * reads through the dictionary and the column's values can be shared; else null.
   */
  private Object[] sharedDictionary() {
    if (!dictionaryPage || codec == null || !codec.sharesValues()) {
      return null;
    }
    if (dictionaryValues == null) {
      dictionaryValues = new Object[dictionarySize];
      for (int i = 0; i < dictionarySize; i++) {
        dictionaryValues[i] = codec.fromPhysical(physical(dictionary, i));
      }
    }
    return dictionaryValues;
  }

  /** The dictionary's values as an array of the column's physical type. */
  private Object materialize(Dictionary dictionary) {
    int size = dictionary.getMaxId() + 1;
    switch (type) {
      case INT64:
        long[] longs = new long[size];
        for (int i = 0; i < size; i++) {
          longs[i] = dictionary.decodeToLong(i);
        }
        return longs;
      case INT32:
        int[] ints = new int[size];
        for (int i = 0; i < size; i++) {
          ints[i] = dictionary.decodeToInt(i);
        }
        return ints;
      case DOUBLE:
        double[] doubles = new double[size];
        for (int i = 0; i < size; i++) {
          doubles[i] = dictionary.decodeToDouble(i);
        }
        return doubles;
      case FLOAT:
        float[] floats = new float[size];
        for (int i = 0; i < size; i++) {
          floats[i] = dictionary.decodeToFloat(i);
        }
        return floats;
      case BOOLEAN:
        throw new IllegalStateException("column " + descriptor + " has a boolean dictionary");
      default:
        Binary[] binaries = new Binary[size];
        for (int i = 0; i < size; i++) {
          binaries[i] = dictionary.decodeToBinary(i);
        }
        return binaries;
    }
  }
}
