package io.changelake.table;

import io.changelake.format.IndexManifestEntry;
import io.changelake.format.IndexManifestFile;
import io.changelake.schema.ChangelogProducer;
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
 * <p><b>The decoupled changelog lifecycle.</b> When the changelog retention exceeds the snapshot
 * retention ({@code changelog.num-retained.min}, {@code changelog.num-retained.max}, {@code
 * changelog.time-retained}; each defaults to its {@code snapshot.*} twin), a snapshot's changelog
 * outlives it, as in Paimon: step 2 is skipped, step 3 keeps the changelog manifest lists (and,
 * with changelog-producer none, whose changelog is the delta's data files, the base and delta
 * manifest lists, and step 1 keeps the data files a flush wrote), and before step 5 removes a
 * snapshot file, the snapshot is copied to {@code changelog/changelog-<id>} and the changelog
 * LATEST hint moves to it. {@link ChangelogExpiry} then removes those changelogs under the {@code
 * changelog.*} options, after each run of this expiry.
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
   * @param changelogs long-lived changelogs removed by the {@link ChangelogExpiry} that followed
   *     (decoupled changelog lifecycle only, else 0)
   */
  public record Expired(long from, long until, int deletedFiles, long changelogs) {

    /** A run that removed no long-lived changelog. */
    public Expired(long from, long until, int deletedFiles) {
      this(from, until, deletedFiles, 0);
    }

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
  private final FileDeletion files;

  SnapshotExpiry(Table table) {
    table.requireSupported("expired");
    this.table = table;
    this.store = table.store();
    this.path = table.path();
    this.snapshots = table.snapshots();
    this.scan = table.newScan();
    this.files = new FileDeletion(table, scan);
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

  /**
   * Expires what the retention options allow at the time {@code nowMillis}: snapshots, then, when
   * the changelog lifecycle is decoupled, long-lived changelogs.
   */
  Expired expire(long nowMillis) throws IOException {
    Expired snapshotsExpired = expireSnapshots(nowMillis);
    if (!table.options().changelogDecoupled()) {
      return snapshotsExpired;
    }
    long changelogs = new ChangelogExpiry(table).expire(nowMillis);
    return new Expired(
        snapshotsExpired.from(),
        snapshotsExpired.until(),
        snapshotsExpired.deletedFiles(),
        changelogs);
  }

  private Expired expireSnapshots(long nowMillis) throws IOException {
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
    boolean decoupled = table.options().changelogDecoupled();
    // With changelog-producer none a changelog is the data files a flush wrote: they stay.
    boolean keepFlushedFiles =
        decoupled && table.options().changelogProducer() == ChangelogProducer.NONE;
    int deleted = 0;
    deleted += deleteReplacedDataFiles(from, kept, tagged, keepFlushedFiles);
    for (long id = from; id < until && !decoupled; id++) {
      Snapshot s = snapshots.read(id);
      if (s.changelogManifestList() != null) {
        deleted += files.deleteAdded(s.changelogManifestList(), s);
      }
    }
    Set<String> retainedManifests = retainedManifests(until);
    for (Snapshot s : tagged) {
      // A tag names its snapshot's base and delta lists; its changelog goes, as in Paimon.
      files.addManifests(
          s, List.of(s.baseManifestList(), s.deltaManifestList()), false, retainedManifests);
    }
    Set<String> removedManifests = new HashSet<>();
    for (long id = from; id < until && !keepFlushedFiles; id++) {
      Snapshot s = snapshots.read(id);
      List<String> lists =
          decoupled ? List.of(s.baseManifestList(), s.deltaManifestList()) : manifestLists(s);
      for (String list : lists) {
        deleted += files.deleteUnretained(list, s, retainedManifests, removedManifests);
      }
    }
    deleted += deleteUnretainedIndex(from, until);
    SnapshotLog changelogs = SnapshotLog.changelogs(store, path);
    for (long id = from; id < until; id++) {
      if (decoupled) {
        changelogs.overwrite(snapshots.read(id));
        changelogs.writeLatestHint(id);
      }
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

  /**
   * Removes the data files that deltas of the snapshots (from, kept] deleted; with {@code
   * keepFlushed}, not those a flush wrote (or of unknown source), which long-lived changelogs read.
   */
  private int deleteReplacedDataFiles(
      long from, Snapshot kept, List<Snapshot> tagged, boolean keepFlushed) throws IOException {
    List<Snapshot> holders = new ArrayList<>(tagged);
    holders.add(kept);
    Set<FileDeletion.BucketFile> live = files.liveIn(holders);
    int deleted = 0;
    for (long id = from + 1; id <= kept.id(); id++) {
      Snapshot s = id == kept.id() ? kept : snapshots.read(id);
      deleted += files.deleteReplaced(s, live, keepFlushed);
    }
    return deleted;
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
      files.addManifests(s, manifestLists(s), false, retained);
    }
    return retained;
  }
}
