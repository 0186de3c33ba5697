package io.changelake.beam;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How {@link CommitFn}'s seal cuts the arrived batches into rounds, each round one commit (one
 * snapshot, or an APPEND and a COMPACT one).
 *
 * <p>Two rules bind a round:
 *
 * <ol>
 *   <li>a bucket's batches go in their order: a batch goes in no round before its predecessor's,
 *       and one whose predecessor has not arrived waits;
 *   <li>the two batches holding the halves of a move ({@link WrittenBatch#moves()}: the -D in the
 *       key's old partition, the row in its new one) go in the same round, so no snapshot shows the
 *       key in two partitions or in none; a batch whose partner has not arrived waits.
 * </ol>
 *
 * <p>A batch that changed nothing (its rows refused, or cancelling out: a key moved in and out of
 * the bucket) has no sequence and commits nothing, but it may hold halves of moves: it links them,
 * so the batches of their partners go in one round with it (say a key moves from A to B and on to
 * C, B's batch changing nothing: A's -D and C's row still land together), and its positions settle
 * with that round.
 *
 * <p>Each round takes, first, every bucket's next batch whose move partners are next batches too
 * (and so on, until the set is closed): without moves that is every bucket's next batch, a round
 * per batch of the bucket that has the most. Writers batch their halves independently, so the pairs
 * may cross: bucket A's batch 3 pairs with B's batch 5 while A's 4 pairs with B's 4. Then no round
 * of next batches is closed, and the round takes instead the smallest closed sets around the next
 * batches: with each batch, its bucket's batches before it and the batches holding its partners (A
 * 3 and 4, B 4 and 5 here). A bucket's batches in one round are committed as one message ({@link
 * io.changelake.table.CommitMessage#followedBy}), which changes the table as the batches committed
 * in turn do, so a commit never holds two messages of one bucket.
 *
 * <p>It always terminates: each round takes at least one batch, and the seal stops only when the
 * smallest closed set around every bucket's next batch needs a batch that has not arrived (a
 * predecessor, or a partner). Since every half that reaches a writer is in one of its batches,
 * every such batch arrives, and the next seal takes it; a batch still waiting when the input ends
 * is a bug, which {@link CommitFn} reports.
 */
final class CommitRounds {

  /**
   * What a seal does.
   *
   * @param rounds the rounds, in commit order, each its batches ordered by bucket and sequence,
   *     then the batches without messages it takes
   * @param waiting the batches left for a later seal
   * @param through per bucket, the sequence of its last batch in a round
   * @param duplicates batches dropped as already sealed
   * @param awaitingPredecessor batches waiting for their predecessor
   * @param awaitingPartner batches waiting for a move partner (or for a batch before them that
   *     does)
   * @param joined batches committed as one message with an earlier batch of their bucket
   */
  record Plan(
      List<List<WrittenBatch>> rounds,
      List<WrittenBatch> waiting,
      Map<String, Long> through,
      int duplicates,
      int awaitingPredecessor,
      int awaitingPartner,
      int joined) {}

  /**
   * A batch's place: its bucket and its number there; a batch without messages gets a negative
   * number of its own.
   */
  private record Slot(String bucket, long sequence) {
    boolean withoutMessages() {
      return sequence <= 0;
    }
  }

  private final Map<String, Deque<WrittenBatch>> queues = new TreeMap<>();
  private final Map<Slot, WrittenBatch> withoutMessages = new LinkedHashMap<>();
  // By identity: a batch's equality would compare its messages.
  private final IdentityHashMap<WrittenBatch, Slot> slots = new IdentityHashMap<>();
  private final Map<Long, List<Slot>> holders = new HashMap<>();

  private CommitRounds() {}

  /**
   * The rounds of the arrived batches.
   *
   * @param arrived the batches that arrived and are not in a round yet: with messages, or without
   *     (sequence 0) holding halves of moves
   * @param sealedThrough per bucket, the sequence of its last batch in a round so far
   */
  static Plan plan(Iterable<WrittenBatch> arrived, Map<String, Long> sealedThrough) {
    return new CommitRounds().cut(arrived, sealedThrough);
  }

  private Plan cut(Iterable<WrittenBatch> arrived, Map<String, Long> sealedThrough) {
    Map<String, List<WrittenBatch>> byBucket = new TreeMap<>();
    for (WrittenBatch b : arrived) {
      if (b.messages().isEmpty()) {
        place(b, new Slot(b.bucket(), -withoutMessages.size() - 1));
        withoutMessages.put(slots.get(b), b);
      } else {
        byBucket.computeIfAbsent(b.bucket(), k -> new ArrayList<>()).add(b);
      }
    }
    Map<String, Long> through = new HashMap<>(sealedThrough);
    List<WrittenBatch> waiting = new ArrayList<>();
    int duplicates = 0;
    for (Map.Entry<String, List<WrittenBatch>> bucket : byBucket.entrySet()) {
      List<WrittenBatch> batches = bucket.getValue();
      batches.sort(Comparator.comparingLong(WrittenBatch::sequence));
      long next = through.getOrDefault(bucket.getKey(), 0L) + 1;
      Deque<WrittenBatch> queue = new ArrayDeque<>();
      for (WrittenBatch b : batches) {
        if (b.sequence() < next) {
          duplicates++;
        } else if (b.sequence() == next) {
          queue.add(b);
          place(b, new Slot(b.bucket(), b.sequence()));
          next++;
        } else {
          waiting.add(b);
        }
      }
      if (!queue.isEmpty()) {
        queues.put(bucket.getKey(), queue);
      }
    }
    int awaitingPredecessor = waiting.size();
    List<List<WrittenBatch>> rounds = new ArrayList<>();
    int joined = 0;
    while (true) {
      Set<Slot> round = nextBatchesClosed();
      if (round.isEmpty()) {
        round = smallestClosedSets();
      }
      if (round.isEmpty()) {
        break;
      }
      List<WrittenBatch> taken = new ArrayList<>();
      for (Deque<WrittenBatch> queue : queues.values()) {
        boolean first = true;
        while (!queue.isEmpty() && round.contains(slots.get(queue.peekFirst()))) {
          WrittenBatch b = queue.pollFirst();
          taken.add(b);
          through.put(b.bucket(), b.sequence());
          joined += first ? 0 : 1;
          first = false;
        }
      }
      queues.values().removeIf(Deque::isEmpty);
      for (Slot s : round) {
        if (s.withoutMessages()) {
          taken.add(withoutMessages.remove(s));
        }
      }
      rounds.add(taken);
    }
    int awaitingPartner = withoutMessages.size();
    waiting.addAll(withoutMessages.values());
    for (Deque<WrittenBatch> queue : queues.values()) {
      awaitingPartner += queue.size();
      waiting.addAll(queue);
    }
    return new Plan(
        rounds, waiting, through, duplicates, awaitingPredecessor, awaitingPartner, joined);
  }

  private void place(WrittenBatch b, Slot slot) {
    slots.put(b, slot);
    for (long move : b.moves()) {
      holders.computeIfAbsent(move, m -> new ArrayList<>(2)).add(slot);
    }
  }

  /**
   * The largest set of next batches (one a bucket) and batches without messages whose partners are
   * in it too.
   */
  private Set<Slot> nextBatchesClosed() {
    Set<Slot> round = new HashSet<>(withoutMessages.keySet());
    for (Deque<WrittenBatch> queue : queues.values()) {
      round.add(slots.get(queue.peekFirst()));
    }
    boolean dropped = true;
    while (dropped) {
      dropped = false;
      for (Slot slot : List.copyOf(round)) {
        if (!partnersWithin(batchAt(slot), round)) {
          round.remove(slot);
          dropped = true;
        }
      }
    }
    return round;
  }

  private boolean partnersWithin(WrittenBatch batch, Set<Slot> round) {
    for (long move : batch.moves()) {
      Slot partner = partnerOf(move, slots.get(batch));
      if (partner == null || !round.contains(partner)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The union of the smallest closed sets around each next batch: with a batch, its bucket's
   * batches before it and the batches of its partners; empty where a partner has not arrived.
   */
  private Set<Slot> smallestClosedSets() {
    Set<Slot> union = new HashSet<>();
    for (Deque<WrittenBatch> queue : queues.values()) {
      Set<Slot> closed = closedSetAround(queue.peekFirst());
      if (closed != null) {
        union.addAll(closed);
      }
    }
    return union;
  }

  /** The smallest closed set holding {@code start}, or null if a partner has not arrived. */
  private Set<Slot> closedSetAround(WrittenBatch start) {
    Set<Slot> closed = new HashSet<>();
    Deque<WrittenBatch> todo = new ArrayDeque<>();
    closed.add(slots.get(start));
    todo.add(start);
    while (!todo.isEmpty()) {
      WrittenBatch batch = todo.poll();
      Slot slot = slots.get(batch);
      if (!slot.withoutMessages()) {
        for (WrittenBatch before : queues.get(batch.bucket())) {
          if (before.sequence() == batch.sequence()) {
            break;
          }
          if (closed.add(slots.get(before))) {
            todo.add(before);
          }
        }
      }
      for (long move : batch.moves()) {
        Slot partner = partnerOf(move, slot);
        if (partner == null) {
          return null;
        }
        if (closed.add(partner)) {
          todo.add(batchAt(partner));
        }
      }
    }
    return closed;
  }

  /** The other ready batch holding a half of {@code move}, or null if it has not arrived. */
  private Slot partnerOf(long move, Slot self) {
    for (Slot s : holders.getOrDefault(move, List.of())) {
      if (!s.equals(self)) {
        return s;
      }
    }
    return null;
  }

  private WrittenBatch batchAt(Slot slot) {
    if (slot.withoutMessages()) {
      return withoutMessages.get(slot);
    }
    for (WrittenBatch b : queues.get(slot.bucket())) {
      if (b.sequence() == slot.sequence()) {
        return b;
      }
    }
    throw new IllegalStateException("no batch " + slot + " in " + queues.keySet());
  }
}
