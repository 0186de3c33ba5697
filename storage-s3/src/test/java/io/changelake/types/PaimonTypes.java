package io.changelake.types;

import org.apache.paimon.types.DataTypes;

/** Test fixture: the Paimon type each changelake type stands for, built with Paimon's own API. */
public final class PaimonTypes {

  private PaimonTypes() {}

  /** Every changelake type in a few lengths, precisions and scales, nullable and NOT NULL. */
  public static final DataType[] EVERY_TYPE =
      withNotNull(
          DataType.booleanType(),
          DataType.tinyint(),
          DataType.smallint(),
          DataType.intType(),
          DataType.bigint(),
          DataType.floatType(),
          DataType.doubleType(),
          DataType.decimal(1, 0),
          DataType.decimal(10, 2),
          DataType.decimal(18, 18),
          DataType.decimal(19, 0),
          DataType.decimal(38, 10),
          DataType.charType(1),
          DataType.charType(12),
          DataType.varchar(1),
          DataType.varchar(255),
          DataType.string(),
          DataType.binary(1),
          DataType.binary(16),
          DataType.varbinary(100),
          DataType.bytes(),
          DataType.date(),
          DataType.timestamp(0),
          DataType.timestamp(3),
          DataType.timestamp(6),
          DataType.timestamp(9),
          DataType.timestampLtz(0),
          DataType.timestampLtz(3),
          DataType.timestampLtz(6),
          DataType.timestampLtz(9));

  private static DataType[] withNotNull(DataType... types) {
    DataType[] both = new DataType[types.length * 2];
    for (int i = 0; i < types.length; i++) {
      both[2 * i] = types[i];
      both[2 * i + 1] = types[i].notNull();
    }
    return both;
  }

  /** The Paimon type of a changelake type. */
  public static org.apache.paimon.types.DataType toPaimon(DataType type) {
    org.apache.paimon.types.DataType paimon =
        switch (type.root()) {
          case BOOLEAN -> DataTypes.BOOLEAN();
          case TINYINT -> DataTypes.TINYINT();
          case SMALLINT -> DataTypes.SMALLINT();
          case INT -> DataTypes.INT();
          case BIGINT -> DataTypes.BIGINT();
          case FLOAT -> DataTypes.FLOAT();
          case DOUBLE -> DataTypes.DOUBLE();
          case DECIMAL -> DataTypes.DECIMAL(type.precision(), type.scale());
          case CHAR -> DataTypes.CHAR(type.length());
          case VARCHAR -> DataTypes.VARCHAR(type.length());
          case BINARY -> DataTypes.BINARY(type.length());
          case VARBINARY -> DataTypes.VARBINARY(type.length());
          case DATE -> DataTypes.DATE();
          case TIMESTAMP -> DataTypes.TIMESTAMP(type.precision());
          case TIMESTAMP_LTZ -> DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(type.precision());
        };
    return paimon.copy(type.nullable());
  }

  /** The Paimon row type of a changelake row type, keeping field ids and names. */
  public static org.apache.paimon.types.RowType toPaimon(RowType rowType) {
    return new org.apache.paimon.types.RowType(
        rowType.fields().stream()
            .map(f -> new org.apache.paimon.types.DataField(f.id(), f.name(), toPaimon(f.type())))
            .toList());
  }
}
