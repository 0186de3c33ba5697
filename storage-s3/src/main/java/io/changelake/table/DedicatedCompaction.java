package io.changelake.table;

import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import java.io.IOException;
import java.util.List;

/**
 * One run of a dedicated compaction job, as Paimon's: compacts the table's buckets under its own
 * commit user, then expires snapshots under the retention options.
 *
 * <p>Made for {@code write-only} tables, whose writers never compact (nor expire): several writers
 * may keep writing meanwhile, since a writer only adds level-0 files and a compaction commit does
 * not conflict with that. The compaction produces the table's lookup or full-compaction changelog.
 * Run one compaction job per table at a time; two would compact the same files, and the second
 * commit fails with a {@link CommitConflictException}.
 */
public final class DedicatedCompaction {

  /** The commit user of dedicated compactions; each run's identifier follows its last one. */
  public static final String COMMIT_USER = "changelake-compact";

  /**
   * What a run did.
   *
   * @param buckets the buckets opened for compaction
   * @param snapshots the snapshots it committed (none when there was nothing to compact)
   * @param expired what the expiry after it removed
   */
  public record Compacted(int buckets, List<Snapshot> snapshots, SnapshotExpiry.Expired expired) {}

  private final Table table;

  DedicatedCompaction(Table table) {
    this.table = table;
  }

  /**
   * Compacts every bucket whose partition folder starts with {@code partitionPrefix} ({@code k=v/};
   * empty for all), fully (every bucket into its top level) or normally (a universal compaction
   * pick), commits, and expires.
   */
  public Compacted run(boolean full, String partitionPrefix) throws IOException {
    String prefix =
        partitionPrefix.isEmpty() || partitionPrefix.endsWith("/")
            ? partitionPrefix
            : partitionPrefix + "/";
    SnapshotCommit commit = table.newCommit(COMMIT_USER);
    long identifier = commit.lastCommittedIdentifier().orElse(0) + 1;
    int buckets;
    List<Snapshot> made;
    try (TableWriter writer = table.newWriter()) {
      buckets = writer.openForCompaction(path -> path.startsWith(prefix));
      made =
          commit.commit(
              identifier,
              writer.prepareCommit(
                  identifier, full ? CompactionRequest.FULL : CompactionRequest.NORMAL));
    }
    // A write-only table's commits skip expiry, partition expiration and automatic tags: the
    // compaction job runs them, as in Paimon.
    SnapshotExpiry.Expired expired = table.newSnapshotExpiry().expire();
    commit.expirePartitions(identifier);
    commit.tagAutomatically();
    return new Compacted(buckets, made, expired);
  }
}
