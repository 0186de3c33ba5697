package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeRoot;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A {@link BinaryRowView} of rows Paimon serialized, at an offset inside a larger array, reads each
 * field as {@link BinaryRowCodec#decodeRow} decodes it: through {@link BinaryRowView#get} for every
 * type, through the unboxed getter for BIGINT, INT, DOUBLE, FLOAT and BOOLEAN, and through the
 * boxed value for a getter of another type; a null field makes a getter throw.
 */
class BinaryRowViewTest {

  private static final int OFFSET = 13;

  @Test
  void readsEveryFieldInPlaceAsTheCodecDecodesIt() {
    DataType[] types = PaimonTypes.EVERY_TYPE;
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = "c" + i;
    }
    RowType rowType = RowType.of(names, types);
    int[] key = {0, 3};
    BinaryRowView view = new BinaryRowView(rowType, key);
    PaimonRows paimon = new PaimonRows(rowType);
    RandomRows random = new RandomRows(3);
    int unboxedRead = 0;
    int nullsSeen = 0;
    for (int n = 0; n < 500; n++) {
      Object[] row = random.row(rowType);
      byte[] binaryRow = paimon.toBinaryRow(row).toBytes();
      byte[] bytes = new byte[OFFSET + binaryRow.length + 5];
      System.arraycopy(binaryRow, 0, bytes, OFFSET, binaryRow.length);
      RowKind kind = RowKind.values()[n % 4];
      assertSame(view, view.of(bytes, OFFSET, n, kind));
      String what = "row " + n + " " + Arrays.deepToString(row);

      assertEquals(kind, view.kind(), what);
      assertEquals(n, view.sequenceNumber(), what);
      assertEquals(types.length, view.columnCount(), what);
      assertTrue(Arrays.deepEquals(row, view.decodeValues()), what);
      for (int c = 0; c < types.length; c++) {
        String field = what + ", field " + c + " " + types[c];
        assertEquals(row[c] == null, view.isNullAt(c), field);
        assertTrue(Arrays.deepEquals(new Object[] {row[c]}, new Object[] {view.get(c)}), field);
        if (row[c] == null) {
          nullsSeen++;
          if (isUnboxed(types[c].root())) {
            int column = c;
            assertThrows(
                NullPointerException.class, () -> read(view, column, types[column].root()), field);
          }
        } else if (isUnboxed(types[c].root())) {
          unboxedRead++;
          assertEquals(row[c], read(view, c, types[c].root()), field);
        }
      }
      KeyValue kv = view.toKeyValue();
      assertArrayEquals(new Object[] {row[0], row[3]}, kv.key(), what);
      assertTrue(Arrays.deepEquals(row, kv.value()), what);
      assertEquals(n, kv.sequenceNumber(), what);
      assertEquals(kind, kv.kind(), what);
    }
    assertTrue(unboxedRead > 0 && nullsSeen > 0, unboxedRead + " read, " + nullsSeen + " null");
  }

  @Test
  void aGetterOfAnotherTypeReadsTheBoxedValueOrFailsAsACast() {
    RowType rowType =
        RowType.of(
            new String[] {"id", "name"}, new DataType[] {DataType.bigint(), DataType.string()});
    BinaryRowView view = new BinaryRowView(rowType, new int[] {0});
    byte[] bytes = new BinaryRowCodec(rowType).encodeRow(new Object[] {7L, "seven"});
    view.of(bytes, 0, 1, RowKind.INSERT);

    assertEquals(7L, view.getLong(0));
    assertThrows(ClassCastException.class, () -> view.getInt(0));
    assertThrows(ClassCastException.class, () -> view.getLong(1));
  }

  private static boolean isUnboxed(TypeRoot root) {
    return switch (root) {
      case BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT, BOOLEAN -> true;
      default -> false;
    };
  }

  /** A field through the view's unboxed getter for its type, boxed here for the comparison. */
  private static Object read(BinaryRowView view, int column, TypeRoot root) {
    return switch (root) {
      case BIGINT -> view.getLong(column);
      case INT -> view.getInt(column);
      case SMALLINT -> view.getShort(column);
      case TINYINT -> view.getByte(column);
      case DOUBLE -> view.getDouble(column);
      case FLOAT -> view.getFloat(column);
      default -> view.getBoolean(column);
    };
  }
}
