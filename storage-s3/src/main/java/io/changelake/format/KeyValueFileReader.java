package io.changelake.format;

import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import io.changelake.types.TypeWidening;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Reads the key-values of one data or changelog file in Paimon's layout (see {@link
 * KeyValueFileSchema}), whoever wrote it: this writer, Paimon, Flink or Spark.
 *
 * <p>Columns are found by name, the names the file's schema gives them: a file written under an
 * older schema reads through a {@link ColumnMapping} as the current schema's columns (added ones
 * null, renamed ones by field id, widened ones converted). Only the columns asked for are fetched
 * from the store: with a value projection, each returned {@link KeyValue#value()} holds the
 * projected table columns, in projection order. Values are decoded column by column, a page at a
 * time ({@link DecodedColumnChunk}), with no record assembly in between. The footer and pages are
 * read by {@link ParquetFooter} and {@link RowGroupPages}, not Parquet's file reader.
 *
 * <p>Three ways to read, which may be mixed:
 *
 * <ul>
 *   <li>{@link #next}: a key-value per call, as an iterator;
 *   <li>{@link #advance} and the current row's {@link #key}, {@link #sequenceNumber}, {@link #kind}
 *       and {@link #value}: each column read when asked for, and passed over unread otherwise, for
 *       a merge that discards most versions;
 *   <li>{@link #nextKeyValues} and {@link #nextValues} ({@link #keyValuesInBatches}, {@link
 *       #valuesInBatches}): many rows at once, column after column, for a read that takes every
 *       row. A raw read asks for the values alone, so the sequence-number and kind columns are
 *       never decompressed.
 * </ul>
 *
 * <pre>{@code
 * try (KeyValueFileReader reader = KeyValueFileReader.open(store, path, keyType, valueType)) {
 *   while (reader.hasNext()) {
 *     KeyValue kv = reader.next();
 *   }
 * }
 * }</pre>
 *
 * <p>Not thread-safe. The reading methods throw {@link UncheckedIOException} when the store fails.
 */
public final class KeyValueFileReader implements Iterator<KeyValue>, Closeable {

  /**
   * Bytes fetched at once for small reads (footer, page headers): one request for the footer of a
   * usual file, and few for a file read column chunk by column chunk.
   */
  static final int READ_AHEAD = 1 << 20;

  private static final GroupConverter NO_RECORD_ASSEMBLY = new SkippingConverter();

  /**
   * Built once: a configuration built from Hadoop's parses its XML defaults on every file opened (a
   * sixth of a changelog read of many small files). The decompressors are built per file: the codec
   * factory behind them keeps a decompressor pool that is not thread-safe and which closing a file
   * releases, so readers on several threads must not share one.
   */
  private static final PlainParquetConfiguration READ_CONFIGURATION =
      new PlainParquetConfiguration();

  private final String path;

  /** The file's bytes, open for the reader's life: small files are fetched whole at the footer. */
  private final ObjectInputFile.Stream file;

  private final ParquetFooter footer;
  private final PageDecompression decompression;
  private final MessageType requested;
  private final String createdBy;

  /** Per value column, the type to convert the file's value to, or null to keep it. */
  private final DataType[] valueConversions;

  private final ColumnDescriptor[] descriptors;

  /** Per requested column, its codec; null for the system columns. */
  private final ColumnCodec[] columnCodecs;

  /** Where each key column stands among the value columns, or null to read the _KEY_ columns. */
  private final int[] keyInValue;

  /** Per value column, the position of its reader, or -1 if the file lacks the column. */
  private final int[] valueReader;

  /** Per value column, the key column it repeats, or -1. */
  private final int[] keyOfValue;

  /**
   * Per key column, the position of its reader: its _KEY_ column or the value column it repeats.
   */
  private final int[] keyReader;

  /** The position of the sequence number's reader; the kind's follows it. */
  private final int sequenceReader;

  /**
   * Per key column, its type if it is read unboxed ({@link #integralKeyColumn}): a required BIGINT,
   * INT, SMALLINT or TINYINT column read as stored; null for a column read as objects.
   */
  private final TypeRoot[] unboxedKeyTypes;

  private ColumnValues[] readers;

  /** Rows of the current group, 0 before the first. */
  private long rowsInGroup;

  private int rowGroup;

  // The row group being read, kept to open its sequence-number and kind readers on demand.
  private RowGroupPages group;
  private ColumnReadStoreImpl assembled;

  /** Rows of the current group moved to by {@link #advance} or read in bulk. */
  private long rowsAdvanced;

  /**
   * Rows of the current group whose sequence number and kind have been read. They are read when
   * asked for, not by {@link #advance}: a read that needs neither (a raw read, as Paimon's, which
   * reads the table columns alone) never decompresses their pages.
   */
  private long systemRowsRead;

  // The row advance() moved to: its key, sequence number and kind are read; its other value
  // columns are read by value(), or passed over unread by the next advance(), so a version a merge
  // supersedes costs neither decoding nor boxing. Its key is held column by column: an unboxed
  // column's value in currentKeyLongs, with its object in currentKeyObjects once there is one (a
  // dictionary's, or boxed when asked for); another column's value in currentKeyObjects. The
  // array key() gives is built when asked for.
  private final long[] currentKeyLongs;
  private final Object[] currentKeyObjects;
  private Object[] currentKey;
  private long currentSequence;
  private RowKind currentKind;
  private Object[] currentValue;
  private boolean valuesPending;

  // The columns of a bulk read of key-values, reused from batch to batch.
  private Object[][] valueBatch = new Object[0][];
  private Object[][] keyBatch;
  private long[] sequenceBatch;
  private int[] kindBatch;

  private KeyValueFileReader(
      String path,
      ObjectInputFile.Stream file,
      ParquetFooter footer,
      PageDecompression decompression,
      RowType keyType,
      ColumnMapping mapping,
      int[] valueProjection) {
    this.path = path;
    this.file = file;
    this.footer = footer;
    this.decompression = decompression;
    this.createdBy = footer.createdBy();
    MessageType fileSchema = footer.schema();
    RowType tableType = mapping.tableType();
    int[] positions =
        valueProjection == null ? IntStream.range(0, tableType.size()).toArray() : valueProjection;
    RowType valueColumns = tableType.project(positions);
    // The key columns repeat table columns; when those are read anyway, the key is taken from
    // them and the _KEY_ columns are never decoded.
    this.keyInValue = valueColumns.positionsOf(keyType);
    ColumnCodec[] keyCodecs = KeyValueFileSchema.codecs(keyType);
    List<Type> columns = new ArrayList<>();
    List<ColumnCodec> codecs = new ArrayList<>();
    if (keyInValue == null) {
      for (DataField key : keyType.fields()) {
        // A key column may have been renamed since the file was written, never retyped.
        String name = mapping.fileName(tableType.indexOf(key.name()));
        columns.add(column(fileSchema, KeyValueFileSchema.KEY_PREFIX + name));
        codecs.add(keyCodecs[codecs.size()]);
      }
    }
    columns.add(column(fileSchema, KeyValueFileSchema.SEQUENCE_NUMBER));
    columns.add(column(fileSchema, KeyValueFileSchema.VALUE_KIND));
    codecs.add(null);
    codecs.add(null);
    this.valueReader = new int[positions.length];
    this.valueConversions = new DataType[positions.length];
    for (int i = 0; i < positions.length; i++) {
      DataField inFile = mapping.fileField(positions[i]);
      valueReader[i] = -1;
      if (inFile != null) {
        valueReader[i] = columns.size();
        columns.add(column(fileSchema, inFile.name()));
        codecs.add(ColumnCodec.of(inFile.type()));
        valueConversions[i] = mapping.converts(positions[i]) ? valueColumns.type(i) : null;
      }
    }
    this.requested = new MessageType(fileSchema.getName(), columns);
    this.descriptors = requested.getColumns().toArray(ColumnDescriptor[]::new);
    this.columnCodecs = codecs.toArray(ColumnCodec[]::new);
    this.sequenceReader = keyInValue == null ? keyCodecs.length : 0;
    this.keyOfValue = new int[positions.length];
    Arrays.fill(keyOfValue, -1);
    this.keyReader = new int[keyCodecs.length];
    for (int k = 0; k < keyReader.length; k++) {
      keyReader[k] = keyInValue == null ? k : valueReader[keyInValue[k]];
      if (keyInValue != null) {
        keyOfValue[keyInValue[k]] = k;
      }
    }
    this.unboxedKeyTypes = new TypeRoot[keyReader.length];
    for (int k = 0; k < keyReader.length; k++) {
      unboxedKeyTypes[k] = unboxedKeyType(keyType.type(k).root(), k);
    }
    this.currentKeyLongs = new long[keyReader.length];
    this.currentKeyObjects = new Object[keyReader.length];
  }

  /** The type of key column {@code k} if it is read unboxed, else null. */
  private TypeRoot unboxedKeyType(TypeRoot root, int k) {
    if (keyReader[k] < 0
        || descriptors[keyReader[k]].getMaxDefinitionLevel() != 0
        || (keyInValue != null && valueConversions[keyInValue[k]] != null)) {
      return null;
    }
    PrimitiveTypeName stored = descriptors[keyReader[k]].getPrimitiveType().getPrimitiveTypeName();
    boolean asStored =
        switch (root) {
          case BIGINT -> stored == PrimitiveTypeName.INT64;
          case INT, SMALLINT, TINYINT -> stored == PrimitiveTypeName.INT32;
          default -> false;
        };
    return asStored ? root : null;
  }

  private Type column(MessageType fileSchema, String name) {
    if (!fileSchema.containsField(name)) {
      throw new IllegalArgumentException(
          path + " has no column " + name + "; its columns are " + fileSchema.getFields());
    }
    return fileSchema.getType(name);
  }

  /** Opens a file to read every table column. */
  public static KeyValueFileReader open(
      ObjectStore store, String path, RowType keyType, RowType valueType) throws IOException {
    return open(store, path, keyType, valueType, null);
  }

  /**
   * Opens a file written under the current schema to read the table columns at {@code
   * valueProjection} (positions in {@code valueType}), or every table column if it is null.
   *
   * @throws ObjectNotFoundException if there is no object at {@code path}
   * @throws IllegalArgumentException if the file lacks a column asked for
   */
  public static KeyValueFileReader open(
      ObjectStore store, String path, RowType keyType, RowType valueType, int[] valueProjection)
      throws IOException {
    return open(store, path, keyType, ColumnMapping.identity(valueType), valueProjection);
  }

  /**
   * Opens a file whose table columns {@code mapping} maps to the current schema's, to read the
   * current columns at {@code valueProjection}, or every current column if it is null.
   *
   * @throws ObjectNotFoundException if there is no object at {@code path}
   * @throws IllegalArgumentException if the file lacks a column its schema says it holds
   */
  public static KeyValueFileReader open(
      ObjectStore store, String path, RowType keyType, ColumnMapping mapping, int[] valueProjection)
      throws IOException {
    ObjectInputFile input = inputFile(store, path);
    ObjectInputFile.Stream file = input.newStream();
    try {
      ParquetFooter footer = ParquetFooter.read(file, input.getLength(), input.toString());
      return new KeyValueFileReader(
          path,
          file,
          footer,
          new PageDecompression(READ_CONFIGURATION),
          keyType,
          mapping,
          valueProjection);
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /**
   * The bytes of the file at {@code path}: the object, or for a part of a compacted changelog
   * (written by Flink with {@code precommit-compact}) the range of the object holding it.
   */
  private static ObjectInputFile inputFile(ObjectStore store, String path) throws IOException {
    Optional<CompactedChangelogName> part = CompactedChangelogName.of(path);
    String object = part.map(CompactedChangelogName::path).orElse(path);
    ObjectInfo info =
        store.stat(object).orElseThrow(() -> new ObjectNotFoundException(store.root(), object));
    return part.isPresent()
        ? new ObjectInputFile(store, object, part.get().offset(), part.get().length(), READ_AHEAD)
        : new ObjectInputFile(store, object, info.size(), READ_AHEAD);
  }

  /** The number of key-values in the file. */
  public long rowCount() {
    return footer.rowCount();
  }

  /**
   * Whether a row is left. It does not move: the current row's columns stay readable until {@link
   * #advance}.
   */
  @Override
  public boolean hasNext() {
    return rowsAdvanced < rowsInGroup || groupWithRows(rowGroup) >= 0;
  }

  /** The position of the first row group from {@code from} on that holds rows, or -1. */
  private int groupWithRows(int from) {
    List<ParquetFooter.RowGroup> groups = footer.rowGroups();
    for (int g = from; g < groups.size(); g++) {
      if (groups.get(g).rowCount() > 0) {
        return g;
      }
    }
    return -1;
  }

  /** Moves to the next row group that holds rows; false when none is left. */
  private boolean nextRowGroup() {
    try {
      int next = groupWithRows(rowGroup);
      if (next < 0) {
        return false;
      }
      rowGroup = next + 1;
      group =
          new RowGroupPages(file, footer.rowGroups().get(next), descriptors, decompression, path);
      assembled = null;
      readers = new ColumnValues[descriptors.length];
      for (int i = 0; i < descriptors.length; i++) {
        if (i != sequenceReader && i != sequenceReader + 1) {
          readers[i] = openColumn(i);
        }
      }
      rowsInGroup = group.getRowCount();
      rowsAdvanced = 0;
      systemRowsRead = 0;
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }

  /** The reader of requested column {@code i} in the current row group. */
  private ColumnValues openColumn(int i) throws IOException {
    ColumnDescriptor column = descriptors[i];
    if (DecodedColumnChunk.decodes(group.encodings(column), column)) {
      PageReader pages =
          DecodedColumnChunk.keepsNoPage(column)
              ? group.getTransientPageReader(column)
              : group.getPageReader(column);
      return new DecodedColumnChunk(column, pages, columnCodecs[i]);
    }
    if (assembled == null) {
      assembled = new ColumnReadStoreImpl(group, NO_RECORD_ASSEMBLY, requested, createdBy);
    }
    return new AssembledColumn(assembled.getColumnReader(column), column, columnCodecs[i]);
  }

  /** Reads the current row's sequence number and kind, if not read yet. */
  private void readSystemColumns() {
    if (systemRowsRead == rowsAdvanced) {
      return;
    }
    passSystemColumns(rowsAdvanced - 1);
    // Both system columns are required: read them without codec, boxing or level checks.
    currentSequence = readers[sequenceReader].readLong();
    currentKind = RowKind.fromByteValue((byte) readers[sequenceReader + 1].readInt());
    systemRowsRead = rowsAdvanced;
  }

  /**
   * Opens the current group's sequence-number and kind readers if they are not open, and passes
   * over the rows up to {@code rows} that nobody asked the sequence number and kind of.
   */
  private void passSystemColumns(long rows) {
    if (readers[sequenceReader] == null) {
      try {
        readers[sequenceReader] = openColumn(sequenceReader);
        readers[sequenceReader + 1] = openColumn(sequenceReader + 1);
      } catch (IOException e) {
        throw new UncheckedIOException("reading " + path, e);
      }
    }
    for (; systemRowsRead < rows; systemRowsRead++) {
      readers[sequenceReader].skip();
      readers[sequenceReader + 1].skip();
    }
  }

  @Override
  public KeyValue next() {
    if (!advance()) {
      throw new NoSuchElementException("no key-value left in " + path);
    }
    return new KeyValue(key(), sequenceNumber(), kind(), value());
  }

  /**
   * Reads the table columns of the next rows in bulk, as {@link KeyValue#value()} would hold them,
   * one new array per row, into {@code rows}: for a read that needs neither key, sequence number
   * nor kind (a raw read). The columns are read one after the other over all the rows, so a page's
   * values go out in one loop instead of a call per value. Reads up to {@code rows.length} rows,
   * fewer at the end of a row group.
   *
   * <p>No row is current afterwards: {@link #advance} moves to the row after the last one read.
   *
   * @return the number of rows read into {@code rows}; 0 when the file is exhausted
   */
  public int nextValues(Object[][] rows) {
    int count = rowsAhead(rows.length);
    readValues(rows, count);
    if (keyInValue == null) {
      // The _KEY_ columns are read by advance(), row by row: their rows here are passed over.
      for (int k = 0; k < keyReader.length; k++) {
        for (int r = 0; r < count; r++) {
          readers[k].skip();
        }
      }
    }
    endBulk(count);
    return count;
  }

  /**
   * Reads the next rows in bulk, as {@link #next} returns them, into {@code rows}: each column over
   * all the rows in one go, as {@link #nextValues}. Reads up to {@code rows.length} rows, fewer at
   * the end of a row group. A key column that repeats a table column is the same object in key and
   * value. No row is current afterwards.
   *
   * @return the number of rows read into {@code rows}; 0 when the file is exhausted
   */
  public int nextKeyValues(KeyValue[] rows) {
    int count = rowsAhead(rows.length);
    if (count == 0) {
      return 0;
    }
    if (valueBatch.length < count) {
      valueBatch = new Object[count][];
      keyBatch = new Object[count][];
      sequenceBatch = new long[count];
      kindBatch = new int[count];
    }
    Object[][] values = valueBatch;
    Object[][] keys = keyBatch;
    readValues(values, count);
    for (int r = 0; r < count; r++) {
      keys[r] = new Object[keyReader.length];
    }
    if (keyInValue == null) {
      for (int k = 0; k < keyReader.length; k++) {
        readers[k].readInto(keys, k, count);
      }
    } else {
      for (int r = 0; r < count; r++) {
        for (int k = 0; k < keyInValue.length; k++) {
          keys[r][k] = values[r][keyInValue[k]];
        }
      }
    }
    readSystemColumnsInBulk(sequenceBatch, kindBatch, count);
    for (int r = 0; r < count; r++) {
      rows[r] =
          new KeyValue(
              keys[r], sequenceBatch[r], RowKind.fromByteValue((byte) kindBatch[r]), values[r]);
      values[r] = null;
      keys[r] = null;
    }
    endBulk(count);
    systemRowsRead = rowsAdvanced;
    return count;
  }

  /**
   * A batch for {@link #nextBatch}: BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT and BOOLEAN
   * columns read as stored are held unboxed, the others as objects. Sized to the file, up to {@link
   * BatchedRows#BATCH} rows.
   */
  public KeyValueBatch newBatch() {
    return newBatch((int) Math.max(1, Math.min(BatchedRows.BATCH, rowCount())));
  }

  /** {@link #newBatch()} of {@code capacity} rows: of one for {@link #readCurrent}. */
  public KeyValueBatch newBatch(int capacity) {
    PrimitiveTypeName[] unboxed = new PrimitiveTypeName[valueReader.length];
    TypeRoot[] narrowed = new TypeRoot[valueReader.length];
    boolean[] nullable = new boolean[valueReader.length];
    for (int i = 0; i < valueReader.length; i++) {
      int reader = valueReader[i];
      if (reader < 0 || valueConversions[i] != null) {
        continue;
      }
      ColumnCodec codec = columnCodecs[reader];
      PrimitiveTypeName type = descriptors[reader].getPrimitiveType().getPrimitiveTypeName();
      boolean narrow = codec.narrowInteger() != null && type == PrimitiveTypeName.INT32;
      if (narrow || (codec.keepsPhysical() && ColumnValues.UNBOXED.contains(type))) {
        unboxed[i] = type;
        narrowed[i] = narrow ? codec.narrowInteger() : null;
        nullable[i] = descriptors[reader].getMaxDefinitionLevel() > 0;
      }
    }
    PrimitiveTypeName[] unboxedKeys = new PrimitiveTypeName[keyReader.length];
    if (keyInValue == null) {
      for (int k = 0; k < keyReader.length; k++) {
        if (columnCodecs[k].keepsPhysical() && descriptors[k].getMaxDefinitionLevel() == 0) {
          PrimitiveTypeName type = descriptors[k].getPrimitiveType().getPrimitiveTypeName();
          boolean integral = type == PrimitiveTypeName.INT64 || type == PrimitiveTypeName.INT32;
          unboxedKeys[k] = integral ? type : null;
        }
      }
    }
    return new KeyValueBatch(capacity, unboxed, narrowed, nullable, keyInValue, unboxedKeys);
  }

  /**
   * Reads the next rows into {@code batch}, made by {@link #newBatch} of this reader: each column
   * over all the rows in one go, as {@link #nextKeyValues}, with nothing allocated per row. Reads
   * up to the batch's capacity, fewer at the end of a row group. No row is current afterwards.
   *
   * @return the number of rows read, also {@link KeyValueBatch#size()}; 0 when the file is
   *     exhausted
   */
  public int nextBatch(KeyValueBatch batch) {
    int count = rowsAhead(batch.sequences.length);
    batch.size = count;
    if (count == 0) {
      return 0;
    }
    for (int i = 0; i < valueReader.length; i++) {
      if (batch.primitives[i] != null) {
        readers[valueReader[i]].readPrimitives(batch.primitives[i], batch.nulls[i], count);
      }
    }
    readColumns(batch.objects, count, batch.primitives);
    if (keyInValue == null) {
      for (int k = 0; k < keyReader.length; k++) {
        if (batch.keyPrimitives[k] != null) {
          readers[k].readPrimitives(batch.keyPrimitives[k], null, count);
        } else {
          readers[k].readInto(batch.keys, k, count);
        }
      }
    }
    readSystemColumnsInBulk(batch.sequences, batch.kinds, count);
    endBulk(count);
    systemRowsRead = rowsAdvanced;
    return count;
  }

  /** The table columns of the rows left, read in bulk by {@link #nextValues}. */
  public BatchedRows<Object[]> valuesInBatches() {
    return new BatchedRows<>(new Object[BatchedRows.BATCH][], this::nextValues);
  }

  /**
   * The key-values left, read in bulk by {@link #nextKeyValues}: for a read that takes every row as
   * it is, as a changelog read of one file.
   */
  public BatchedRows<KeyValue> keyValuesInBatches() {
    return new BatchedRows<>(new KeyValue[BatchedRows.BATCH], this::nextKeyValues);
  }

  /**
   * Leaves the current row (passing over its unread values) and returns how many rows, up to {@code
   * wanted}, are left to read in the current row group or, if it has none, the next one holding
   * rows; 0 when the file is exhausted.
   */
  private int rowsAhead(int wanted) {
    passPendingValues();
    while (rowsAdvanced == rowsInGroup) {
      if (!nextRowGroup()) {
        return 0;
      }
    }
    return (int) Math.min(wanted, rowsInGroup - rowsAdvanced);
  }

  /** Reads the table columns of {@code count} rows into new arrays in {@code rows}. */
  private void readValues(Object[][] rows, int count) {
    for (int r = 0; r < count; r++) {
      rows[r] = new Object[valueReader.length];
    }
    readColumns(rows, count, null);
  }

  /**
   * Reads the table columns of {@code count} rows into {@code rows}, converted to the current
   * schema's types (a column the file lacks is null), but for those {@code heldElsewhere} holds an
   * array for (null for none).
   */
  private void readColumns(Object[][] rows, int count, Object[] heldElsewhere) {
    for (int i = 0; i < valueReader.length; i++) {
      if (heldElsewhere != null && heldElsewhere[i] != null) {
        continue;
      }
      if (valueReader[i] < 0) {
        for (int r = 0; r < count; r++) {
          rows[r][i] = null;
        }
        continue;
      }
      readers[valueReader[i]].readInto(rows, i, count);
      if (valueConversions[i] != null) {
        for (int r = 0; r < count; r++) {
          rows[r][i] = TypeWidening.convert(rows[r][i], valueConversions[i]);
        }
      }
    }
  }

  /**
   * Reads the sequence numbers and kinds of the {@code count} rows from the current one on, in
   * bulk, passing over the rows before them nobody asked the two of.
   */
  private void readSystemColumnsInBulk(long[] sequences, int[] kinds, int count) {
    passSystemColumns(rowsAdvanced);
    readers[sequenceReader].readLongs(sequences, count);
    readers[sequenceReader + 1].readInts(kinds, count);
  }

  /** Moves past {@code count} rows read in bulk: none is current. */
  private void endBulk(int count) {
    rowsAdvanced += count;
    currentKey = null;
    currentValue = null;
  }

  /**
   * Moves to the next row and reads its key, but not yet its other columns: {@link #value} reads
   * them, and if it is not called before the next move, they are passed over unread. A merge thus
   * pays for the values of the versions it keeps only. The sequence number and kind are read when
   * asked for.
   *
   * @return false when the file is exhausted
   */
  public boolean advance() {
    if (rowsAhead(1) == 0) {
      return false;
    }
    rowsAdvanced++;
    currentValue = null;
    currentKey = null;
    for (int k = 0; k < keyReader.length; k++) {
      TypeRoot unboxed = unboxedKeyTypes[k];
      if (unboxed != null) {
        ColumnValues column = readers[keyReader[k]];
        currentKeyLongs[k] = unboxed == TypeRoot.BIGINT ? column.readLong() : column.readInt();
        // A dictionary's value is boxed already (changelog files keep the key's dictionary).
        currentKeyObjects[k] = column.lastShared();
      } else {
        currentKeyObjects[k] = keyInValue == null ? readers[k].read() : readValue(keyInValue[k]);
      }
    }
    valuesPending = true;
    return true;
  }

  /** Passes over the current row's value columns if {@link #value} has not read them. */
  private void passPendingValues() {
    if (valuesPending) {
      for (int i = 0; i < valueReader.length; i++) {
        if (valueReader[i] >= 0 && keyOfValue[i] < 0) {
          readers[valueReader[i]].skip();
        }
      }
      valuesPending = false;
    }
  }

  /**
   * Whether key column {@code k} is read unboxed: a BIGINT, INT, SMALLINT or TINYINT column stored
   * required as its type's own physical type, whose {@link #integralKeyColumn} is read without
   * boxing. Paimon stores key columns so.
   */
  public boolean readsKeyColumnUnboxed(int k) {
    return unboxedKeyTypes[k] != null;
  }

  /**
   * Key column {@code k} of the current row, an integral column (BIGINT, INT, SMALLINT or TINYINT),
   * as a long: read unboxed where {@link #readsKeyColumnUnboxed}.
   *
   * @throws ClassCastException if the column is not integral
   */
  public long integralKeyColumn(int k) {
    return unboxedKeyTypes[k] != null
        ? currentKeyLongs[k]
        : ((Number) currentKeyObjects[k]).longValue();
  }

  /**
   * Key column {@code k} of the current row, as {@link #key} holds it: boxed when asked for if it
   * was read unboxed (once a row, the box shared by key and value).
   */
  public Object keyColumn(int k) {
    Object value = currentKeyObjects[k];
    TypeRoot unboxed = unboxedKeyTypes[k];
    if (value == null && unboxed != null) {
      value = unboxed.integral(currentKeyLongs[k]);
      currentKeyObjects[k] = value;
    }
    return value;
  }

  /** The current row's key, one value per key column, built on the first call after a move. */
  public Object[] key() {
    if (currentKey == null) {
      Object[] key = new Object[keyReader.length];
      for (int k = 0; k < key.length; k++) {
        key[k] = keyColumn(k);
      }
      currentKey = key;
    }
    return currentKey;
  }

  /** The current row's sequence number. */
  public long sequenceNumber() {
    readSystemColumns();
    return currentSequence;
  }

  /** The current row's kind. */
  public RowKind kind() {
    readSystemColumns();
    return currentKind;
  }

  /**
   * The current row's table columns, read on the first call after {@link #advance}.
   *
   * @throws IllegalStateException if the file has moved on since {@link #advance}
   */
  public Object[] value() {
    if (currentValue != null) {
      return currentValue;
    }
    if (!valuesPending) {
      throw new IllegalStateException(path + ": no current row to read the values of");
    }
    Object[] value = new Object[valueReader.length];
    for (int i = 0; i < value.length; i++) {
      if (valueReader[i] >= 0) {
        value[i] = keyOfValue[i] >= 0 ? keyColumn(keyOfValue[i]) : readValue(i);
      }
    }
    valuesPending = false;
    currentValue = value;
    return value;
  }

  /**
   * Reads the current row, in place of {@link #value}, into the first row of {@code row}, a batch
   * of this reader ({@link #newBatch(int)}), and returns its view: the columns the batch holds
   * unboxed are read unboxed (a key column's too), the others as {@link #value} reads them. The
   * view stays as read when this reader moves on, until the batch is read into again: a merge keeps
   * the version that wins while it passes over the versions after it.
   *
   * @throws IllegalStateException if the file has moved on since {@link #advance}, or the values
   *     were read already
   */
  public ChangeRow readCurrent(KeyValueBatch row) {
    if (!valuesPending) {
      throw new IllegalStateException(path + ": no current row to read the values of");
    }
    for (int i = 0; i < valueReader.length; i++) {
      Object unboxed = row.primitives[i];
      int k = keyOfValue[i];
      if (k >= 0) {
        if (!putUnboxedKeyColumn(k, unboxed)) {
          row.set(0, i, keyColumn(k));
        }
      } else if (valueReader[i] < 0) {
        row.set(0, i, null);
      } else if (unboxed != null) {
        readers[valueReader[i]].readPrimitives(unboxed, row.nulls[i], 1);
      } else {
        row.objects[0][i] = readValue(i);
      }
    }
    valuesPending = false;
    if (keyInValue == null) {
      for (int k = 0; k < keyReader.length; k++) {
        if (!putUnboxedKeyColumn(k, row.keyPrimitives[k])) {
          row.keys[0][k] = keyColumn(k);
        }
      }
    }
    row.sequences[0] = sequenceNumber();
    row.kinds[0] = kind().toByteValue();
    row.size = 1;
    return row.row(0);
  }

  /**
   * Puts key column {@code k} of the current row into the first slot of {@code into}, if the column
   * is read unboxed and {@code into} is a batch's {@code long[]} or {@code int[]}.
   *
   * @return whether it did
   */
  private boolean putUnboxedKeyColumn(int k, Object into) {
    if (unboxedKeyTypes[k] == null) {
      return false;
    }
    if (into instanceof long[] longs) {
      longs[0] = currentKeyLongs[k];
      return true;
    }
    if (into instanceof int[] ints) {
      ints[0] = (int) currentKeyLongs[k];
      return true;
    }
    return false;
  }

  /** Value column {@code i} of the current row, converted to the current schema's type. */
  private Object readValue(int i) {
    Object stored = readers[valueReader[i]].read();
    return valueConversions[i] == null ? stored : TypeWidening.convert(stored, valueConversions[i]);
  }

  @Override
  public void close() throws IOException {
    try {
      file.close();
    } finally {
      decompression.release();
    }
  }

  /**
   * Column readers ask for a converter, but values are taken from the readers directly, so no
   * converter is ever called.
   */
  private static final class SkippingConverter extends GroupConverter {
    private static final PrimitiveConverter SKIP = new PrimitiveConverter() {};

    @Override
    public Converter getConverter(int fieldIndex) {
      return SKIP;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}
