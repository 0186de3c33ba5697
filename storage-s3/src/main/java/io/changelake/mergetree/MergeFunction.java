package io.changelake.mergetree;

import io.changelake.types.ChangeRow;

/**
 * Combines the versions of one key into the version the table holds: the rule of a merge engine
 * ({@code merge-engine}).
 *
 * <p>Use: {@link #reset()}, then {@link #add} each version of one key in order (ascending sequence
 * number, or the {@code sequence.field} order), then {@link #result()}. An instance is reused key
 * after key and is not thread-safe.
 *
 * <p>A version added may be a view of a file's or a buffer's row ({@link ChangeRow}), valid until
 * the key's merge is done: an engine keeps what it needs of it in its own row, or, as deduplicate
 * and first-row do, the version itself, which its result then is. Either way the result is a view,
 * valid until the next {@link #reset()}: partial-update and aggregation rewrite one row key after
 * key, its BIGINT, INT, DOUBLE, FLOAT and BOOLEAN columns unboxed, read from each version through
 * its unboxed getters.
 */
public interface MergeFunction {

  /** Forgets the previous key. */
  void reset();

  /**
   * Adds the next version of the current key. The first may be the key's merged value from an
   * earlier merge (a record of an upper level), which must fold in as any other version.
   *
   * @throws MergeException if the engine cannot take this record (for example a retraction an
   *     aggregate function cannot undo); the message names the column and the option that fixes it
   */
  void add(ChangeRow version);

  /**
   * The merged version, or null when the versions added leave nothing to store (first-row after
   * only ignored retractions, say). An add kind (+I, +U) means the key has this row; a retract kind
   * (-U, -D) means the key is deleted: the record must still be written while older levels may hold
   * the key. Its sequence number is the one Paimon's engine gives: that of the last version added
   * (in merge order), except first-row, whose result is the first version as it is.
   */
  ChangeRow result();
}
