package io.changelake.beam;

import java.io.Serializable;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/**
 * Makes the Rows of one schema from values already of their fields' Java types (a reader's values,
 * a parser's), without Beam's check of each value when the Row would store it as given.
 *
 * <p>{@link Row.Builder#build} matches every value against its field type and converts some: bytes
 * (a ByteBuffer to an array), dates, timestamps and the other logical types (to the input type
 * through the base type, which also bounds a fixed-precision decimal and cuts an instant to
 * microseconds). For numbers, booleans, strings and decimals it only checks, at about 0.5
 * microseconds a row of four BIGINT and STRING fields, some hundred times what attaching them takes
 * ({@code ChangelogReadBenchmark}). A schema of those fields alone has its Rows attached ({@link
 * Row.Builder#attachValues}); any other schema goes through the builder, which converts.
 *
 * <p>The caller gives the values in field order, each of its field's Java type or null, and a
 * non-null value for each field that is not nullable: attached values are not checked.
 */
public final class RowAssembly implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Schema schema;
  private final boolean asGiven;

  public RowAssembly(Schema schema) {
    this.schema = schema;
    this.asGiven = storedAsGiven(schema);
  }

  public Schema schema() {
    return schema;
  }

  /** The Row of {@code values}, which it may keep: the caller no longer changes them. */
  public Row of(List<Object> values) {
    return asGiven
        ? Row.withSchema(schema).attachValues(values)
        : Row.withSchema(schema).addValues(values).build();
  }

  /** Whether every field's values are stored in a Row as given. */
  private static boolean storedAsGiven(Schema schema) {
    for (Schema.Field field : schema.getFields()) {
      switch (field.getType().getTypeName()) {
        case BOOLEAN, BYTE, INT16, INT32, INT64, FLOAT, DOUBLE, DECIMAL, STRING:
          break;
        default:
          return false;
      }
    }
    return true;
  }
}
