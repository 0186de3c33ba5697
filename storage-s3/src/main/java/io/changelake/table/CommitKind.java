package io.changelake.table;

/** What produced a snapshot, as Paimon names it. */
public enum CommitKind {
  /** New level-0 files and, with the {@code input} producer, their changelog. */
  APPEND,
  /** A compaction: files replaced by their merge, and the lookup or full-compaction changelog. */
  COMPACT,
  /** Files of a partition or table replaced wholesale. */
  OVERWRITE,
  /** Statistics only. */
  ANALYZE
}
