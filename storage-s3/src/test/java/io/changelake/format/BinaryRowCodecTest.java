package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.DataType;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryRowCodecTest {

  private static final int ROWS = 3000;
  private static final int ROWS_PER_SINGLE_TYPE = 200;

  /** One column of every type: 60 columns, so the null bits take two words. */
  private static final RowType EVERY_TYPE = rowType(PaimonTypes.EVERY_TYPE);

  /** Each type alone: a one-word null bit set. */
  private static List<RowType> singleTypes() {
    List<RowType> single = new ArrayList<>();
    for (DataType type : PaimonTypes.EVERY_TYPE) {
      single.add(rowType(type));
    }
    return single;
  }

  private static RowType rowType(DataType... types) {
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      names[i] = "c" + i;
    }
    return RowType.of(names, types);
  }

  @Test
  void encodesEveryTypeExactlyAsPaimon() {
    RandomRows random = new RandomRows(1);
    assertEncodesAsPaimon(EVERY_TYPE, random, ROWS);
    for (RowType single : singleTypes()) {
      assertEncodesAsPaimon(single, random, ROWS_PER_SINGLE_TYPE);
    }
  }

  /**
   * Bytes, BinaryRow without the field count, and hash, each against Paimon's; the hash also of the
   * row just encoded, and the BinaryRow and hash as {@code writeRow} keeps them, copied into a
   * buffer at an offset.
   */
  private static void assertEncodesAsPaimon(RowType rowType, RandomRows random, int rows) {
    BinaryRowCodec codec = new BinaryRowCodec(rowType);
    PaimonRows paimon = new PaimonRows(rowType);
    for (int n = 0; n < rows; n++) {
      Object[] row = random.row(rowType);
      String what = "row " + n + " " + Arrays.deepToString(row) + " of " + rowType.fields();
      byte[] expected = paimon.serialize(row);
      byte[] expectedRow = Arrays.copyOfRange(expected, 4, expected.length);
      int expectedHash = paimon.toBinaryRow(row).hashCode();
      assertArrayEquals(expected, codec.encode(row), what);
      assertArrayEquals(expectedRow, codec.encodeRow(row), what);
      assertEquals(expectedHash, codec.lastRowHash(), what);
      assertEquals(expectedHash, codec.hash(row), what);

      int length = codec.writeRow(row);
      byte[] buffer = new byte[3 + length];
      codec.copyLastRow(buffer, 3);
      assertArrayEquals(expectedRow, Arrays.copyOfRange(buffer, 3, buffer.length), what);
      assertEquals(expectedHash, codec.lastRowHash(), what);
    }
  }

  @Test
  void decodesPaimonBytesToTheOriginalRow() {
    RandomRows random = new RandomRows(2);
    List<RowType> rowTypes = new ArrayList<>(singleTypes());
    rowTypes.add(EVERY_TYPE);
    for (RowType rowType : rowTypes) {
      BinaryRowCodec codec = new BinaryRowCodec(rowType);
      PaimonRows paimon = new PaimonRows(rowType);
      for (int n = 0; n < ROWS_PER_SINGLE_TYPE; n++) {
        Object[] row = random.row(rowType);
        String what = "row " + n + " " + Arrays.deepToString(row) + " of " + rowType.fields();
        assertTrue(Arrays.deepEquals(row, codec.decode(paimon.serialize(row))), what);
        byte[] binaryRow = paimon.toBinaryRow(row).toBytes();
        assertTrue(Arrays.deepEquals(row, codec.decodeRow(binaryRow, 0)), "unprefixed " + what);
      }
    }
  }

  @Test
  void encodesTheDocumentedLayout() {
    RowType rowType =
        rowType(DataType.bigint(), DataType.string(), DataType.string(), DataType.intType());
    Object[] row = {1L, "abc", "longer on", null};
    byte[] expected = {
      0,
      0,
      0,
      4, // field count, big-endian
      0,
      0b1000,
      0,
      0,
      0,
      0,
      0,
      0, // row kind +I; field 3 is null: bit 3 + 8
      1,
      0,
      0,
      0,
      0,
      0,
      0,
      0, // 1L
      'a',
      'b',
      'c',
      0,
      0,
      0,
      0,
      (byte) 0x83, // "abc" inline, 0x80 | length
      9,
      0,
      0,
      0,
      40,
      0,
      0,
      0, // 9 bytes at offset 40 of the row
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0, // null
      'l',
      'o',
      'n',
      'g',
      'e',
      'r',
      ' ',
      'o',
      'n',
      0,
      0,
      0,
      0,
      0,
      0,
      0 // padded to 16
    };
    assertArrayEquals(expected, new BinaryRowCodec(rowType).encode(row));
    assertArrayEquals(expected, new PaimonRows(rowType).serialize(row));
  }

  @Test
  void roundsDecimalsToTheTypeScaleAsPaimonDoes() {
    RowType rowType = rowType(DataType.decimal(10, 2), DataType.decimal(30, 3));
    Object[] row = {new BigDecimal("1.005"), new BigDecimal("-2.0005")};
    BinaryRowCodec codec = new BinaryRowCodec(rowType);
    byte[] encoded = codec.encode(row);
    assertArrayEquals(new PaimonRows(rowType).serialize(row), encoded);
    Object[] rounded = {new BigDecimal("1.01"), new BigDecimal("-2.001")};
    assertTrue(Arrays.deepEquals(rounded, codec.decode(encoded)));
  }

  @Test
  void rejectsAValueOfTheWrongClassNamingTheField() {
    BinaryRowCodec codec =
        new BinaryRowCodec(
            RowType.of(
                new String[] {"id", "amount"},
                new DataType[] {DataType.bigint(), DataType.decimal(10, 2)}));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new Object[] {1, null}));
    assertTrue(e.getMessage().contains("id") && e.getMessage().contains("Long"), e.getMessage());
  }

  @Test
  void rejectsADecimalTooWideForItsType() {
    BinaryRowCodec codec = new BinaryRowCodec(rowType(DataType.decimal(4, 2)));
    Object[] row = {new BigDecimal("123.4")};
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> codec.encode(row));
    assertTrue(e.getMessage().contains("DECIMAL(4, 2)"), e.getMessage());
  }

  @Test
  void rejectsBytesOfAnotherFieldCount() {
    byte[] twoFields =
        new BinaryRowCodec(rowType(DataType.intType(), DataType.intType()))
            .encode(new Object[] {1, 2});
    BinaryRowCodec oneField = new BinaryRowCodec(rowType(DataType.intType()));
    assertThrows(IllegalArgumentException.class, () -> oneField.decode(twoFields));
  }
}
