package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import java.io.IOException;
import java.util.Collection;

/**
 * Where the lookup producer finds the current value of a key in the levels a compaction does not
 * read: the first level at or above {@code fromLevel} that holds the key wins.
 */
public interface BeforeImageLookup {

  /** The stored record of the key, with its kind and sequence number, or null. */
  io.changelake.types.KeyValue lookup(Object[] key, int fromLevel) throws IOException;

  /** Files that left the levels: their cached contents can go. */
  void removed(Collection<DataFileMeta> files);
}
