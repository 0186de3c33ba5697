package io.changelake.templates;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import org.apache.beam.sdk.schemas.Schema.FieldType;

/**
 * The column types a template can declare in {@code --columns}, each with its Beam field type and
 * the JSON values a change event may carry for it. A JSON value of another shape is a wrong type,
 * which sends its event to the dead letters.
 */
enum ColumnType {
  BOOLEAN(FieldType.BOOLEAN),
  INT(FieldType.INT32),
  BIGINT(FieldType.INT64),
  DOUBLE(FieldType.DOUBLE),
  STRING(FieldType.STRING);

  private final FieldType fieldType;

  ColumnType(FieldType fieldType) {
    this.fieldType = fieldType;
  }

  FieldType fieldType() {
    return fieldType;
  }

  /** The type named {@code name} (case-insensitive; INTEGER and VARCHAR are accepted as aliases). */
  static ColumnType named(String name) {
    String upper = name.trim().toUpperCase(Locale.ROOT);
    switch (upper) {
      case "INTEGER":
        return INT;
      case "VARCHAR":
        return STRING;
      default:
        for (ColumnType type : values()) {
          if (type.name().equals(upper)) {
            return type;
          }
        }
        throw new IllegalArgumentException(
            "unknown column type '" + name + "': use BOOLEAN, INT, BIGINT, DOUBLE or STRING");
    }
  }

  /**
   * The Java value of a JSON value for this type.
   *
   * @throws IllegalArgumentException naming the expected shape, if the value does not fit
   */
  Object fromJson(JsonNode value) {
    switch (this) {
      case BOOLEAN:
        if (value.isBoolean()) {
          return value.booleanValue();
        }
        break;
      case INT:
        if (value.isIntegralNumber() && value.canConvertToInt()) {
          return value.intValue();
        }
        break;
      case BIGINT:
        if (value.isIntegralNumber() && value.canConvertToLong()) {
          return value.longValue();
        }
        break;
      case DOUBLE:
        if (value.isNumber()) {
          return value.doubleValue();
        }
        break;
      case STRING:
        if (value.isTextual()) {
          return value.textValue();
        }
        break;
    }
    throw new IllegalArgumentException("expected " + name() + ", found " + value);
  }
}
