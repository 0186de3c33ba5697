package io.changelake.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Consecutive source offsets of one partition, {@code first} to {@code last} (both in), that a
 * batch of rows came from: a batch's positions summarised (see {@link SourcePosition}).
 */
record PositionRange(String partition, long first, long last) {

  PositionRange {
    if (last < first) {
      throw new IllegalArgumentException("range " + first + ".." + last + " of " + partition);
    }
  }

  /** Collects positions and summarises them into as few ranges as they allow. */
  static final class Summary {
    private final Map<String, TreeSet<Long>> offsets = new TreeMap<>();

    void add(PositionRange range) {
      TreeSet<Long> of = offsets.computeIfAbsent(range.partition(), p -> new TreeSet<>());
      for (long o = range.first(); o <= range.last(); o++) {
        of.add(o);
      }
    }

    boolean isEmpty() {
      return offsets.isEmpty();
    }

    /** Per partition, the runs of consecutive offsets, in order. */
    List<PositionRange> ranges() {
      List<PositionRange> ranges = new ArrayList<>();
      for (Map.Entry<String, TreeSet<Long>> e : offsets.entrySet()) {
        long first = e.getValue().first();
        long last = first;
        for (long o : e.getValue().tailSet(first, false)) {
          if (o != last + 1) {
            ranges.add(new PositionRange(e.getKey(), first, last));
            first = o;
          }
          last = o;
        }
        ranges.add(new PositionRange(e.getKey(), first, last));
      }
      return ranges;
    }
  }
}
