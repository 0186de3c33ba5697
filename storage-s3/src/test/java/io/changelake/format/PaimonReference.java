package io.changelake.format;

import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.parquet.ParquetReaderFactory;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.FileRecordReader;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.shade.org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypeJsonParser;

/**
 * Paimon 1.3.1 as the reference: writes a primary-key table (bucket 1, parquet) on local disk,
 * reads Parquet files with its own reader, and converts values and metadata between Paimon's
 * internal classes and ours.
 */
final class PaimonReference {

  /** A data file Paimon wrote and the metadata it recorded for it. */
  record WrittenFile(Path file, DataFileMeta meta) {}

  private PaimonReference() {}

  static org.apache.paimon.types.DataType paimonType(DataType type) {
    // Our printed form is Paimon's schema-file form.
    return DataTypeJsonParser.parseAtomicTypeSQLString(type.toString());
  }

  static org.apache.paimon.types.RowType paimonRowType(List<DataField> fields) {
    List<org.apache.paimon.types.DataField> paimon = new ArrayList<>();
    for (DataField f : fields) {
      paimon.add(new org.apache.paimon.types.DataField(f.id(), f.name(), paimonType(f.type())));
    }
    return new org.apache.paimon.types.RowType(paimon);
  }

  /**
   * Writes rows (whole table rows with their kinds) into a new table in one commit and returns its
   * one data file.
   */
  static WrittenFile write(
      Path tableDir,
      RowType valueType,
      List<String> primaryKeys,
      List<KeyValue> rows,
      Map<String, String> options)
      throws Exception {
    org.apache.paimon.fs.Path location = new org.apache.paimon.fs.Path(tableDir.toUri());
    Schema.Builder schema = Schema.newBuilder();
    for (DataField f : valueType.fields()) {
      schema.column(f.name(), paimonType(f.type()));
    }
    schema.primaryKey(primaryKeys).option("bucket", "1").option("file.format", "parquet");
    options.forEach(schema::option);
    new SchemaManager(LocalFileIO.create(), location).createTable(schema.build());
    FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), location);
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit()) {
      for (KeyValue row : rows) {
        write.write(toPaimonRow(valueType, row.kind(), row.value()));
      }
      commit.commit(write.prepareCommit());
    }
    List<DataFileMeta> files = new ArrayList<>();
    for (Split split : table.newReadBuilder().newScan().plan().splits()) {
      files.addAll(((DataSplit) split).dataFiles());
    }
    if (files.size() != 1) {
      throw new IllegalStateException("expected one data file, Paimon wrote " + files);
    }
    DataFileMeta meta = files.get(0);
    return new WrittenFile(tableDir.resolve("bucket-0").resolve(meta.fileName()), meta);
  }

  /** The one changelog file of bucket 0 of a Paimon table (changelog producer {@code input}). */
  static Path changelogFile(Path tableDir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> files =
        java.nio.file.Files.list(tableDir.resolve("bucket-0"))) {
      List<Path> changelogs =
          files.filter(f -> f.getFileName().toString().startsWith("changelog-")).toList();
      if (changelogs.size() != 1) {
        throw new IllegalStateException("expected one changelog file, Paimon wrote " + changelogs);
      }
      return changelogs.get(0);
    }
  }

  static GenericRow toPaimonRow(RowType type, RowKind kind, Object[] values) {
    GenericRow row =
        new GenericRow(
            org.apache.paimon.types.RowKind.fromByteValue(kind.toByteValue()), values.length);
    for (int i = 0; i < values.length; i++) {
      row.setField(i, toPaimon(type.type(i), values[i]));
    }
    return row;
  }

  static Object toPaimon(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.root()) {
      case DECIMAL:
        return Decimal.fromBigDecimal((BigDecimal) value, type.precision(), type.scale());
      case CHAR:
      case VARCHAR:
        return BinaryString.fromString((String) value);
      case DATE:
        return (int) ((LocalDate) value).toEpochDay();
      case TIMESTAMP:
        return Timestamp.fromLocalDateTime((LocalDateTime) value);
      case TIMESTAMP_LTZ:
        return Timestamp.fromInstant((Instant) value);
      default:
        return value;
    }
  }

  static Object fromPaimon(DataType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.root()) {
      case DECIMAL:
        return ((Decimal) value).toBigDecimal();
      case CHAR:
      case VARCHAR:
        return value.toString();
      case DATE:
        return LocalDate.ofEpochDay((Integer) value);
      case TIMESTAMP:
        return ((Timestamp) value).toLocalDateTime();
      case TIMESTAMP_LTZ:
        return ((Timestamp) value).toInstant();
      default:
        return value;
    }
  }

  /** The values of a Paimon row (a key, stats bounds) as our Java values. */
  static List<Object> fromPaimonRow(List<DataField> fields, InternalRow row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      DataType type = fields.get(i).type();
      values.add(
          fromPaimon(type, InternalRow.createFieldGetter(paimonType(type), i).getFieldOrNull(row)));
    }
    return values;
  }

  /** Paimon's stats of some columns, as our {@link ColumnStats}. */
  static List<ColumnStats> stats(
      List<DataField> fields, BinaryRow mins, BinaryRow maxs, BinaryArray nullCounts) {
    // A bound may be null even in a NOT NULL column (stats mode counts or none).
    List<DataField> nullable =
        fields.stream()
            .map(f -> new DataField(f.id(), f.name(), f.type().withNullable(true)))
            .toList();
    List<Object> min = fromPaimonRow(nullable, mins);
    List<Object> max = fromPaimonRow(nullable, maxs);
    List<ColumnStats> stats = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      stats.add(
          new ColumnStats(
              min.get(i), max.get(i), nullCounts.isNullAt(i) ? null : nullCounts.getLong(i)));
    }
    return stats;
  }

  /**
   * Every row of a data file as Paimon's own Parquet reader returns it, each field printed (byte
   * arrays by content), for comparing two files field by field.
   */
  static List<List<String>> readWithPaimon(Path file, RowType keyType, RowType valueType)
      throws Exception {
    List<DataField> fields = new ArrayList<>();
    for (DataField k : keyType.fields()) {
      fields.add(new DataField(Integer.MAX_VALUE / 2 + k.id(), "_KEY_" + k.name(), k.type()));
    }
    fields.add(
        new DataField(Integer.MAX_VALUE - 1, "_SEQUENCE_NUMBER", DataType.bigint().notNull()));
    fields.add(new DataField(Integer.MAX_VALUE - 2, "_VALUE_KIND", DataType.tinyint().notNull()));
    fields.addAll(valueType.fields());
    org.apache.paimon.types.RowType rowType = paimonRowType(fields);
    ParquetReaderFactory factory =
        new ParquetReaderFactory(new Options(), rowType, 1024, FilterCompat.NOOP);
    List<List<String>> rows = new ArrayList<>();
    try (FileRecordReader<InternalRow> reader =
        factory.createReader(
            new FormatReaderContext(
                LocalFileIO.create(),
                new org.apache.paimon.fs.Path(file.toUri()),
                java.nio.file.Files.size(file)))) {
      RecordReader.RecordIterator<InternalRow> batch;
      while ((batch = reader.readBatch()) != null) {
        InternalRow row;
        while ((row = batch.next()) != null) {
          List<String> printed = new ArrayList<>();
          for (int i = 0; i < fields.size(); i++) {
            Object v = InternalRow.createFieldGetter(rowType.getTypeAt(i), i).getFieldOrNull(row);
            printed.add(v instanceof byte[] ? Arrays.toString((byte[]) v) : String.valueOf(v));
          }
          rows.add(printed);
        }
        batch.releaseBatch();
      }
    }
    return rows;
  }
}
