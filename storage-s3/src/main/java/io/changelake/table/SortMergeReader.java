package io.changelake.table;

import io.changelake.types.KeyValue;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Merges runs that are each sorted by key then sequence number into one stream in that order, so
 * the versions of a key arrive together, oldest first.
 */
public final class SortMergeReader implements Iterator<KeyValue> {

  private record Head(KeyValue current, Iterator<KeyValue> rest) {}

  private final PriorityQueue<Head> heads;

  public SortMergeReader(List<? extends Iterator<KeyValue>> runs, Comparator<Object[]> keyOrder) {
    Comparator<KeyValue> order =
        Comparator.<KeyValue, Object[]>comparing(KeyValue::key, keyOrder)
            .thenComparingLong(KeyValue::sequenceNumber);
    heads = new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> order.compare(a.current, b.current));
    for (Iterator<KeyValue> run : runs) {
      if (run.hasNext()) {
        heads.add(new Head(run.next(), run));
      }
    }
  }

  @Override
  public boolean hasNext() {
    return !heads.isEmpty();
  }

  @Override
  public KeyValue next() {
    Head head = heads.poll();
    if (head == null) {
      throw new NoSuchElementException();
    }
    if (head.rest.hasNext()) {
      heads.add(new Head(head.rest.next(), head.rest));
    }
    return head.current;
  }
}
