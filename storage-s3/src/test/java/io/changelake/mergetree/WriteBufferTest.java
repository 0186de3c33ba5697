package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A write buffer holds its records serialized, spills sorted runs to local disk when over its
 * budget, and gives every record back, key by key in key order, each key's versions oldest first,
 * as views of the rows given.
 */
class WriteBufferTest {

  private static final RowType KEY =
      RowType.of(new String[] {"order_id"}, new DataType[] {DataType.bigint().notNull()});

  /** The widest row of the differential fuzzer's conformance table. */
  private static final RowType ROW =
      RowType.of(
          new String[] {"order_id", "store_id", "amount", "note", "flag", "region"},
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.bigint(),
            DataType.bigint(),
            DataType.string(),
            DataType.booleanType(),
            DataType.bigint().notNull()
          });

  private static final RowType STRING_KEY =
      RowType.of(
          new String[] {"note", "store_id"},
          new DataType[] {DataType.string().notNull(), DataType.bigint().notNull()});

  private static final RowType INTEGER_FIRST_KEY =
      RowType.of(
          new String[] {"store_id", "note"},
          new DataType[] {DataType.bigint().notNull(), DataType.string().notNull()});

  @TempDir Path spills;

  @Test
  void aBufferOfTheFuzzersTinySizeSpillsEveryFewRowsAndLosesNothing() throws Exception {
    // 1536 bytes in pages of 512: the sizes the differential fuzzer (RandomScript) draws to spill,
    // three pages, as the least Paimon's buffer takes; a page holds nine of these rows.
    List<KeyValue> written = new ArrayList<>();
    try (WriteBuffer buffer = new WriteBuffer(KEY, ROW, null, 1536, 512, true, spills)) {
      for (int i = 0; i < 80; i++) {
        long key = 1001 + (i * 7) % 4;
        Object[] row = {
          key,
          i % 5 == 0 ? null : 10L * (i % 3),
          (long) i,
          i % 4 == 0 ? null : "note" + i,
          i % 3 == 0 ? null : i % 2 == 0,
          1L + i % 2
        };
        KeyValue kv =
            new KeyValue(new Object[] {key}, i, i % 6 == 5 ? RowKind.DELETE : RowKind.INSERT, row);
        written.add(kv);
        assertEquals(
            false,
            buffer.add(kv.key(), kv.sequenceNumber(), kv.kind(), kv.value()),
            "a spillable buffer never asks for a flush");
      }
      // Two pages of rows and their records' arrays fill the budget as the third page comes.
      assertEquals(4, spillFiles(), "80 rows spill every 19: four spills, the rest in memory");
      assertGivesBack(written, new RowComparator(KEY), buffer.keys());
    }
    assertEquals(0, spillFiles(), "closing the buffer deletes its spills");
  }

  /**
   * A key of a string and a BIGINT, and one of a BIGINT and a string, whose sort compares the
   * BIGINT held beside each record before the key's bytes: its values repeat (ties go to the bytes)
   * and reach both ends of the long range.
   */
  @ParameterizedTest(name = "{0} key, budget {1} bytes")
  @CsvSource({
    "string-first, 67108864",
    "string-first, 4096",
    "integer-first, 67108864",
    "integer-first, 4096"
  })
  void aBufferGivesItsKeysInKeyOrderEachWithItsVersionsOldestFirstAsTheRowsGiven(
      String keyShape, long budget) throws Exception {
    boolean integerFirst = keyShape.equals("integer-first");
    RowType keyType = integerFirst ? INTEGER_FIRST_KEY : STRING_KEY;
    long[] stores = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    Random random = new Random(5);
    List<KeyValue> written = new ArrayList<>();
    try (WriteBuffer buffer = new WriteBuffer(keyType, ROW, null, budget, 1024, true, spills)) {
      for (int i = 0; i < 5_000; i++) {
        // Strings short and long (inline in the row's slot, and in its variable part).
        String note =
            random.nextBoolean() ? "n" + random.nextInt(40) : "a longer note " + random.nextInt(40);
        long store = integerFirst ? stores[random.nextInt(stores.length)] : random.nextInt(3);
        Object[] row = {
          (long) i, store, random.nextBoolean() ? null : (long) i, note, i % 2 == 0, 7L
        };
        Object[] rowKey = integerFirst ? new Object[] {store, note} : new Object[] {note, store};
        RowKind kind = RowKind.values()[random.nextInt(4)];
        written.add(new KeyValue(rowKey.clone(), i, kind, row.clone()));
        assertEquals(false, buffer.add(rowKey, i, kind, row));
        // The buffer serialized them: the caller may reuse its arrays.
        Arrays.fill(row, null);
        Arrays.fill(rowKey, null);
      }
      assertEquals(budget < 1 << 20, spillFiles() > 0, "only the small budget spills");
      assertGivesBack(written, new RowComparator(keyType), buffer.keys());
    }
  }

  @Test
  void aKeysVersionsComeInTheSequenceFieldsOrder() throws Exception {
    Comparator<ChangeRow> byAmount = Comparator.comparing(kv -> (Long) kv.get(2));
    try (WriteBuffer buffer =
        new WriteBuffer(KEY, ROW, byAmount, 64 << 20, 64 << 10, true, spills)) {
      long[] amounts = {5, 3, 5, 1, 3};
      for (int i = 0; i < amounts.length; i++) {
        buffer.add(
            new Object[] {9L},
            i,
            RowKind.INSERT,
            new Object[] {9L, null, amounts[i], null, null, 1L});
      }
      BufferedKeys keys = buffer.keys();
      assertTrue(keys.next());
      assertEquals(0, keys.view(0).sequenceNumber(), "views come oldest first");
      KeyVersions versions = new KeyVersions();
      keys.addVersions(versions);
      List<Long> order = new ArrayList<>();
      for (int i = 0; i < versions.size(); i++) {
        order.add(versions.record(i).sequenceNumber());
      }
      assertEquals(List.of(3L, 1L, 4L, 0L, 2L), order);
      assertEquals(false, keys.next());
    }
  }

  @Test
  void aValueOfAnotherTypeIsRefusedNamingItsColumnAndTheBufferKeepsWhatItHad() throws Exception {
    try (WriteBuffer buffer = new WriteBuffer(KEY, ROW, null, 64 << 20, 64 << 10, true, spills)) {
      buffer.add(new Object[] {1L}, 0, RowKind.INSERT, new Object[] {1L, 2L, 3L, "a", true, 1L});
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  buffer.add(
                      new Object[] {2L},
                      1,
                      RowKind.INSERT,
                      new Object[] {2L, 2L, "three", "a", true, 1L}));
      assertTrue(refused.getMessage().contains("amount"), refused.getMessage());
      buffer.add(new Object[] {3L}, 2, RowKind.INSERT, new Object[] {3L, 2L, 3L, "c", true, 1L});
      BufferedKeys keys = buffer.keys();
      List<Long> sequences = new ArrayList<>();
      while (keys.next()) {
        sequences.add(keys.view(0).sequenceNumber());
      }
      assertEquals(List.of(0L, 2L), sequences);
    }
  }

  /**
   * Every record written comes back once: keys in key order, a key's versions oldest first, each as
   * a view of the row given.
   */
  private static void assertGivesBack(
      List<KeyValue> written, RowComparator keyOrder, BufferedKeys keys) {
    List<KeyValue> expected = new ArrayList<>(written);
    // A stable sort: a key's versions stay oldest first.
    expected.sort((a, b) -> keyOrder.compare(a.key(), b.key()));
    int at = 0;
    while (keys.next()) {
      // The views are taken all before any is read: each holds until the next key.
      KeyVersions versions = new KeyVersions();
      keys.addVersions(versions);
      assertEquals(keys.versions(), versions.size());
      for (int i = 0; i < keys.versions(); i++) {
        KeyValue want = expected.get(at++);
        assertEquals(0, keyOrder.compare(expected.get(at - 1 - i).key(), want.key()), "one key");
        ChangeRow got = versions.record(i);
        assertEquals(want.sequenceNumber(), got.sequenceNumber());
        assertEquals(want.kind(), got.kind());
        assertArrayEquals(want.key(), got.toKeyValue().key());
        assertArrayEquals(want.value(), got.toKeyValue().value());
      }
      assertTrue(
          at == expected.size()
              || keyOrder.compare(expected.get(at - 1).key(), expected.get(at).key()) < 0,
          "a key's versions all come together");
    }
    assertEquals(expected.size(), at);
  }

  private long spillFiles() throws IOException {
    try (Stream<Path> files = Files.list(spills)) {
      return files.count();
    }
  }
}
