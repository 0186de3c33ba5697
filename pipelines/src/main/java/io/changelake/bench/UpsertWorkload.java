package io.changelake.bench;

import java.util.SplittableRandom;

/**
 * The benchmark's input: N upserts over K keys of {@code orders(order_id, store_id, amount)}, keys
 * uniformly random, the same sequence for the same seed, so changelake and Paimon can be fed
 * identical rows in one run.
 *
 * @param rows how many upserts
 * @param keys how many distinct order ids they draw from
 * @param commitEvery rows per commit
 * @param seed the random seed
 */
public record UpsertWorkload(long rows, long keys, long commitEvery, long seed) {

  public UpsertWorkload {
    if (rows < 1 || keys < 1 || commitEvery < 1) {
      throw new IllegalArgumentException(
          "rows, keys and commit-every must be positive, got "
              + rows
              + ", "
              + keys
              + ", "
              + commitEvery);
    }
  }

  /** Receives the rows in order, and a call after each commit's worth. */
  public interface Sink {
    void row(long orderId, long storeId, long amount) throws Exception;

    void commit(long identifier) throws Exception;
  }

  /** Feeds every row to the sink, committing every {@link #commitEvery} rows and at the end. */
  public void feed(Sink sink) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    long identifier = 0;
    for (long i = 1; i <= rows; i++) {
      sink.row(random.nextLong(keys), random.nextLong(100), random.nextLong(1, 10_000));
      if (i % commitEvery == 0 || i == rows) {
        sink.commit(++identifier);
      }
    }
  }
}
