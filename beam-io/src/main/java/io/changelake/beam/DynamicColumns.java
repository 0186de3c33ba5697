package io.changelake.beam;

import io.changelake.types.DataField;
import io.changelake.types.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * Columns a row carries beyond its PCollection's schema, which Beam fixes when the pipeline is
 * built: the way to write into a table whose columns change while the pipeline runs (a CDC source
 * that gains a column, a column that widens).
 *
 * <p>An input field of type {@link #FIELD_TYPE} (a map from column name to a {@link #VALUE} row:
 * the value's column type in Paimon's form, {@code BIGINT} or {@code DECIMAL(12, 2)}, and its text)
 * is no column itself; each entry fills the table column of its name, in place of the input field
 * of that name if there is one. With {@link ChangelakeWrite#withSchemaEvolution()} the write first
 * evolves the table where an entry does not fit it, while the pipeline runs: a column it lacks is
 * added (nullable, last), a column the entry's type widens (INT to BIGINT, DECIMAL(10, 2) to
 * DECIMAL(12, 2), ...) is widened, through {@code Table.alter}; of two workers evolving at once one
 * alter lands and the other retries on the new schema. A value of a narrower type than its column
 * (INT into BIGINT) is written as the column's type, as Paimon's CDC ingestion does, and the column
 * stays. A kind change (BIGINT to STRING), a key or partition column's type change, and, without
 * {@code withSchemaEvolution()}, any entry that does not fit, make the row a dead letter with the
 * reason.
 *
 * <p>Text forms, by column type: numbers and booleans as Java prints them, DECIMAL plain ({@code
 * 12.50}), strings as they are, binary in base64, DATE {@code 2026-12-01}, TIMESTAMP {@code
 * 2026-12-01T13:45:00.123456789}, TIMESTAMP WITH LOCAL TIME ZONE {@code 2026-12-01T13:45:00Z};
 * {@link #value} writes them.
 */
public final class DynamicColumns {

  /** One value: {@code type}, its column type in Paimon's form, and {@code value}, its text. */
  public static final Schema VALUE =
      Schema.builder().addStringField("type").addNullableStringField("value").build();

  /** The type of the input field that carries a row's dynamic columns: column name to value. */
  public static final FieldType FIELD_TYPE =
      FieldType.map(FieldType.STRING, FieldType.row(VALUE)).withNullable(true);

  private DynamicColumns() {}

  /**
   * A value of Beam type {@code type} as a dynamic column of the column type the Beam type maps to
   * (the type mapping of {@link ChangelakeIO}): {@code value(FieldType.INT64, 7L)} is a BIGINT 7.
   *
   * @throws IllegalArgumentException if no column type takes the Beam type
   */
  public static Row value(FieldType type, Object value) {
    DataType column = RowMapping.columnType("value", type).withNullable(true);
    Object stored =
        value == null
            ? null
            : RowMapping.converter(new DataField(0, "value", column), type, "a dynamic column")
                .apply(value);
    return Row.withSchema(VALUE).addValues(column.toString(), text(stored)).build();
  }

  /**
   * The column type, in Paimon's form, that values of Beam type {@code type} are written as (the
   * type mapping of {@link ChangelakeIO}): {@code BIGINT} for {@code INT64}.
   *
   * @throws IllegalArgumentException if no column type takes the Beam type
   */
  public static String typeOf(FieldType type) {
    return RowMapping.columnType("value", type).withNullable(true).toString();
  }

  /** Whether {@code type} is {@link #FIELD_TYPE}, nullable or not. */
  static boolean isField(FieldType type) {
    return type.withNullable(true).equals(FIELD_TYPE);
  }

  /** The column type an entry declares. */
  static DataType declaredType(String column, Row value) {
    try {
      return DataType.parse(value.getString("type")).withNullable(true);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "dynamic column '" + column + "' declares no column type: " + e.getMessage());
    }
  }

  private static String text(Object stored) {
    if (stored == null) {
      return null;
    }
    if (stored instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (stored instanceof byte[] bytes) {
      return Base64.getEncoder().encodeToString(bytes);
    }
    return stored.toString();
  }

  /**
   * The value of a column of type {@code column} written as {@code text}.
   *
   * @throws IllegalArgumentException naming the column if the text is no value of its type
   */
  static Object parse(DataField column, String text) {
    if (text == null) {
      return null;
    }
    DataType type = column.type();
    try {
      return switch (type.root()) {
        case BOOLEAN -> {
          if (!text.equals("true") && !text.equals("false")) {
            throw new IllegalArgumentException("not true or false");
          }
          yield Boolean.valueOf(text);
        }
        case TINYINT -> Byte.valueOf(text);
        case SMALLINT -> Short.valueOf(text);
        case INT -> Integer.valueOf(text);
        case BIGINT -> Long.valueOf(text);
        case FLOAT -> Float.valueOf(text);
        case DOUBLE -> Double.valueOf(text);
        case DECIMAL -> RowMapping.rescale(column.name(), new BigDecimal(text), type.scale());
        case CHAR, VARCHAR ->
            RowMapping.checkLength(column.name(), text, text.length(), type.length(), type);
        case BINARY, VARBINARY -> {
          byte[] bytes = Base64.getDecoder().decode(text);
          yield RowMapping.checkLength(column.name(), bytes, bytes.length, type.length(), type);
        }
        case DATE -> LocalDate.parse(text);
        case TIMESTAMP -> LocalDateTime.parse(text);
        case TIMESTAMP_LTZ -> Instant.parse(text);
      };
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "dynamic column '" + column.name() + "' of type " + type + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("column '")) {
        throw e;
      }
      throw new IllegalArgumentException(
          "dynamic column '"
              + column.name()
              + "' of type "
              + type
              + " cannot take the value: "
              + e.getMessage());
    }
  }
}
