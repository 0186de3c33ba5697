package io.changelake.mergetree;

import static io.changelake.mergetree.Bucket.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class SortMergeReaderTest {

  private static final RowComparator KEYS = new RowComparator(Bucket.KEY);

  @Test
  void mergesRunsByKeyThenSequenceNumberAndTellsWhichRunEachRecordCameFrom() {
    List<Iterator<KeyValue>> runs =
        List.of(
            List.of(row(1, 5, RowKind.INSERT, 0), row(3, 6, RowKind.INSERT, 0)).iterator(),
            List.of(row(1, 2, RowKind.INSERT, 0), row(2, 1, RowKind.INSERT, 0)).iterator(),
            List.<KeyValue>of().iterator(),
            List.of(row(3, 4, RowKind.DELETE, 0)).iterator());
    SortMergeReader reader = new SortMergeReader(runs, KEYS);

    List<String> read = new ArrayList<>();
    while (reader.hasNext()) {
      KeyValue kv = reader.next();
      read.add(kv.key()[0] + "@" + kv.sequenceNumber() + " from " + reader.lastRun());
    }

    assertEquals(
        List.of("1@2 from 1", "1@5 from 0", "2@1 from 1", "3@4 from 3", "3@6 from 0"), read);
    assertThrows(NoSuchElementException.class, reader::next);
  }

  @Test
  void versionsEqualInTheGivenOrderComeInTheOrderOfTheirRuns() {
    // Ordered by amount (a sequence.field): the two versions of key 1 with amount 7 tie.
    Comparator<ChangeRow> byAmount = Comparator.comparingLong(kv -> (Long) kv.get(1));
    List<Iterator<KeyValue>> runs =
        List.of(
            List.of(row(1, 10, RowKind.INSERT, 7)).iterator(),
            List.of(row(1, 20, RowKind.INSERT, 3), row(1, 30, RowKind.INSERT, 7)).iterator(),
            List.of(row(1, 40, RowKind.INSERT, 7)).iterator());
    SortMergeReader reader = new SortMergeReader(runs, KEYS, byAmount);

    List<Long> sequences = new ArrayList<>();
    while (reader.hasNext()) {
      sequences.add(reader.next().sequenceNumber());
    }

    assertEquals(List.of(20L, 10L, 30L, 40L), sequences);
  }

  @Test
  void noRunsReadNothing() {
    assertFalse(new SortMergeReader(List.of(), KEYS).hasNext());
  }
}
