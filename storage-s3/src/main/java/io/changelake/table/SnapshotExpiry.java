package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.IndexManifestFile;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableOptions;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes old snapshots and the files only they use, under the table's retention options.
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>option</th><th>default</th><th>effect</th></tr>
 *   <tr><td>snapshot.num-retained.min</td><td>10</td><td>the newest snapshots always kept, whatever
 *       their age</td></tr>
 *   <tr><td>snapshot.num-retained.max</td><td>unlimited</td><td>beyond this many, the oldest
 *       snapshots go whatever their age</td></tr>
 *   <tr><td>snapshot.time-retained</td><td>1 h</td><td>between min and max, snapshots older than
 *       this go</td></tr>
 *   <tr><td>snapshot.expire.limit</td><td>50</td><td>snapshots one run removes at most; the
 *       next run goes on</td></tr>
 *   <tr><td>consumer.expiration-time</td><td>never</td><td>first, consumers whose file was not
 *       rewritten for this long are removed</td></tr>
 * </table>
 *
 * <p>Never removed: the latest snapshot, and any snapshot at or after the smallest {@code
 * nextSnapshot} of the table's {@link Consumers}, so a changelog read that records its progress
 * always finds what it has yet to read. The data files and manifests of a tagged snapshot ({@link
 * Tags}) stay after the snapshot goes; its changelog files go with it, as in Paimon.
 *
 * <p>{@link SnapshotCommit} runs it after every commit that created a snapshot (except on {@code
 * write-only} tables, as in Paimon, where the dedicated compaction job's commits do), so a table
 * that is written keeps within its retention without anyone running {@code ./changelake expire}.
 * These are Paimon 1.3.1's rules and defaults (its {@code ExpireSnapshotsImpl} and {@code
 * ConsumerManager.expire}).
 *
 * <p>Expiring the snapshots {@code [from, until)} removes, in this order (Paimon's
 * ExpireSnapshotsImpl):
 *
 * <ol>
 *   <li>data files that a delta of the snapshots {@code (from, until]} deleted (a file deleted by
 *       snapshot {@code s} was last live in {@code s - 1}), unless live in snapshot {@code until};
 *   <li>the changelog files of the expired snapshots;
 *   <li>manifests and manifest lists of the expired snapshots that no retained snapshot names;
 *   <li>index manifests of the expired snapshots that no retained snapshot or tag names, with their
 *       index files that no retained index manifest names;
 *   <li>the snapshot files, oldest first, so the snapshots left are always contiguous;
 *   <li>then the EARLIEST hint moves to {@code until}.
 * </ol>
 *
 * <p>Safe to interrupt: until its snapshot file goes, an expired snapshot still names everything it
 * held, so the next run finds and finishes the work; deleting a file already gone is no error, and
 * manifests already removed by an earlier run are skipped (their files were removed before them).
 * Retained snapshots never lose a file. A run interrupted after step 1 leaves the expiring
 * snapshots unreadable until a later run removes them, as in Paimon.
 */
public final class SnapshotExpiry {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

  /**
   * What one run expired.
   *
   * @param from the first snapshot removed
   * @param until the first snapshot kept: the earliest after the run
   * @param deletedFiles data, changelog, manifest and snapshot files removed
   */
  public record Expired(long from, long until, int deletedFiles) {
    /** The number of snapshots removed. */
    public long snapshots() {
      return until - from;
    }
  }

  private final Table table;
  private final ObjectStore store;
  private final TablePath path;
  private final SnapshotLog snapshots;
  private final TableScan scan;

  SnapshotExpiry(Table table) {
    table.requireSupported("expired");
    this.table = table;
    this.store = table.store();
    this.path = table.path();
    this.snapshots = table.snapshots();
    this.scan = table.newScan();
  }

  /**
   * Expires what the retention options allow now.
   *
   * @throws IllegalArgumentException if snapshot.num-retained.max is below
   *     snapshot.num-retained.min
   */
  public Expired expire() throws IOException {
    return expire(System.currentTimeMillis());
  }

  /** Expires what the retention options allow at the time {@code nowMillis}. */
  Expired expire(long nowMillis) throws IOException {
    TableOptions options = table.options();
    int retainMin = options.snapshotNumRetainedMin();
    int retainMax = options.snapshotNumRetainedMax();
    if (retainMax < retainMin) {
      throw new IllegalArgumentException(
          "snapshot.num-retained.max ("
              + retainMax
              + ") of "
              + table.location()
              + " is below"
              + " snapshot.num-retained.min ("
              + retainMin
              + "): raise the max or lower the min");
    }
    Duration consumerExpiration = options.consumerExpirationTime();
    if (consumerExpiration != null) {
      // First, as Paimon does, so an abandoned consumer no longer holds snapshots back.
      table.consumers().expire(nowMillis - consumerExpiration.toMillis());
    }
    OptionalLong latest = snapshots.latestId();
    OptionalLong earliest = snapshots.earliestId();
    if (latest.isEmpty() || earliest.isEmpty()) {
      return new Expired(1, 1, 0);
    }
    long earliestId = earliest.getAsLong();
    // Beyond num-retained.max snapshots go whatever their age; num-retained.min and the slowest
    // consumer bound what may go at all.
    long firstByAge = Math.max(latest.getAsLong() - retainMax + 1, earliestId);
    long until = latest.getAsLong() - retainMin + 1;
    OptionalLong slowestConsumer = table.consumers().minNextSnapshot();
    if (slowestConsumer.isPresent()) {
      until = Math.min(until, slowestConsumer.getAsLong());
    }
    until = Math.min(until, earliestId + options.snapshotExpireLimit());
    long olderThan = nowMillis - options.snapshotTimeRetained().toMillis();
    for (long id = firstByAge; id < until; id++) {
      if (snapshots.read(id).timeMillis() >= olderThan) {
        until = id;
        break;
      }
    }
    return expireUntil(earliestId, until);
  }

  private Expired expireUntil(long from, long until) throws IOException {
    if (until <= from) {
      return new Expired(from, from, 0);
    }
    Snapshot kept = snapshots.read(until);
    // Tags on snapshots after `until` hold only files `kept` or later snapshots hold as well.
    List<Snapshot> tagged = new ArrayList<>();
    for (Snapshot s : table.tags().taggedSnapshots()) {
      if (s.id() < until) {
        tagged.add(s);
      }
    }
    int deleted = 0;
    deleted += deleteReplacedDataFiles(from, kept, tagged);
    for (long id = from; id < until; id++) {
      Snapshot s = snapshots.read(id);
      if (s.changelogManifestList() != null) {
        for (ManifestEntry e : entriesOrNothing(s.changelogManifestList(), s)) {
          if (e.kind() == FileKind.ADD) {
            deleted += deleteFile(e);
          }
        }
      }
    }
    Set<String> retainedManifests = retainedManifests(until);
    for (Snapshot s : tagged) {
      // A tag names its snapshot's base and delta lists; its changelog goes, as in Paimon.
      for (String list : List.of(s.baseManifestList(), s.deltaManifestList())) {
        retainedManifests.add(list);
        for (ManifestFileMeta m : scan.manifestsOf(list, s)) {
          retainedManifests.add(m.fileName());
        }
      }
    }
    Set<String> removedManifests = new HashSet<>();
    for (long id = from; id < until; id++) {
      Snapshot s = snapshots.read(id);
      for (String list : manifestLists(s)) {
        deleted += deleteUnretained(list, s, retainedManifests, removedManifests);
      }
    }
    deleted += deleteUnretainedIndex(from, until);
    for (long id = from; id < until; id++) {
      snapshots.delete(id);
      deleted++;
    }
    snapshots.writeEarliestHint(until);
    LOG.info(
        "expired snapshots {} to {} of {}, {} files removed",
        from,
        until - 1,
        table.location(),
        deleted);
    return new Expired(from, until, deleted);
  }

  /**
   * Removes the index manifests of the snapshots [from, until) that no retained snapshot or tag
   * names, and their index files that no retained index manifest names (snapshots that change no
   * index share their predecessor's manifest).
   */
  private int deleteUnretainedIndex(long from, long until) throws IOException {
    Set<String> expiredManifests = new HashSet<>();
    for (long id = from; id < until; id++) {
      String manifest = snapshots.read(id).indexManifest();
      if (manifest != null) {
        expiredManifests.add(manifest);
      }
    }
    if (expiredManifests.isEmpty()) {
      return 0;
    }
    List<Snapshot> holders = new ArrayList<>(table.tags().taggedSnapshots());
    long latest = snapshots.latestId().orElseThrow();
    for (long id = until; id <= latest; id++) {
      holders.add(snapshots.read(id));
    }
    Set<String> retainedManifests = new HashSet<>();
    Set<String> retainedFiles = new HashSet<>();
    for (Snapshot s : holders) {
      if (s.indexManifest() != null && retainedManifests.add(s.indexManifest())) {
        for (IndexManifestEntry e : scan.indexFiles(s)) {
          retainedFiles.add(e.file().fileName());
        }
      }
    }
    IndexManifestFile manifests = new IndexManifestFile(store, path.manifestFolder());
    int deleted = 0;
    for (String manifest : expiredManifests) {
      if (retainedManifests.contains(manifest)) {
        continue;
      }
      List<IndexManifestEntry> entries;
      try {
        entries = manifests.read(manifest);
      } catch (ObjectNotFoundException e) {
        LOG.warn("index manifest {} is gone; an earlier expiry removed it", manifest);
        continue;
      }
      for (IndexManifestEntry e : entries) {
        if (retainedFiles.add(e.file().fileName())) {
          store.delete(path.indexFolder() + e.file().fileName());
          deleted++;
        }
      }
      store.delete(path.manifestFolder() + manifest);
      deleted++;
    }
    return deleted;
  }

  private record BucketFile(SerializedRow partition, int bucket, String fileName) {}

  /** Removes the data files that deltas of the snapshots (from, kept] deleted. */
  private int deleteReplacedDataFiles(long from, Snapshot kept, List<Snapshot> tagged)
      throws IOException {
    Set<BucketFile> live = new HashSet<>();
    List<Snapshot> holders = new ArrayList<>(tagged);
    holders.add(kept);
    for (Snapshot holder : holders) {
      for (ManifestEntry e : scan.liveFiles(holder)) {
        live.add(new BucketFile(e.partition(), e.bucket(), e.file().fileName()));
      }
    }
    int deleted = 0;
    for (long id = from + 1; id <= kept.id(); id++) {
      Snapshot s = id == kept.id() ? kept : snapshots.read(id);
      List<ManifestEntry> delta = entriesOrNothing(s.deltaManifestList(), s);
      // A file deleted and added in one delta moved to another level: it stays.
      Set<BucketFile> added = new HashSet<>();
      for (ManifestEntry e : delta) {
        if (e.kind() == FileKind.ADD) {
          added.add(new BucketFile(e.partition(), e.bucket(), e.file().fileName()));
        }
      }
      for (ManifestEntry e : delta) {
        BucketFile file = new BucketFile(e.partition(), e.bucket(), e.file().fileName());
        if (e.kind() == FileKind.DELETE && !added.contains(file) && !live.contains(file)) {
          deleted += deleteFile(e);
        }
      }
    }
    return deleted;
  }

  private int deleteFile(ManifestEntry e) throws IOException {
    String folder = path.bucketFolder(table.partitionPath(e.partition()), e.bucket());
    store.delete(folder + e.file().fileName());
    for (String extra : e.file().extraFiles()) {
      store.delete(folder + extra);
    }
    return 1 + e.file().extraFiles().size();
  }

  /**
   * The entries a manifest list names, or nothing when the list or a manifest is gone: only an
   * earlier, interrupted run removes those, and it removed their files first.
   */
  private List<ManifestEntry> entriesOrNothing(String list, Snapshot s) throws IOException {
    List<ManifestFileMeta> manifests = manifestsOrNothing(list, s);
    try {
      return scan.entries(manifests);
    } catch (IOException e) {
      if (e.getCause() instanceof ObjectNotFoundException) {
        LOG.warn("a manifest of snapshot {} is gone; an earlier expiry removed it", s.id());
        return List.of();
      }
      throw e;
    }
  }

  private List<ManifestFileMeta> manifestsOrNothing(String list, Snapshot s) throws IOException {
    try {
      return scan.manifestsOf(list, s);
    } catch (IOException e) {
      if (e.getCause() instanceof ObjectNotFoundException) {
        LOG.warn(
            "manifest list {} of snapshot {} is gone; an earlier expiry removed it", list, s.id());
        return List.of();
      }
      throw e;
    }
  }

  private static List<String> manifestLists(Snapshot s) {
    List<String> lists = new ArrayList<>(List.of(s.baseManifestList(), s.deltaManifestList()));
    if (s.changelogManifestList() != null) {
      lists.add(s.changelogManifestList());
    }
    return lists;
  }

  /** Every manifest list and manifest a snapshot from {@code until} on names. */
  private Set<String> retainedManifests(long until) throws IOException {
    Set<String> retained = new HashSet<>();
    long latest = snapshots.latestId().orElseThrow();
    for (long id = until; id <= latest; id++) {
      Snapshot s = snapshots.read(id);
      for (String list : manifestLists(s)) {
        retained.add(list);
        for (ManifestFileMeta m : scan.manifestsOf(list, s)) {
          retained.add(m.fileName());
        }
      }
    }
    return retained;
  }

  /**
   * Removes a list's manifests, then the list, where no retained snapshot names them; {@code
   * removed} collects what is gone, as expired snapshots share manifests.
   */
  private int deleteUnretained(String list, Snapshot s, Set<String> retained, Set<String> removed)
      throws IOException {
    if (retained.contains(list) || removed.contains(list)) {
      return 0;
    }
    int deleted = 0;
    for (ManifestFileMeta m : manifestsOrNothing(list, s)) {
      if (!retained.contains(m.fileName()) && removed.add(m.fileName())) {
        store.delete(path.manifestFolder() + m.fileName());
        deleted++;
      }
    }
    store.delete(path.manifestFolder() + list);
    removed.add(list);
    return deleted + 1;
  }
}
