package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.values.KV;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * How the tracker moves a partition's committed offset: over settled ranges in any order and
 * repeated, never over a gap holding a record, over a gap Kafka finds empty; and what the commit's
 * metadata says.
 */
class OffsetTrackerTest {

  /** Kafka as the tests see it: the offsets that hold records. */
  private static OffsetTracker.Gaps kafkaWith(long... records) {
    return (from, until) -> {
      for (long r : records) {
        if (r >= from) {
          return Math.min(r, until);
        }
      }
      return until;
    };
  }

  private static final OffsetTracker.Gaps NEVER_ASKED =
      (from, until) -> {
        throw new AssertionError("asked Kafka about " + from + ".." + until);
      };

  private static List<KV<Long, Long>> ranges(long... bounds) {
    List<KV<Long, Long>> ranges = new ArrayList<>();
    for (int i = 0; i < bounds.length; i += 2) {
      ranges.add(KV.of(bounds[i], bounds[i + 1]));
    }
    return ranges;
  }

  @Test
  void settledRangesInAnyOrderAndRepeatedMoveTheOffsetToTheirEnd() {
    List<KV<Long, Long>> pending = ranges(5, 9, 0, 2, 3, 4, 0, 2);
    assertEquals(10, OffsetTracker.advance(0, pending, NEVER_ASKED));
    assertEquals(List.of(), pending);
  }

  @Test
  void aGapHoldingARecordStopsTheOffsetAtTheRecord() {
    // Offset 3 is a transaction marker, 4 a record still on its way.
    List<KV<Long, Long>> pending = ranges(0, 2, 5, 9);
    assertEquals(4, OffsetTracker.advance(0, pending, kafkaWith(0, 1, 2, 4, 5, 6, 7, 8, 9)));
    assertEquals(ranges(5, 9), pending);
    pending.add(KV.of(4L, 4L));
    assertEquals(10, OffsetTracker.advance(4, pending, NEVER_ASKED));
  }

  @Test
  void anEmptyGapIsPassedAndAnUnansweredOneWaits() {
    // 3..6 compacted away.
    List<KV<Long, Long>> pending = ranges(0, 2, 7, 9);
    assertEquals(10, OffsetTracker.advance(0, pending, kafkaWith(0, 1, 2, 7, 8, 9)));
    List<KV<Long, Long>> unanswered = ranges(7, 9);
    assertEquals(3, OffsetTracker.advance(3, unanswered, (from, until) -> -1));
    assertEquals(ranges(7, 9), unanswered);
  }

  @Test
  void positionsNameTheirKafkaPartition() {
    assertEquals(
        new TopicPartition("dbserver1.shop.order-lines", 12),
        OffsetTracker.partitionOf(new TopicPartition("dbserver1.shop.order-lines", 12).toString()));
  }

  @Test
  void commitMetadataNamesEachTableWithItsOwnCommitIdentifier() {
    assertEquals("changelake", OffsetTracker.metadata(null));
    assertEquals(
        "changelake table /lake/inventory.db/orders/ commit 7",
        OffsetTracker.metadata(Map.of("/lake/inventory.db/orders/", 7L)));
    assertEquals(
        "changelake table /lake/crm.db/visits/ commit 3;"
            + " changelake table /lake/inventory.db/orders/ commit 7",
        OffsetTracker.metadata(
            Map.of("/lake/inventory.db/orders/", 7L, "/lake/crm.db/visits/", 3L)));
  }
}
