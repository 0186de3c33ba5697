package io.changelake.format;

import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
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
import java.util.stream.IntStream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;
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
 * time ({@link DecodedColumnChunk}), with no record assembly in between.
 *
 * <pre>{@code
 * try (KeyValueFileReader reader = KeyValueFileReader.open(store, path, keyType, valueType)) {
 *   while (reader.hasNext()) {
 *     KeyValue kv = reader.next();
 *   }
 * }
 * }</pre>
 *
 * <p>Not thread-safe. {@link #hasNext} and {@link #next} throw {@link UncheckedIOException} when
 * the store fails.
 */
public final class KeyValueFileReader implements Iterator<KeyValue>, Closeable {

  /**
   * Bytes fetched at once for small reads (footer, page headers): one request for the footer of a
   * usual file, and few for a file read column chunk by column chunk.
   */
  static final int READ_AHEAD = 1 << 20;

  private static final GroupConverter NO_RECORD_ASSEMBLY = new SkippingConverter();

  /**
   * Built once: read options built from Hadoop's configuration parse its XML defaults on every file
   * opened (a sixth of a changelog read of many small files). The options themselves are built per
   * file: they hold a codec factory, whose decompressor pool is not thread-safe and which closing a
   * file releases, so readers on several threads must not share one.
   */
  private static final PlainParquetConfiguration READ_CONFIGURATION =
      new PlainParquetConfiguration();

  private final String path;
  private final ParquetFileReader file;
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
   * The type of a key that is one required BIGINT or INT column, read unboxed ({@link
   * #integralKey}); otherwise null.
   */
  private final TypeRoot integralKeyType;

  private ColumnValues[] readers;
  private long rowsLeftInGroup;
  private int rowGroup;

  // The row advance() moved to: its key, sequence number and kind are read; its other value
  // columns are read by value(), or passed over unread by the next advance(), so a version a merge
  // supersedes costs neither decoding nor boxing.
  private long currentIntegralKey;
  private Object currentIntegralBox;
  private Object[] currentKey;
  private long currentSequence;
  private RowKind currentKind;
  private Object[] currentValue;
  private boolean valuesPending;

  private KeyValueFileReader(
      String path,
      ParquetFileReader file,
      RowType keyType,
      ColumnMapping mapping,
      int[] valueProjection) {
    this.path = path;
    this.file = file;
    this.createdBy = file.getFooter().getFileMetaData().getCreatedBy();
    MessageType fileSchema = file.getFooter().getFileMetaData().getSchema();
    RowType tableType = mapping.tableType();
    int[] positions =
        valueProjection == null ? IntStream.range(0, tableType.size()).toArray() : valueProjection;
    RowType valueColumns = tableType.project(positions);
    // The key columns repeat table columns; when those are read anyway, the key is taken from
    // them and the _KEY_ columns are never decoded.
    this.keyInValue = positionsIn(valueColumns, keyType);
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
    file.setRequestedSchema(requested);
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
    this.integralKeyType = integralKeyType(keyType);
  }

  private TypeRoot integralKeyType(RowType keyType) {
    if (keyType.size() != 1
        || keyReader[0] < 0
        || descriptors[keyReader[0]].getMaxDefinitionLevel() != 0
        || (keyInValue != null && valueConversions[keyInValue[0]] != null)) {
      return null;
    }
    TypeRoot root = keyType.type(0).root();
    return root == TypeRoot.BIGINT || root == TypeRoot.INT ? root : null;
  }

  private static int[] positionsIn(RowType valueColumns, RowType keyType) {
    int[] positions = new int[keyType.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = valueColumns.indexOf(keyType.field(i).name());
      if (positions[i] < 0) {
        return null;
      }
    }
    return positions;
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
    ObjectInfo info =
        store.stat(path).orElseThrow(() -> new ObjectNotFoundException(store.root(), path));
    ParquetFileReader file =
        ParquetFileReader.open(
            new ObjectInputFile(store, path, info.size(), READ_AHEAD),
            ParquetReadOptions.builder(READ_CONFIGURATION).build());
    try {
      return new KeyValueFileReader(path, file, keyType, mapping, valueProjection);
    } catch (RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /** The number of key-values in the file. */
  public long rowCount() {
    return file.getRecordCount();
  }

  @Override
  public boolean hasNext() {
    try {
      while (rowsLeftInGroup == 0) {
        // The last row of the group is no longer current: its values go with the group's readers.
        valuesPending = false;
        PageReadStore group = file.readNextRowGroup();
        if (group == null) {
          return false;
        }
        BlockMetaData block = file.getRowGroups().get(rowGroup++);
        ColumnReadStoreImpl store = null;
        readers = new ColumnValues[descriptors.length];
        for (int i = 0; i < descriptors.length; i++) {
          ColumnDescriptor column = descriptors[i];
          if (DecodedColumnChunk.decodes(chunk(block, column), column)) {
            readers[i] =
                new DecodedColumnChunk(column, group.getPageReader(column), columnCodecs[i]);
          } else {
            if (store == null) {
              store = new ColumnReadStoreImpl(group, NO_RECORD_ASSEMBLY, requested, createdBy);
            }
            readers[i] =
                new AssembledColumn(store.getColumnReader(column), column, columnCodecs[i]);
          }
        }
        rowsLeftInGroup = group.getRowCount();
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + path, e);
    }
  }

  private ColumnChunkMetaData chunk(BlockMetaData block, ColumnDescriptor column) {
    ColumnPath columnPath = ColumnPath.get(column.getPath());
    for (ColumnChunkMetaData chunk : block.getColumns()) {
      if (chunk.getPath().equals(columnPath)) {
        return chunk;
      }
    }
    throw new IllegalStateException(path + " has no chunk of column " + columnPath);
  }

  @Override
  public KeyValue next() {
    if (!advance()) {
      throw new NoSuchElementException("no key-value left in " + path);
    }
    return new KeyValue(key(), currentSequence, currentKind, value());
  }

  /**
   * The next row's table columns alone, as {@link KeyValue#value()} would hold them: for a read
   * that needs neither key, sequence number nor kind, so no record is built around them.
   *
   * @throws NoSuchElementException if the file is exhausted
   */
  public Object[] nextValue() {
    if (!advance()) {
      throw new NoSuchElementException("no key-value left in " + path);
    }
    return value();
  }

  /**
   * Moves to the next row and reads its key, sequence number and kind, but not yet its other
   * columns: {@link #value} reads them, and if it is not called before the next move, they are
   * passed over unread. A merge thus pays for the values of the versions it keeps only.
   *
   * @return false when the file is exhausted
   */
  public boolean advance() {
    if (valuesPending) {
      for (int i = 0; i < valueReader.length; i++) {
        if (valueReader[i] >= 0 && keyOfValue[i] < 0) {
          readers[valueReader[i]].skip();
        }
      }
      valuesPending = false;
    }
    if (!hasNext()) {
      return false;
    }
    rowsLeftInGroup--;
    currentValue = null;
    if (integralKeyType != null) {
      ColumnValues key = readers[keyReader[0]];
      currentIntegralKey = integralKeyType == TypeRoot.INT ? key.readInt() : key.readLong();
      // A dictionary's value is boxed already (changelog files keep the key's dictionary).
      currentIntegralBox = key.lastShared();
      currentKey = null;
    } else {
      Object[] key = new Object[keyReader.length];
      for (int k = 0; k < key.length; k++) {
        key[k] = keyInValue == null ? readers[k].read() : readValue(keyInValue[k]);
      }
      currentKey = key;
    }
    // Both system columns are required: read them without codec, boxing or level checks.
    currentSequence = readers[sequenceReader].readLong();
    currentKind = RowKind.fromByteValue((byte) readers[sequenceReader + 1].readInt());
    valuesPending = true;
    return true;
  }

  /** Whether the key is one BIGINT or INT column, read unboxed by {@link #integralKey}. */
  public boolean hasIntegralKey() {
    return integralKeyType != null;
  }

  /** The current row's key, when {@link #hasIntegralKey}: its one column's value. */
  public long integralKey() {
    return currentIntegralKey;
  }

  /** The current row's key. */
  public Object[] key() {
    if (currentKey == null) {
      currentKey = new Object[] {boxedIntegralKey()};
    }
    return currentKey;
  }

  /** The current row's sequence number. */
  public long sequenceNumber() {
    return currentSequence;
  }

  /** The current row's kind. */
  public RowKind kind() {
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

  /** Key column {@code k} of the current row, without building the key when it is integral. */
  private Object keyColumn(int k) {
    return currentKey != null ? currentKey[k] : boxedIntegralKey();
  }

  /**
   * The integral key as an object: the dictionary's shared value, or boxed once per row and shared
   * by the row's key and value.
   */
  private Object boxedIntegralKey() {
    if (currentIntegralBox == null) {
      if (integralKeyType == TypeRoot.INT) {
        currentIntegralBox = (int) currentIntegralKey;
      } else {
        currentIntegralBox = currentIntegralKey;
      }
    }
    return currentIntegralBox;
  }

  /** Value column {@code i} of the current row, converted to the current schema's type. */
  private Object readValue(int i) {
    Object stored = readers[valueReader[i]].read();
    return valueConversions[i] == null ? stored : TypeWidening.convert(stored, valueConversions[i]);
  }

  @Override
  public void close() throws IOException {
    file.close();
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
