package io.changelake.format;

import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The Parquet schema of Paimon's data and changelog files, one column per line:
 *
 * <table>
 *   <caption>Columns</caption>
 *   <tr><th>column</th><th>type</th><th>field id</th></tr>
 *   <tr><td>{@code _KEY_<k>} per primary-key column</td><td>the key column's</td>
 *     <td>{@code Integer.MAX_VALUE / 2} + the column's id</td></tr>
 *   <tr><td>{@code _SEQUENCE_NUMBER}</td><td>required int64</td>
 *     <td>{@code Integer.MAX_VALUE - 1}</td></tr>
 *   <tr><td>{@code _VALUE_KIND}</td><td>required int32 (INTEGER(8,true)): +I 0, -U 1, +U 2, -D 3
 *     </td><td>{@code Integer.MAX_VALUE - 2}</td></tr>
 *   <tr><td>every table column</td><td>see below</td><td>the column's id</td></tr>
 * </table>
 *
 * <p>The message is named {@code paimon_schema}. A NOT NULL column is {@code required}, any other
 * {@code optional}. Types: BOOLEAN boolean; TINYINT and SMALLINT int32 with INTEGER(8/16,true); INT
 * int32; BIGINT int64; FLOAT float; DOUBLE double; DECIMAL(p,s) int32 (p &le; 9), int64 (p &le; 18)
 * or fixed_len_byte_array of the fewest bytes for p, all with DECIMAL(p,s); CHAR, VARCHAR and
 * STRING binary with STRING; BINARY, VARBINARY and BYTES binary; DATE int32 with DATE; TIMESTAMP(p)
 * int64 with TIMESTAMP(MILLIS) for p &le; 3, TIMESTAMP(MICROS) for p &le; 6, int96 above, adjusted
 * to UTC only WITH LOCAL TIME ZONE.
 */
public final class KeyValueFileSchema {

  /** Prefix of the key columns' names. */
  public static final String KEY_PREFIX = "_KEY_";

  static final String SEQUENCE_NUMBER = "_SEQUENCE_NUMBER";
  static final String VALUE_KIND = "_VALUE_KIND";
  private static final int KEY_FIELD_ID_START = Integer.MAX_VALUE / 2;
  private static final int SEQUENCE_NUMBER_ID = Integer.MAX_VALUE - 1;
  private static final int VALUE_KIND_ID = Integer.MAX_VALUE - 2;
  private static final String MESSAGE_NAME = "paimon_schema";

  private KeyValueFileSchema() {}

  /** The Parquet schema of a file whose keys and values have these types. */
  public static MessageType messageType(RowType keyType, RowType valueType) {
    List<Type> columns = new ArrayList<>(keyType.size() + 2 + valueType.size());
    for (DataField key : keyType.fields()) {
      columns.add(column(KEY_PREFIX + key.name(), KEY_FIELD_ID_START + key.id(), key));
    }
    columns.add(
        ColumnCodec.of(DataType.bigint()).parquetType(SEQUENCE_NUMBER, SEQUENCE_NUMBER_ID, false));
    columns.add(ColumnCodec.of(DataType.tinyint()).parquetType(VALUE_KIND, VALUE_KIND_ID, false));
    for (DataField value : valueType.fields()) {
      columns.add(column(value.name(), value.id(), value));
    }
    return new MessageType(MESSAGE_NAME, columns);
  }

  private static Type column(String name, int id, DataField field) {
    return ColumnCodec.of(field.type()).parquetType(name, id, field.type().nullable());
  }

  /** The codecs of a row type's columns, in order. */
  static ColumnCodec[] codecs(RowType type) {
    return type.fields().stream().map(f -> ColumnCodec.of(f.type())).toArray(ColumnCodec[]::new);
  }
}
