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
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.utils.SerializationUtils;

/**
 * Test fixture: Paimon's own BinaryRow of a changelake row, built the way Paimon builds partition
 * values, keys and statistics (a GenericRow through {@link InternalRowSerializer#toBinaryRow}).
 */
final class PaimonRows {

  private final RowType rowType;
  private final InternalRowSerializer serializer;

  PaimonRows(RowType rowType) {
    this.rowType = rowType;
    this.serializer = new InternalRowSerializer(PaimonTypes.toPaimon(rowType));
  }

  /** The row with Paimon's internal values (BinaryString, Decimal, Timestamp, epoch days). */
  GenericRow toGenericRow(Object[] row) {
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

  private Object toInternal(Object value, int i) {
    if (value == null) {
      return null;
    }
    return switch (rowType.type(i).root()) {
      case DECIMAL -> Decimal.fromBigDecimal(
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
