package io.changelake.table;

import io.changelake.format.ManifestEntry;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The live data files of a table as of its latest snapshot, as one committer sees them: read in
 * full once, then advanced by the delta of each newer snapshot instead of re-read for every commit.
 * Read in full again when the snapshots it stands on expired or were rolled back.
 */
final class LiveFiles {

  private final SnapshotLog snapshots;
  private final TableScan scan;

  private Map<ManifestEntry.Identifier, ManifestEntry> live;

  /** The snapshot {@link #live} is the state of; 0 for the empty table, -1 before any read. */
  private long liveAt = -1;

  LiveFiles(SnapshotLog snapshots, TableScan scan) {
    this.snapshots = snapshots;
    this.scan = scan;
  }

  /**
   * The live files of {@code latest} (none for the empty table), by identifier. The map is this
   * object's own state: the caller reads it and does not keep it past the next call.
   */
  Map<ManifestEntry.Identifier, ManifestEntry> at(Optional<Snapshot> latest) throws IOException {
    if (latest.isEmpty()) {
      live = new HashMap<>();
      liveAt = 0;
      return live;
    }
    long target = latest.get().id();
    if (live == null || liveAt > target || liveAt < snapshots.earliestId().orElse(1) - 1) {
      live = new HashMap<>();
      for (ManifestEntry e : scan.liveFiles(latest.get())) {
        live.put(e.identifier(), e);
      }
    } else {
      for (long id = liveAt + 1; id <= target; id++) {
        Snapshot s = id == target ? latest.get() : snapshots.read(id);
        TableScan.apply(live, scan.deltaEntries(s), s);
      }
    }
    liveAt = target;
    return live;
  }
}
