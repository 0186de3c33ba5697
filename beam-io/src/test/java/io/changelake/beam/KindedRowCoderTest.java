package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.types.RowKind;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.junit.jupiter.api.Test;

class KindedRowCoderTest {

  private static final Object[] EVERY_CLASS = {
    null,
    true,
    (byte) -3,
    (short) 300,
    -70_000,
    Long.MIN_VALUE,
    1.5f,
    -2.25,
    new BigDecimal("-12345678901234567890.125"),
    "grüße, 東京",
    new byte[] {0, -1, 127},
    LocalDate.of(2026, 12, 2),
    LocalDateTime.of(2026, 12, 2, 19, 5, 7, 123_456_789),
    Instant.ofEpochSecond(1_764_000_000L, 999_999_999)
  };

  @Test
  void aRowOfEveryValueClassWithItsSourceComesBackAsItWent() throws Exception {
    KindedRow row =
        new KindedRow(RowKind.UPDATE_AFTER, EVERY_CLASS, 7, new PositionRange("orders-3", 10, 12));
    KindedRow back =
        CoderUtils.decodeFromByteArray(
            KindedRowCoder.of(), CoderUtils.encodeToByteArray(KindedRowCoder.of(), row));
    assertSame(row, back);
  }

  @Test
  void rowsNestedInABagOfAKeyKeepTheirBoundaries() throws Exception {
    // As the group-by-key holds them: each row followed by the next in one stream.
    List<KindedRow> rows = new ArrayList<>();
    rows.add(new KindedRow(RowKind.DELETE, new Object[] {1L, null}, 0));
    rows.add(new KindedRow(RowKind.INSERT, EVERY_CLASS, 3, new PositionRange("p", 5, 5)));
    // The halves of a move carry its id, with or without a source position.
    rows.add(new KindedRow(RowKind.DELETE, new Object[] {1L, 2}, 3, null, (1L << 40) | 9));
    rows.add(
        new KindedRow(RowKind.INSERT, new Object[] {1L, 3}, 3, new PositionRange("p", 6, 6), 9));
    // Larger than the buffer a thread keeps: it grows, and the next row starts from a small one.
    rows.add(new KindedRow(RowKind.INSERT, new Object[] {"x".repeat(100_000), 2}, 1));
    rows.add(new KindedRow(RowKind.UPDATE_BEFORE, new Object[] {}, 2));
    KvCoder<String, Iterable<KindedRow>> coder =
        KvCoder.of(StringUtf8Coder.of(), IterableCoder.of(KindedRowCoder.of()));
    KV<String, Iterable<KindedRow>> back =
        CoderUtils.decodeFromByteArray(
            coder, CoderUtils.encodeToByteArray(coder, KV.of("bucket-0", rows)));
    assertEquals("bucket-0", back.getKey());
    List<KindedRow> decoded = new ArrayList<>();
    back.getValue().forEach(decoded::add);
    assertEquals(rows.size(), decoded.size());
    for (int i = 0; i < rows.size(); i++) {
      assertSame(rows.get(i), decoded.get(i));
    }
  }

  @Test
  void aValueOfAClassNoColumnTakesIsRefusedNamingIt() {
    KindedRow row = new KindedRow(RowKind.INSERT, new Object[] {new StringBuilder("x")}, 0);
    CoderException e =
        assertThrows(
            CoderException.class, () -> CoderUtils.encodeToByteArray(KindedRowCoder.of(), row));
    assertEquals(
        "a table row holds a java.lang.StringBuilder, which no column type takes", e.getMessage());
  }

  @Test
  void aTruncatedRowFailsAsACoderError() throws Exception {
    byte[] encoded =
        CoderUtils.encodeToByteArray(
            KindedRowCoder.of(), new KindedRow(RowKind.INSERT, new Object[] {1L, "abc"}, 0));
    // The length prefix kept, the last value cut short inside it.
    encoded[0] = (byte) (encoded[0] - 2);
    byte[] cut = Arrays.copyOf(encoded, encoded.length - 2);
    assertThrows(
        CoderException.class, () -> CoderUtils.decodeFromByteArray(KindedRowCoder.of(), cut));
  }

  private static void assertSame(KindedRow expected, KindedRow actual) {
    assertEquals(expected.kind(), actual.kind());
    assertEquals(expected.schemaId(), actual.schemaId());
    assertEquals(expected.source(), actual.source());
    assertEquals(expected.move(), actual.move());
    assertArrayEquals(expected.values(), actual.values(), Arrays.deepToString(actual.values()));
  }
}
