package io.changelake.beam;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.testing.TestStream;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.Row;
import org.joda.time.Duration;

/**
 * Test transform: delivers a list of change rows the way a reordering runner may, in a random order
 * (from a seed) within and across bundles and, unbounded, across commit intervals; without a seed
 * in the given order, as the reference run.
 *
 * <p>Across commits it keeps one rule, the ordering contract of a sequenced table: no change of a
 * key arrives in a later commit than a newer delete of that key (a delete compacted into the last
 * level is dropped, after which an older change would bring the key back; Paimon behaves the same).
 * Within one commit interval anything goes.
 */
final class ShuffledInput extends PTransform<PBegin, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  /** How the input identifies a row's key, its sequence and whether it deletes the key. */
  record Changes(
      Schema schema,
      Function<Row, Object> key,
      ToLongFunction<Row> sequence,
      Predicate<Row> isDelete) {}

  private final transient List<Row> rows;
  private final transient Changes changes;
  private final Long seed;
  private final int commits;
  private final Duration interval;

  private ShuffledInput(
      List<Row> rows, Changes changes, Long seed, int commits, Duration interval) {
    this.rows = List.copyOf(rows);
    this.changes = changes;
    this.seed = seed;
    this.commits = commits;
    this.interval = interval;
  }

  /** Bounded, one commit: the rows in several bundles, shuffled when {@code seed} is not null. */
  static ShuffledInput oneCommit(List<Row> rows, Changes changes, Long seed) {
    return new ShuffledInput(rows, changes, seed, 1, null);
  }

  /**
   * Unbounded: the rows over {@code commits} commit intervals of a TestStream, several bundles
   * each; with a seed each row goes to a random interval (but for the delete rule) in a random
   * order.
   */
  static ShuffledInput acrossCommits(
      List<Row> rows, Changes changes, Long seed, int commits, Duration interval) {
    return new ShuffledInput(rows, changes, seed, commits, interval);
  }

  @Override
  public PCollection<Row> expand(PBegin begin) {
    List<List<Row>> intervals = intervals();
    Random random = new Random(seed == null ? 0 : seed);
    if (interval == null) {
      PCollectionList<Row> bundles = PCollectionList.empty(begin.getPipeline());
      int n = 0;
      for (List<Row> bundle : bundles(intervals.get(0), random)) {
        if (bundle.isEmpty()) {
          continue;
        }
        bundles =
            bundles.and(
                begin.apply("Bundle" + n++, Create.of(bundle).withRowSchema(changes.schema())));
      }
      return bundles.apply(Flatten.pCollections()).setRowSchema(changes.schema());
    }
    TestStream.Builder<Row> stream = TestStream.create(RowCoder.of(changes.schema()));
    for (List<Row> rowsOfInterval : intervals) {
      for (List<Row> bundle : bundles(rowsOfInterval, random)) {
        if (!bundle.isEmpty()) {
          stream =
              stream.addElements(
                  bundle.get(0), bundle.subList(1, bundle.size()).toArray(Row[]::new));
        }
      }
      stream =
          stream
              .advanceProcessingTime(interval.plus(Duration.millis(1)))
              .advanceProcessingTime(interval.plus(Duration.millis(1)));
    }
    return begin.apply(stream.advanceWatermarkToInfinity());
  }

  /** The rows of each commit interval, in delivery order. */
  private List<List<Row>> intervals() {
    int n = rows.size();
    int[] of = new int[n];
    List<Row> order = new ArrayList<>(rows);
    if (seed == null) {
      for (int i = 0; i < n; i++) {
        of[i] = (int) ((long) i * commits / n);
      }
    } else {
      Random random = new Random(seed);
      Collections.shuffle(order, random);
      for (int i = 0; i < n; i++) {
        of[i] = random.nextInt(commits);
      }
      pullBeforeNewerDeletes(order, of);
    }
    List<List<Row>> intervals = new ArrayList<>();
    for (int c = 0; c < commits; c++) {
      intervals.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      intervals.get(of[i]).add(order.get(i));
    }
    return intervals;
  }

  /** Moves each change no later than the earliest interval holding a newer delete of its key. */
  private void pullBeforeNewerDeletes(List<Row> order, int[] of) {
    boolean moved;
    do {
      // A delete that moves earlier may pull older changes after it: repeat until none moves.
      moved = false;
      for (int i = 0; i < order.size(); i++) {
        Row row = order.get(i);
        for (int d = 0; d < order.size(); d++) {
          Row delete = order.get(d);
          if (of[d] < of[i]
              && changes.isDelete().test(delete)
              && changes.key().apply(delete).equals(changes.key().apply(row))
              && changes.sequence().applyAsLong(delete) > changes.sequence().applyAsLong(row)) {
            of[i] = of[d];
            moved = true;
          }
        }
      }
    } while (moved);
  }

  /** Cuts one interval's rows into one to three bundles (in order when there is no seed). */
  private List<List<Row>> bundles(List<Row> rowsOfInterval, Random random) {
    int count = seed == null ? 2 : 1 + random.nextInt(3);
    List<List<Row>> bundles = new ArrayList<>();
    int size = rowsOfInterval.size();
    for (int b = 0; b < count; b++) {
      bundles.add(rowsOfInterval.subList(b * size / count, (b + 1) * size / count));
    }
    return bundles;
  }
}
