package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write buffer over its budget spills sorted runs to local disk and gives every record back. */
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

  @TempDir Path spills;

  @Test
  void aBufferOfTheFuzzersTinySizeSpillsEveryFewRowsAndLosesNothing() throws Exception {
    // 1536 bytes: the write-buffer-size the differential fuzzer (RandomScript) draws to spill.
    List<KeyValue> written = new ArrayList<>();
    try (WriteBuffer buffer =
        new WriteBuffer(
            KEY, ROW, Comparator.comparing(key -> (Long) key[0]), null, 1536, true, spills)) {
      for (int i = 0; i < 30; i++) {
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
        assertEquals(false, buffer.add(kv), "a spillable buffer never asks for a flush");
      }
      List<Iterator<KeyValue>> runs = buffer.sortedRuns();
      assertTrue(runs.size() >= 4, "30 rows in 1536 bytes spill every few rows: " + runs.size());
      List<KeyValue> read = new ArrayList<>();
      for (Iterator<KeyValue> run : runs) {
        long previous = Long.MIN_VALUE;
        while (run.hasNext()) {
          KeyValue kv = run.next();
          assertTrue((Long) kv.key()[0] >= previous, "each run is sorted by key");
          previous = (Long) kv.key()[0];
          read.add(kv);
        }
      }
      read.sort(Comparator.comparingLong(KeyValue::sequenceNumber));
      assertEquals(written.size(), read.size());
      for (int i = 0; i < written.size(); i++) {
        assertEquals(written.get(i).kind(), read.get(i).kind());
        assertArrayEquals(written.get(i).key(), read.get(i).key());
        assertArrayEquals(written.get(i).value(), read.get(i).value());
      }
    }
  }
}
