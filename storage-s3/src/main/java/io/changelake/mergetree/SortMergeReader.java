package io.changelake.mergetree;

import io.changelake.types.KeyValue;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Merges runs that are each sorted by key then version into one stream in that order, so the
 * versions of a key arrive together, oldest first. Versions are ordered by sequence number, or by a
 * given order ({@code sequence.field}); records that order equal come in the order of their runs.
 */
public final class SortMergeReader implements Iterator<KeyValue> {

  private record Head(KeyValue current, Iterator<KeyValue> rest, int run) {}

  private final PriorityQueue<Head> heads;
  private int lastRun = -1;

  /** Runs sorted by key then sequence number. */
  public SortMergeReader(List<? extends Iterator<KeyValue>> runs, Comparator<Object[]> keyOrder) {
    this(runs, keyOrder, Comparator.comparingLong(KeyValue::sequenceNumber));
  }

  /** Runs sorted by key then {@code versionOrder}. */
  public SortMergeReader(
      List<? extends Iterator<KeyValue>> runs,
      Comparator<Object[]> keyOrder,
      Comparator<KeyValue> versionOrder) {
    Comparator<KeyValue> order =
        Comparator.<KeyValue, Object[]>comparing(KeyValue::key, keyOrder)
            .thenComparing(versionOrder);
    // Equal records come run by run, in the order the runs were given: a reader that orders by
    // key alone (a changelog) keeps each file's changes of a key together and the files in order.
    Comparator<Head> headOrder =
        Comparator.<Head, KeyValue>comparing(Head::current, order).thenComparingInt(Head::run);
    heads = new PriorityQueue<>(Math.max(1, runs.size()), headOrder);
    for (int i = 0; i < runs.size(); i++) {
      Iterator<KeyValue> run = runs.get(i);
      if (run.hasNext()) {
        heads.add(new Head(run.next(), run, i));
      }
    }
  }

  /** The position, in the list given, of the run the last {@link #next()} came from. */
  public int lastRun() {
    return lastRun;
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
      heads.add(new Head(head.rest.next(), head.rest, head.run));
    }
    lastRun = head.run;
    return head.current;
  }
}
