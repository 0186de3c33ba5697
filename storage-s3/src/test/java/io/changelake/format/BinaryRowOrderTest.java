package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.types.DataType;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryRowOrderTest {

  private static final DataType[] TYPES = {
    DataType.booleanType(), DataType.tinyint(), DataType.smallint(), DataType.intType(),
    DataType.bigint(), DataType.floatType(), DataType.doubleType(), DataType.decimal(10, 2),
    DataType.decimal(30, 5), DataType.charType(5), DataType.string(), DataType.binary(4),
    DataType.bytes(), DataType.date(), DataType.timestamp(3), DataType.timestamp(9),
    DataType.timestampLtz(3), DataType.timestampLtz(6)
  };

  @Test
  void ordersBinaryRowsAsTheRowComparatorOrdersDecodedRows() {
    RandomRows random = new RandomRows(5);
    for (DataType type : TYPES) {
      assertSameOrder(RowType.of(new String[] {"k"}, new DataType[] {type}), random, 60);
    }
    // A later column decides where earlier ones tie: few distinct first values.
    assertSameOrder(
        RowType.of(
            new String[] {"a", "b"}, new DataType[] {DataType.booleanType(), DataType.string()}),
        random,
        60);
  }

  private static void assertSameOrder(RowType keyType, RandomRows random, int rows) {
    BinaryRowCodec codec = new BinaryRowCodec(keyType);
    RowComparator expected = new RowComparator(keyType);
    BinaryRowOrder order = new BinaryRowOrder(keyType);
    List<Object[]> keys = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      // Re-adding an earlier key makes equal pairs likely.
      keys.add(i > 0 && i % 7 == 0 ? keys.get(i / 2) : random.row(keyType));
    }
    for (Object[] a : keys) {
      byte[] aBytes = codec.encodeRow(a);
      // An offset proves that the row start is honoured in the first argument.
      byte[] shifted = new byte[aBytes.length + 8];
      System.arraycopy(aBytes, 0, shifted, 8, aBytes.length);
      for (Object[] b : keys) {
        byte[] bBytes = codec.encodeRow(b);
        assertEquals(
            Integer.signum(expected.compare(a, b)),
            Integer.signum(order.compare(shifted, 8, bBytes, 0)),
            keyType + ": " + Arrays.deepToString(a) + " vs " + Arrays.deepToString(b));
      }
    }
  }
}
