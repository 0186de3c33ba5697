package io.changelake.table;

import io.changelake.types.RowKind;
import java.util.Map;
import java.util.Random;

/**
 * Test fixture: seeded random changes to the {@link Orders} table, whichever engine writes them.
 * Each commit makes 15 changes over 40 keys: a key not present is inserted; a present key is
 * deleted (one time in four) or fully updated, -U of the stored row then +U, as a database's CDC
 * gives it.
 */
public final class RandomOrderChanges {

  /** Where the changes go: one engine's writer and committer. */
  public interface Sink<E extends Exception> {
    void write(RowKind kind, Object[] row) throws E;

    /** Ends commit {@code identifier}. */
    void commit(long identifier) throws E;
  }

  private RandomOrderChanges() {}

  /**
   * Writes {@code commits} commits with identifiers from {@code firstIdentifier}, continuing from
   * {@code state} (the rows by key), which is updated in place.
   */
  public static <E extends Exception> void write(
      Sink<E> sink, Map<Long, Object[]> state, Random random, long firstIdentifier, int commits)
      throws E {
    for (long c = firstIdentifier; c < firstIdentifier + commits; c++) {
      for (int i = 0; i < 15; i++) {
        long key = random.nextInt(40);
        Object[] old = state.get(key);
        Object[] row = Orders.row(key, (long) random.nextInt(4), (long) random.nextInt(1000));
        if (old == null) {
          sink.write(RowKind.INSERT, row);
          state.put(key, row);
        } else if (random.nextInt(4) == 0) {
          sink.write(RowKind.DELETE, old);
          state.remove(key);
        } else {
          sink.write(RowKind.UPDATE_BEFORE, old);
          sink.write(RowKind.UPDATE_AFTER, row);
          state.put(key, row);
        }
      }
      sink.commit(c);
    }
  }
}
