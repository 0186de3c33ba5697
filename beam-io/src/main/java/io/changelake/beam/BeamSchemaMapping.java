package io.changelake.beam;

import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;
import org.apache.beam.sdk.schemas.logicaltypes.Timestamp;

/**
 * The Beam schema of a table's columns. Every table type has a Beam type whose Java value is the
 * one changelake's rows already hold, so a row converts without touching its values; the table in
 * {@link ChangelakeIO} lists the pairs.
 */
final class BeamSchemaMapping {

  private BeamSchemaMapping() {}

  /** The columns of {@code rowType}, in order, as Beam fields with their nullability. */
  static Schema schemaOf(RowType rowType) {
    Schema.Builder builder = Schema.builder();
    for (DataField f : rowType.fields()) {
      builder.addField(Schema.Field.of(f.name(), fieldType(f.type())));
    }
    return builder.build();
  }

  static FieldType fieldType(DataType type) {
    FieldType beam =
        switch (type.root()) {
          case BOOLEAN -> FieldType.BOOLEAN;
          case TINYINT -> FieldType.BYTE;
          case SMALLINT -> FieldType.INT16;
          case INT -> FieldType.INT32;
          case BIGINT -> FieldType.INT64;
          case FLOAT -> FieldType.FLOAT;
          case DOUBLE -> FieldType.DOUBLE;
          case DECIMAL -> FieldType.DECIMAL;
          case CHAR, VARCHAR -> FieldType.STRING;
          case BINARY, VARBINARY -> FieldType.BYTES;
          case DATE -> FieldType.logicalType(SqlTypes.DATE);
          // Beam's DATETIME logical type keeps nanoseconds; FieldType.DATETIME would cut to millis.
          case TIMESTAMP -> FieldType.logicalType(SqlTypes.DATETIME);
          case TIMESTAMP_LTZ -> FieldType.logicalType(Timestamp.of(type.precision()));
        };
    return beam.withNullable(type.nullable());
  }
}
