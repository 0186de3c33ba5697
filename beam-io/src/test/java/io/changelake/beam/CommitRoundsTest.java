package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketIncrement;
import io.changelake.table.CommitMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The committer's rounds: a bucket's batches in order, one round per batch without moves, the two
 * halves of every move in one round, crossing pairs joined instead of waiting for ever, a batch
 * whose partner has not arrived waiting, and in random cases every rule at once.
 */
class CommitRoundsTest {

  /** A message the rounds only carry. */
  private static final CommitMessage MESSAGE =
      new CommitMessage(
          new SerializedRow(new byte[0]),
          0,
          1,
          new BucketIncrement(List.of(), List.of(), List.of(), List.of(), List.of()));

  private static WrittenBatch batch(String bucket, long sequence, Long... moves) {
    return new WrittenBatch(bucket, sequence, List.of(MESSAGE), List.of(), List.of(moves));
  }

  /** Each round as "bucket#sequence" names. */
  private static List<List<String>> names(CommitRounds.Plan plan) {
    List<List<String>> out = new ArrayList<>();
    for (List<WrittenBatch> round : plan.rounds()) {
      out.add(round.stream().map(b -> b.bucket() + "#" + b.sequence()).toList());
    }
    return out;
  }

  @Test
  void withoutMovesEachBucketsNextBatchGoesInTheNextRound() {
    CommitRounds.Plan plan =
        CommitRounds.plan(
            List.of(batch("b", 2), batch("a", 1), batch("b", 1), batch("a", 3), batch("b", 3)),
            Map.of());
    assertEquals(List.of(List.of("a#1", "b#1"), List.of("b#2"), List.of("b#3")), names(plan));
    assertEquals(List.of("a#3"), plan.waiting().stream().map(b -> b.bucket() + "#3").toList());
    assertEquals(1, plan.awaitingPredecessor());
    assertEquals(Map.of("a", 1L, "b", 3L), plan.through());
  }

  @Test
  void theHalvesOfAMoveGoInOneRoundAndABatchWaitsForItsPartner() {
    CommitRounds.Plan plan =
        CommitRounds.plan(
            List.of(batch("a", 1, 7L), batch("b", 1), batch("b", 2, 7L), batch("c", 1, 8L)),
            Map.of());
    assertEquals(List.of(List.of("b#1"), List.of("a#1", "b#2")), names(plan));
    assertEquals(1, plan.awaitingPartner());
    assertEquals("c", plan.waiting().get(0).bucket());
    assertEquals(0, plan.joined());
  }

  @Test
  void crossingPairsAreJoinedIntoOneRound() {
    // a#1 pairs with b#2 while a#2 pairs with b#1: no order of single batches holds both.
    CommitRounds.Plan plan =
        CommitRounds.plan(
            List.of(batch("a", 1, 1L), batch("a", 2, 2L), batch("b", 1, 2L), batch("b", 2, 1L)),
            Map.of());
    assertEquals(List.of(List.of("a#1", "a#2", "b#1", "b#2")), names(plan));
    assertEquals(2, plan.joined());
    assertEquals(0, plan.waiting().size());
  }

  @Test
  void aBatchWithoutMessagesLinksThePartnersOfItsHalvesIntoOneRound() {
    // A key moves from a to b and on to c; b's batch changes nothing (moved in and out).
    WrittenBatch cancelled = new WrittenBatch("b", 0, List.of(), List.of(), List.of(1L, 2L));
    CommitRounds.Plan plan =
        CommitRounds.plan(
            List.of(batch("a", 1, 1L), batch("c", 1), batch("c", 2, 2L), cancelled), Map.of());
    assertEquals(List.of(List.of("c#1"), List.of("a#1", "c#2", "b#0")), names(plan));
    CommitRounds.Plan waiting = CommitRounds.plan(List.of(batch("a", 1, 1L), cancelled), Map.of());
    assertEquals(List.of(), names(waiting));
    assertEquals(2, waiting.awaitingPartner());
  }

  @Test
  void aDuplicateOfASealedBatchIsDropped() {
    CommitRounds.Plan plan =
        CommitRounds.plan(List.of(batch("a", 2), batch("a", 3)), Map.of("a", 2L));
    assertEquals(List.of(List.of("a#3")), names(plan));
    assertEquals(1, plan.duplicates());
  }

  /**
   * Random buckets cut into random batches, moves between random buckets, the batches arriving in
   * random order over several seals: every batch is sealed once, in its bucket's order, and the two
   * halves of every move in the same round.
   */
  @Test
  void anyArrivalOrderSealsEveryBatchOnceInOrderWithBothHalvesOfEachMoveInOneRound() {
    for (long seed = 1; seed <= 300; seed++) {
      Random random = new Random(seed);
      int buckets = 2 + random.nextInt(4);
      List<List<List<Long>>> halves = new ArrayList<>();
      for (int b = 0; b < buckets; b++) {
        halves.add(new ArrayList<>());
      }
      // Each bucket's rows in order: a move's halves are appended to two buckets at once, as one
      // assigner sends them, then each bucket's rows cut into batches at random.
      List<List<Long>> rows = new ArrayList<>();
      for (int b = 0; b < buckets; b++) {
        rows.add(new ArrayList<>());
      }
      int moves = 1 + random.nextInt(12);
      for (long m = 1; m <= moves; m++) {
        int from = random.nextInt(buckets);
        int to = (from + 1 + random.nextInt(buckets - 1)) % buckets;
        rows.get(from).add(m);
        rows.get(to).add(m);
        rows.get(random.nextInt(buckets)).add(0L);
      }
      List<WrittenBatch> all = new ArrayList<>();
      for (int b = 0; b < buckets; b++) {
        List<Long> bucketRows = rows.get(b);
        // Shuffled within the bucket: the writer may see its halves in any order.
        Collections.shuffle(bucketRows, random);
        long sequence = 0;
        int i = 0;
        while (i < bucketRows.size()) {
          int size = 1 + random.nextInt(3);
          List<Long> ids = new ArrayList<>();
          for (long id : bucketRows.subList(i, Math.min(bucketRows.size(), i + size))) {
            if (id != 0) {
              ids.add(id);
            }
          }
          // Now and then a batch holding halves changes nothing: no sequence, no message.
          all.add(
              !ids.isEmpty() && random.nextInt(5) == 0
                  ? new WrittenBatch("bucket-" + b, 0, List.of(), List.of(), ids)
                  : batch("bucket-" + b, ++sequence, ids.toArray(Long[]::new)));
          i += size;
        }
      }
      Collections.shuffle(all, random);
      Map<String, Long> through = new HashMap<>();
      List<WrittenBatch> arrived = new ArrayList<>();
      Map<Long, Integer> roundOfMove = new HashMap<>();
      int round = 0;
      int next = 0;
      int sealed = 0;
      while (next < all.size() || !arrived.isEmpty()) {
        int arriving = next < all.size() ? 1 + random.nextInt(all.size() - next) : 0;
        arrived.addAll(all.subList(next, next + arriving));
        next += arriving;
        CommitRounds.Plan plan = CommitRounds.plan(arrived, through);
        for (List<WrittenBatch> r : plan.rounds()) {
          round++;
          for (WrittenBatch b : r) {
            if (b.sequence() > 0) {
              assertEquals(
                  through.getOrDefault(b.bucket(), 0L) + 1,
                  b.sequence(),
                  "seed " + seed + " order");
              through.put(b.bucket(), b.sequence());
            }
            sealed++;
            for (long m : b.moves()) {
              Integer other = roundOfMove.put(m, round);
              if (other != null) {
                assertEquals(other, round, "seed " + seed + ": move " + m + " in one round");
              }
            }
          }
        }
        assertEquals(through, new HashMap<>(plan.through()), "seed " + seed);
        arrived = new ArrayList<>(plan.waiting());
        if (next == all.size()) {
          assertEquals(List.of(), arrived, "seed " + seed + ": all arrived, all sealed");
        }
      }
      assertEquals(all.size(), sealed, "seed " + seed + ": every batch sealed once");
      assertEquals(moves, roundOfMove.size(), "seed " + seed);
    }
  }
}
