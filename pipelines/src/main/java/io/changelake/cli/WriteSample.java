package io.changelake.cli;

import io.changelake.table.ChangelogScan;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What recent commits wrote, measured from the changelog a reader gets for them: under {@code none}
 * the level-0 rows with their stored kinds, otherwise the changelog files.
 *
 * <p>A write is a +I, +U or -D row (a -U is the before-image of a +U, not a write of its own). An
 * update is a +U, or a +I of a key already written within the sample: upsert-only sources write
 * every version as +I. Keys written before the sample look new, so the ratio is a lower bound.
 *
 * @param firstSnapshot the first snapshot sampled
 * @param lastSnapshot the last snapshot sampled
 * @param writes +I, +U and -D rows
 * @param updates rows that changed a key already written
 * @param deletes -D rows
 * @param beforeImages -U rows
 * @param commitGapsMillis the time between consecutive commits of the sample, in order
 */
record WriteSample(
    long firstSnapshot,
    long lastSnapshot,
    long writes,
    long updates,
    long deletes,
    long beforeImages,
    List<Long> commitGapsMillis) {

  WriteSample {
    commitGapsMillis = List.copyOf(commitGapsMillis);
  }

  /** Updates per write, 0 to 1; 0 without writes. */
  double updateRatio() {
    return writes == 0 ? 0 : (double) updates / writes;
  }

  /** The median time between commits, or null with fewer than two commits. */
  Long medianCommitGapMillis() {
    if (commitGapsMillis.isEmpty()) {
      return null;
    }
    List<Long> sorted = commitGapsMillis.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  /** Measures snapshots {@code first} to {@code last} of the table. */
  static WriteSample measure(Table table, long first, long last) throws IOException {
    Tally tally = new Tally(new PrimaryKey(table.schema()));
    ChangelogWalk.walk(table.newChangelogScan(), first, last, tally);
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < tally.commitTimes.size(); i++) {
      gaps.add(tally.commitTimes.get(i) - tally.commitTimes.get(i - 1));
    }
    return new WriteSample(
        first, last, tally.writes, tally.updates, tally.deletes, tally.beforeImages, gaps);
  }

  /** Counts the rows of a walk by kind, and the commits by time. */
  private static final class Tally implements ChangelogScan.ChangeVisitor {
    /** One commit may publish two snapshots (APPEND, then the COMPACT with its changelog). */
    private record Commit(String user, long identifier) {}

    private final PrimaryKey primaryKey;
    private final Set<RowValues> written = new HashSet<>();
    private final Set<Commit> commits = new HashSet<>();
    private final List<Long> commitTimes = new ArrayList<>();
    private long writes;
    private long updates;
    private long deletes;
    private long beforeImages;

    Tally(PrimaryKey primaryKey) {
      this.primaryKey = primaryKey;
    }

    @Override
    public void snapshot(Snapshot snapshot) {
      // A commit's first snapshot dates it.
      if (commits.add(new Commit(snapshot.commitUser(), snapshot.commitIdentifier()))) {
        commitTimes.add(snapshot.timeMillis());
      }
    }

    @Override
    public void change(ChangeRow row) {
      KeyValue change = row.toKeyValue();
      if (change.kind() == RowKind.UPDATE_BEFORE) {
        beforeImages++;
        return;
      }
      writes++;
      boolean seen = !written.add(primaryKey.of(change.value()));
      if (change.kind() == RowKind.DELETE) {
        deletes++;
      } else if (change.kind() == RowKind.UPDATE_AFTER || seen) {
        updates++;
      }
    }
  }
}
