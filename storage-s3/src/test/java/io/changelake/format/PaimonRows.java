package io.changelake.format;

import io.changelake.types.PaimonTypes;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.utils.SerializationUtils;

/**
 * Test fixture: Paimon's own BinaryRow of a changelake row, built the way Paimon builds partition
 * values, keys and statistics (a GenericRow through {@link InternalRowSerializer#toBinaryRow}).
 */
public final class PaimonRows {

  private final RowType rowType;
  private final InternalRowSerializer serializer;

  public PaimonRows(RowType rowType) {
    this.rowType = rowType;
    this.serializer = new InternalRowSerializer(PaimonTypes.toPaimon(rowType));
  }

  /** The row with Paimon's internal values (BinaryString, Decimal, Timestamp, epoch days). */
  public GenericRow toGenericRow(Object[] row) {
    GenericRow generic = new GenericRow(row.length);
    for (int i = 0; i < row.length; i++) {
      generic.setField(i, toInternal(row[i], i));
    }
    return generic;
  }

  /** Paimon's BinaryRow of the row; reused by the next call. */
  BinaryRow toBinaryRow(Object[] row) {
    return serializer.toBinaryRow(toGenericRow(row));
  }

  /** Paimon's manifest form of the row ({@code SerializationUtils.serializeBinaryRow}). */
  byte[] serialize(Object[] row) {
    return SerializationUtils.serializeBinaryRow(toBinaryRow(row));
  }

  /**
   * A row Paimon read, with changelake's Java values (see {@link io.changelake.types.TypeRoot}).
   */
  public Object[] toJava(InternalRow row) {
    Object[] values = new Object[rowType.size()];
    for (int i = 0; i < values.length; i++) {
      Object internal =
          InternalRow.createFieldGetter(PaimonTypes.toPaimon(rowType.type(i)), i)
              .getFieldOrNull(row);
      values[i] = internal == null ? null : toJava(internal, i);
    }
    return values;
  }

  private Object toJava(Object internal, int i) {
    return switch (rowType.type(i).root()) {
      case DECIMAL -> ((Decimal) internal).toBigDecimal();
      case CHAR, VARCHAR -> internal.toString();
      case DATE -> LocalDate.ofEpochDay((Integer) internal);
      case TIMESTAMP -> ((Timestamp) internal).toLocalDateTime();
      case TIMESTAMP_LTZ -> ((Timestamp) internal).toInstant();
      default -> internal;
    };
  }

  private Object toInternal(Object value, int i) {
    if (value == null) {
      return null;
    }
    return switch (rowType.type(i).root()) {
      case DECIMAL ->
          Decimal.fromBigDecimal(
              (BigDecimal) value, rowType.type(i).precision(), rowType.type(i).scale());
      case CHAR, VARCHAR -> BinaryString.fromString((String) value);
      case DATE -> (int) ((LocalDate) value).toEpochDay();
      case TIMESTAMP -> Timestamp.fromLocalDateTime((LocalDateTime) value);
      case TIMESTAMP_LTZ -> {
        Instant instant = (Instant) value;
        yield Timestamp.fromEpochMillis(instant.toEpochMilli(), instant.getNano() % 1_000_000);
      }
      default -> value;
    };
  }
}
