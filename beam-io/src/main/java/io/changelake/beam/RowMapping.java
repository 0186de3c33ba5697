package io.changelake.beam;

import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import io.changelake.types.TypeWidening;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.FixedBytes;
import org.apache.beam.sdk.schemas.logicaltypes.FixedPrecisionNumeric;
import org.apache.beam.sdk.schemas.logicaltypes.FixedString;
import org.apache.beam.sdk.schemas.logicaltypes.MicrosInstant;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.schemas.logicaltypes.VariableBytes;
import org.apache.beam.sdk.schemas.logicaltypes.VariableString;
import org.apache.beam.sdk.values.Row;
import org.joda.time.ReadableInstant;

/**
 * Maps Beam rows onto a table's rows: Beam field types to column types (for a table the write
 * creates), and each row's values to the Java classes of {@link TypeRoot}, by field name.
 *
 * <p>The type mapping is the table in {@link ChangelakeIO}'s documentation; keep them together.
 */
final class RowMapping {

  /** How one column's value is taken from a Beam row; throws for a value the column refuses. */
  private interface ColumnReader {
    Object read(Row row);
  }

  private final List<ColumnReader> readers;
  private final int kindIndex;
  private final int dynamicIndex;
  private final int positionIndex;
  private final RowType table;
  private final long schemaId;

  private RowMapping(
      List<ColumnReader> readers,
      int kindIndex,
      int dynamicIndex,
      int positionIndex,
      RowType table,
      long schemaId) {
    this.readers = readers;
    this.kindIndex = kindIndex;
    this.dynamicIndex = dynamicIndex;
    this.positionIndex = positionIndex;
    this.table = table;
    this.schemaId = schemaId;
  }

  /**
   * The column types of a table made from the input schema: every field but the row-kind field, the
   * {@link DynamicColumns} field and the {@link SourcePosition} field, in order.
   *
   * @throws IllegalArgumentException naming the field whose type has no column type
   */
  static RowType tableType(Schema input, String rowKindField) {
    List<DataField> fields = new ArrayList<>();
    for (Schema.Field f : input.getFields()) {
      if (f.getName().equals(rowKindField)
          || DynamicColumns.isField(f.getType())
          || SourcePosition.isField(f.getType())) {
        continue;
      }
      DataType type = columnType(f.getName(), f.getType());
      fields.add(
          new DataField(fields.size(), f.getName(), type.withNullable(f.getType().getNullable())));
    }
    return new RowType(fields);
  }

  static DataType columnType(String field, FieldType t) {
    switch (t.getTypeName()) {
      case BOOLEAN:
        return DataType.booleanType();
      case BYTE:
        return DataType.tinyint();
      case INT16:
        return DataType.smallint();
      case INT32:
        return DataType.intType();
      case INT64:
        return DataType.bigint();
      case FLOAT:
        return DataType.floatType();
      case DOUBLE:
        return DataType.doubleType();
      case DECIMAL:
        return DataType.decimal(38, 18);
      case STRING:
        return DataType.string();
      case BYTES:
        return DataType.bytes();
      case DATETIME:
        return DataType.timestampLtz(3);
      case LOGICAL_TYPE:
        return logicalColumnType(field, t);
      default:
        throw unmappable(field, t);
    }
  }

  private static DataType logicalColumnType(String field, FieldType t) {
    Schema.LogicalType<?, ?> logical = t.getLogicalType();
    String id = logical.getIdentifier();
    if (id.equals(SqlTypes.DATE.getIdentifier())) {
      return DataType.date();
    } else if (id.equals(SqlTypes.DATETIME.getIdentifier())) {
      return DataType.timestamp(9);
    } else if (id.equals(MicrosInstant.IDENTIFIER)) {
      return DataType.timestampLtz(6);
    } else if (id.equals(FixedPrecisionNumeric.IDENTIFIER)) {
      Row args = t.getLogicalType(FixedPrecisionNumeric.class).getArgument();
      return DataType.decimal(args.getInt32("precision"), args.getInt32("scale"));
    } else if (id.equals(FixedString.IDENTIFIER)) {
      return DataType.charType(t.getLogicalType(FixedString.class).getLength());
    } else if (id.equals(VariableString.IDENTIFIER)) {
      return DataType.varchar(t.getLogicalType(VariableString.class).getMaxLength());
    } else if (id.equals(FixedBytes.IDENTIFIER)) {
      return DataType.binary(t.getLogicalType(FixedBytes.class).getLength());
    } else if (id.equals(VariableBytes.IDENTIFIER)) {
      return DataType.varbinary(t.getLogicalType(VariableBytes.class).getMaxLength());
    }
    throw unmappable(field, t);
  }

  private static IllegalArgumentException unmappable(String field, FieldType t) {
    return new IllegalArgumentException(
        "input field '"
            + field
            + "' has Beam type "
            + t
            + ", which no column type takes: see the"
            + " type mapping of ChangelakeIO, or convert the field before the write");
  }

  /**
   * The mapping of rows of the input schema onto the columns of a table's schema {@code schemaId},
   * by name; the entries of a {@link DynamicColumns} field fill their columns in place of the
   * fields.
   *
   * @param rowKindField the field holding +I, -U, +U or -D, or null for insert-only input
   * @throws IllegalArgumentException naming the field or column that does not fit: an input field
   *     that is no column, a NOT NULL column the input lacks, a type that cannot hold the column
   */
  static RowMapping of(
      Schema input, String rowKindField, RowType table, long schemaId, String tableName) {
    int dynamicIndex = -1;
    for (Schema.Field f : input.getFields()) {
      if (DynamicColumns.isField(f.getType())) {
        dynamicIndex = input.indexOf(f.getName());
      } else if (!f.getName().equals(rowKindField)
          && !SourcePosition.isField(f.getType())
          && table.indexOf(f.getName()) < 0) {
        throw new IllegalArgumentException(
            "input field '"
                + f.getName()
                + "' is not a column of "
                + tableName
                + " (columns "
                + table.names()
                + "): drop the field before the write, or add the column");
      }
    }
    List<ColumnReader> readers = new ArrayList<>();
    for (DataField column : table.fields()) {
      if (!input.hasField(column.name())) {
        if (!column.type().nullable()) {
          throw new IllegalArgumentException(
              "column '"
                  + column.name()
                  + "' of "
                  + tableName
                  + " is NOT NULL, but the input has"
                  + " no field of that name");
        }
        readers.add(row -> null);
        continue;
      }
      int index = input.indexOf(column.name());
      Function<Object, Object> convert =
          converter(column, input.getField(index).getType(), tableName);
      readers.add(
          row -> {
            Object value = row.getValue(index);
            return value == null ? null : convert.apply(value);
          });
    }
    return new RowMapping(
        readers,
        rowKindField == null ? -1 : input.indexOf(rowKindField),
        dynamicIndex,
        SourcePosition.fieldIndex(input),
        table,
        schemaId);
  }

  /** Whether values of Beam type {@code from} can fill {@code column} as they are. */
  static boolean fills(DataField column, FieldType from, String table) {
    try {
      converter(column, from, table);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * How a value of Beam type {@code from} becomes a value of {@code column}: as it is, or widened
   * (an INT32 field fills a BIGINT column, a FLOAT one a DOUBLE column).
   */
  static Function<Object, Object> converter(DataField column, FieldType from, String table) {
    TypeRoot to = column.type().root();
    String name = column.name();
    FieldType base = from.getTypeName() == Schema.TypeName.LOGICAL_TYPE ? logicalInput(from) : from;
    switch (to) {
      case DECIMAL:
        if (base.getTypeName() == Schema.TypeName.DECIMAL) {
          int scale = column.type().scale();
          return v -> rescale(name, (BigDecimal) v, scale);
        }
        break;
      case CHAR:
      case VARCHAR:
        if (base.getTypeName() == Schema.TypeName.STRING) {
          int length = column.type().length();
          return v -> checkLength(name, (String) v, ((String) v).length(), length, column.type());
        }
        break;
      case BINARY:
      case VARBINARY:
        if (base.getTypeName() == Schema.TypeName.BYTES) {
          int length = column.type().length();
          return v -> checkLength(name, v, ((byte[]) v).length, length, column.type());
        }
        break;
      case TIMESTAMP_LTZ:
        if (from.getTypeName() == Schema.TypeName.DATETIME) {
          return v -> Instant.ofEpochMilli(((ReadableInstant) v).getMillis());
        }
        if (isLogical(from, MicrosInstant.IDENTIFIER)) {
          return v -> v;
        }
        break;
      case DATE:
        if (isLogical(from, SqlTypes.DATE.getIdentifier())) {
          return v -> v;
        }
        break;
      case TIMESTAMP:
        if (isLogical(from, SqlTypes.DATETIME.getIdentifier())) {
          return v -> v;
        }
        break;
      default:
        if (from.getTypeName() != Schema.TypeName.LOGICAL_TYPE && !DynamicColumns.isField(from)) {
          DataType given = columnType(name, from);
          if (given.root() == to) {
            return v -> v;
          }
          if (TypeWidening.widens(given, column.type())) {
            return v -> TypeWidening.convert(v, column.type());
          }
        }
    }
    throw new IllegalArgumentException(
        "input field '"
            + name
            + "' has Beam type "
            + from
            + ", which cannot fill column '"
            + name
            + "' of type "
            + column.type()
            + " in "
            + table
            + ": see the type mapping of"
            + " ChangelakeIO");
  }

  /** The Beam type a logical type's values come as, for those whose values we take unchanged. */
  private static FieldType logicalInput(FieldType t) {
    String id = t.getLogicalType().getIdentifier();
    if (id.equals(FixedPrecisionNumeric.IDENTIFIER)) {
      return FieldType.DECIMAL;
    }
    if (id.equals(FixedString.IDENTIFIER) || id.equals(VariableString.IDENTIFIER)) {
      return FieldType.STRING;
    }
    if (id.equals(FixedBytes.IDENTIFIER) || id.equals(VariableBytes.IDENTIFIER)) {
      return FieldType.BYTES;
    }
    return t;
  }

  private static boolean isLogical(FieldType t, String identifier) {
    return t.getTypeName() == Schema.TypeName.LOGICAL_TYPE
        && t.getLogicalType().getIdentifier().equals(identifier);
  }

  static Object rescale(String column, BigDecimal value, int scale) {
    try {
      return value.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "column '"
              + column
              + "' keeps "
              + scale
              + " decimal places; "
              + value.toPlainString()
              + " would lose digits");
    }
  }

  static Object checkLength(String column, Object value, int length, int max, DataType type) {
    if (length > max) {
      throw new IllegalArgumentException(
          "column '"
              + column
              + "' of type "
              + type
              + " takes at most "
              + max
              + ", got a value of "
              + length
              + (value instanceof String ? " characters" : " bytes"));
    }
    return value;
  }

  /**
   * The table row of a Beam row.
   *
   * @throws IllegalArgumentException naming the field for a value the column refuses or an unknown
   *     row kind
   */
  KindedRow map(Row row) {
    RowKind kind = RowKind.INSERT;
    if (kindIndex >= 0) {
      Object text = row.getValue(kindIndex);
      if (!(text instanceof String shortKind)) {
        throw new IllegalArgumentException(
            "the row-kind field holds " + text + ", not one of +I, -U, +U, -D");
      }
      kind = RowKind.fromShortString(shortKind);
    }
    Object[] values = new Object[readers.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = readers.get(i).read(row);
    }
    Map<String, Row> dynamic = dynamicColumns(row);
    for (Map.Entry<String, Row> entry : dynamic.entrySet()) {
      int at = table.indexOf(entry.getKey());
      if (at < 0) {
        throw new IllegalArgumentException(
            "dynamic column '"
                + entry.getKey()
                + "' is not a column of the table (columns "
                + table.names()
                + "): write with withSchemaEvolution() to add it");
      }
      DataField column = table.field(at);
      DataType declared = DynamicColumns.declaredType(entry.getKey(), entry.getValue());
      if (!TypeWidening.widens(declared, column.type())) {
        throw new IllegalArgumentException(
            "dynamic column '"
                + entry.getKey()
                + "' is "
                + declared
                + " but the column is "
                + column.type()
                + ", which does not take it: write with withSchemaEvolution() to widen the column");
      }
      values[at] = DynamicColumns.parse(column, entry.getValue().getString("value"));
      if (values[at] == null && !column.type().nullable()) {
        throw new IllegalArgumentException(
            "dynamic column '" + entry.getKey() + "' is null, but the column is NOT NULL");
      }
    }
    return new KindedRow(kind, values, schemaId, sourceOf(row));
  }

  /** The row's {@link SourcePosition} as a range of one offset, or null if it has none. */
  private PositionRange sourceOf(Row row) {
    Row position = positionIndex < 0 ? null : row.getRow(positionIndex);
    if (position == null) {
      return null;
    }
    long offset = position.getInt64("offset");
    return new PositionRange(position.getString("partition"), offset, offset);
  }

  /** The {@link DynamicColumns} of a row of the input schema: none if it has no such field. */
  Map<String, Row> dynamicColumns(Row row) {
    if (dynamicIndex < 0) {
      return Map.of();
    }
    Map<String, Row> dynamic = row.getMap(dynamicIndex);
    return dynamic == null ? Map.of() : dynamic;
  }
}
