package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFile;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.ManifestList;
import io.changelake.format.SerializedRow;
import io.changelake.format.SimpleStats;
import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optimistic, lock-free commit of a table: turns commit messages into snapshots.
 *
 * <p>One attempt reads the latest snapshot, checks the commit against it, writes the manifests
 * and manifest lists (immutable, uniquely named), then publishes {@code snapshot-<latest+1>} with
 * the store's create-if-absent. When another committer took that id first, the attempt's files
 * are deleted and the loop starts again from the new latest snapshot, after a randomised backoff,
 * at most {@code commit.max-retries} times.
 *
 * <p>Checks against the latest snapshot (a failure is a {@link CommitConflictException}; retrying
 * cannot fix it):
 *
 * <ul>
 *   <li>every file the commit removes is still live (another compaction did not remove it);
 *   <li>a file the commit adds at level 1 or above does not overlap, in key range, a live file at
 *       that level of the same bucket (two writers on one bucket would do that);
 *   <li>the bucket count of a partition is the one its live files were written with.
 * </ul>
 *
 * <p>Idempotence: every snapshot records {@code commitUser} and {@code commitIdentifier}. Before
 * each attempt the commit looks back through the snapshots for its own (user, identifier, kind);
 * when it finds it, the commit already landed and is not repeated. A committer that crashed
 * between publishing a snapshot and hearing about it can therefore retry safely.
 *
 * <p>A commit with both flushed and compacted files produces two snapshots, APPEND then COMPACT,
 * with the same identifier, as Paimon does.
 *
 * <p>After a commit that created a snapshot, old snapshots are expired under the table's retention
 * options ({@link SnapshotExpiry}; not on {@code write-only} tables, as in Paimon).
 */
public final class SnapshotCommit {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotCommit.class);

  /** Past this many manifests, the base of the next snapshot is rewritten as one live set. */
  static final int MANIFEST_MERGE_MIN_COUNT = 30;

  /** Entries per manifest when the base is rewritten. */
  static final int ENTRIES_PER_MANIFEST = 50_000;

  private final ObjectStore store;
  private final TablePath path;
  private final TableSchema schema;
  private final String commitUser;
  private final SnapshotLog snapshots;
  private final TableScan scan;
  private final ManifestFile manifestFile;
  private final ManifestList manifestList;
  private final BinaryRowCodec partitionCodec;
  private final RowType partitionType;
  private final BinaryRowCodec keyCodec;
  private final RowComparator keyOrder;
  private final String fileIdPrefix = UUID.randomUUID().toString();
  private int fileCounter;

  /** Live files as of {@link #liveAt}, advanced by deltas instead of re-read for every commit. */
  private Map<ManifestEntry.Identifier, ManifestEntry> live;

  private long liveAt = -1;

  private long lostRaces;

  private long failedExpiries;

  /**
   * A committer of the table at {@code path} with schema {@code schema}.
   *
   * @throws UnsupportedTableException if the table's options ask for what changelake does not
   *     implement
   */
  public SnapshotCommit(ObjectStore store, TablePath path, TableSchema schema, String commitUser) {
    schema.options().checkSupported(store.root() + path.root(), "written");
    this.store = store;
    this.path = path;
    this.schema = schema;
    this.commitUser = commitUser;
    this.snapshots = new SnapshotLog(store, path);
    this.scan = new TableScan(store, path);
    this.manifestFile = new ManifestFile(store, path.manifestFolder());
    this.manifestList = new ManifestList(store, path.manifestFolder());
    this.partitionType = schema.partitionType();
    this.partitionCodec = new BinaryRowCodec(partitionType);
    this.keyCodec = new BinaryRowCodec(schema.keyType());
    this.keyOrder = new RowComparator(schema.keyType());
  }

  /** Who commits: recorded in every snapshot, and with the identifier what makes retries safe. */
  public String commitUser() {
    return commitUser;
  }

  /**
   * How many attempts of this committer lost the race for a snapshot id to another committer and
   * were retried (or gave up), since it was made: a measure of contention.
   */
  public synchronized long lostRaces() {
    return lostRaces;
  }

  /**
   * The identifier of this commit user's newest snapshot still in the table, if any: where a
   * committer that lost its own record (a new job under the same user) continues, so that its
   * next identifier is above every one it used before. Reads back through the snapshots.
   */
  public OptionalLong lastCommittedIdentifier() throws IOException {
    Optional<Snapshot> latest = snapshots.latest();
    if (latest.isEmpty()) {
      return OptionalLong.empty();
    }
    long earliest = snapshots.earliestId().orElse(1);
    for (long id = latest.get().id(); id >= earliest; id--) {
      Snapshot s = id == latest.get().id() ? latest.get() : snapshots.read(id);
      if (s.commitUser().equals(commitUser)) {
        return OptionalLong.of(s.commitIdentifier());
      }
    }
    return OptionalLong.empty();
  }

  /**
   * Commits the messages under the given identifier.
   *
   * @param identifier the committer's increasing number for this commit
   * @return the snapshots created, or found already created by an earlier try of the same commit:
   *     an APPEND snapshot if any message has flushed files, then a COMPACT snapshot if any has
   *     compacted files; none if every message is empty
   * @throws CommitConflictException if the commit conflicts with the table as it is now
   */
  public synchronized List<Snapshot> commit(long identifier, List<CommitMessage> messages)
      throws IOException {
    List<ManifestEntry> appendFiles = new ArrayList<>();
    List<ManifestEntry> appendChangelog = new ArrayList<>();
    List<ManifestEntry> compactFiles = new ArrayList<>();
    List<ManifestEntry> compactChangelog = new ArrayList<>();
    for (CommitMessage m : messages) {
      addEntries(appendFiles, FileKind.ADD, m, m.newFiles());
      addEntries(appendChangelog, FileKind.ADD, m, m.changelogFiles());
      addEntries(compactFiles, FileKind.DELETE, m, m.compactBefore());
      addEntries(compactFiles, FileKind.ADD, m, m.compactAfter());
      addEntries(compactChangelog, FileKind.ADD, m, m.compactChangelog());
    }
    List<Snapshot> created = new ArrayList<>(2);
    if (!appendFiles.isEmpty() || !appendChangelog.isEmpty()) {
      created.add(commitOne(identifier, CommitKind.APPEND, appendFiles, appendChangelog));
    }
    if (!compactFiles.isEmpty() || !compactChangelog.isEmpty()) {
      created.add(commitOne(identifier, CommitKind.COMPACT, compactFiles, compactChangelog));
    }
    if (!created.isEmpty() && !schema.options().writeOnly()) {
      expire();
    }
    return created;
  }

  /**
   * Snapshot expiry after a commit, as Paimon runs it ({@link SnapshotExpiry}). A failure never
   * fails the commit, which has landed: it is logged and counted, and the next commit tries again.
   */
  private void expire() {
    try {
      new SnapshotExpiry(new Table(store, path, schema)).expire();
    } catch (IOException | RuntimeException e) {
      failedExpiries++;
      LOG.warn(
          "snapshot expiry after a commit to {}{} failed ({} so far); the next commit retries it",
          store.root(), path.root(), failedExpiries, e);
    }
  }

  /** How many expiry runs after this committer's commits failed (each was retried by the next). */
  public synchronized long failedExpiries() {
    return failedExpiries;
  }

  private static void addEntries(
      List<ManifestEntry> out, FileKind kind, CommitMessage m, List<DataFileMeta> files) {
    for (DataFileMeta f : files) {
      out.add(new ManifestEntry(kind, m.partition(), m.bucket(), m.totalBuckets(), f));
    }
  }

  private Snapshot commitOne(
      long identifier, CommitKind kind, List<ManifestEntry> files, List<ManifestEntry> changelog)
      throws IOException {
    int maxRetries = schema.options().commitMaxRetries();
    for (int attempt = 0; ; attempt++) {
      Optional<Snapshot> latest = snapshots.latest();
      Optional<Snapshot> done = findCommitted(identifier, kind, latest);
      if (done.isPresent()) {
        LOG.info(
            "commit {} ({}) of {} already landed as snapshot {}; not repeated",
            identifier, kind, commitUser, done.get().id());
        return done.get();
      }
      Map<ManifestEntry.Identifier, ManifestEntry> base = liveFilesAt(latest);
      checkConflicts(base, files, latest);
      Attempt written = writeManifests(identifier, kind, files, changelog, latest, base);
      if (snapshots.tryCreate(written.snapshot)) {
        publishHints(written.snapshot);
        return written.snapshot;
      }
      written.discard();
      lostRaces++;
      if (attempt >= maxRetries) {
        throw new CommitConflictException(
            "commit " + identifier + " (" + kind + ") of " + commitUser + " to " + store.root()
                + path.root() + " lost the race for a snapshot id " + (attempt + 1)
                + " times; raise 'commit.max-retries' or reduce the number of concurrent writers");
      }
      backoff(attempt);
    }
  }

  private Optional<Snapshot> findCommitted(long identifier, CommitKind kind, Optional<Snapshot> latest)
      throws IOException {
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    long earliest = snapshots.earliestId().orElse(1);
    for (long id = latest.get().id(); id >= earliest; id--) {
      Snapshot s = id == latest.get().id() ? latest.get() : snapshots.read(id);
      if (!s.commitUser().equals(commitUser)) {
        continue;
      }
      if (s.commitIdentifier() == identifier && s.commitKind() == kind) {
        return Optional.of(s);
      }
      if (s.commitIdentifier() < identifier) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private Map<ManifestEntry.Identifier, ManifestEntry> liveFilesAt(Optional<Snapshot> latest)
      throws IOException {
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

  private void checkConflicts(
      Map<ManifestEntry.Identifier, ManifestEntry> base,
      List<ManifestEntry> files,
      Optional<Snapshot> latest)
      throws IOException {
    String at = latest.map(s -> "snapshot " + s.id()).orElse("the empty table");
    Map<ManifestEntry.Identifier, ManifestEntry> deleted = new HashMap<>();
    for (ManifestEntry e : files) {
      if (e.kind() == FileKind.DELETE) {
        if (!base.containsKey(e.identifier())) {
          throw new CommitConflictException(
              "commit of " + commitUser + " replaces " + e.file().fileName() + " (bucket "
                  + e.bucket() + ", level " + e.file().level() + "), which is no longer live in "
                  + at + ": another writer compacted the same bucket; restart this writer from the"
                  + " latest snapshot, and let only one pipeline write a bucket");
        }
        deleted.put(e.identifier(), e);
      }
    }
    Map<BucketLevel, List<ManifestEntry>> upperLevels = null;
    Map<SerializedRow, Integer> bucketsByPartition = new HashMap<>();
    for (ManifestEntry e : base.values()) {
      bucketsByPartition.putIfAbsent(e.partition(), e.totalBuckets());
    }
    for (ManifestEntry e : files) {
      if (e.kind() != FileKind.ADD) {
        continue;
      }
      Integer buckets = bucketsByPartition.get(e.partition());
      if (buckets != null && buckets != e.totalBuckets()) {
        throw new CommitConflictException(
            "commit of " + commitUser + " writes a partition with " + e.totalBuckets()
                + " buckets, but its live files in " + at + " have " + buckets
                + ": the bucket count of existing data cannot change");
      }
      if (e.file().level() == 0) {
        continue;
      }
      if (upperLevels == null) {
        upperLevels = indexUpperLevels(base, deleted);
      }
      for (ManifestEntry other :
          upperLevels.getOrDefault(
              new BucketLevel(e.partition(), e.bucket(), e.file().level()), List.of())) {
        if (overlaps(e.file(), other.file())) {
          throw new CommitConflictException(
              "commit of " + commitUser + " adds " + e.file().fileName() + " at level "
                  + e.file().level() + " of bucket " + e.bucket() + ", overlapping the keys of "
                  + other.file().fileName() + " live in " + at
                  + ": two writers are writing the same bucket; let only one pipeline write it");
        }
      }
    }
  }

  private record BucketLevel(SerializedRow partition, int bucket, int level) {}

  private static Map<BucketLevel, List<ManifestEntry>> indexUpperLevels(
      Map<ManifestEntry.Identifier, ManifestEntry> base,
      Map<ManifestEntry.Identifier, ManifestEntry> deleted) {
    Map<BucketLevel, List<ManifestEntry>> index = new HashMap<>();
    for (ManifestEntry e : base.values()) {
      if (e.file().level() > 0 && !deleted.containsKey(e.identifier())) {
        index
            .computeIfAbsent(
                new BucketLevel(e.partition(), e.bucket(), e.file().level()),
                k -> new ArrayList<>())
            .add(e);
      }
    }
    return index;
  }

  private boolean overlaps(DataFileMeta a, DataFileMeta b) {
    Object[] aMin = keyCodec.decode(a.minKey().bytes());
    Object[] aMax = keyCodec.decode(a.maxKey().bytes());
    Object[] bMin = keyCodec.decode(b.minKey().bytes());
    Object[] bMax = keyCodec.decode(b.maxKey().bytes());
    return keyOrder.compare(aMin, bMax) <= 0 && keyOrder.compare(bMin, aMax) <= 0;
  }

  /** The files one attempt wrote, so a lost race can remove them at once. */
  private final class Attempt {
    final Snapshot snapshot;
    final List<String> written;

    Attempt(Snapshot snapshot, List<String> written) {
      this.snapshot = snapshot;
      this.written = written;
    }

    void discard() {
      for (String file : written) {
        try {
          store.delete(path.manifestFolder() + file);
        } catch (IOException e) {
          LOG.warn("could not remove {} after a lost commit race; orphan cleaning will", file, e);
        }
      }
    }
  }

  private Attempt writeManifests(
      long identifier,
      CommitKind kind,
      List<ManifestEntry> files,
      List<ManifestEntry> changelog,
      Optional<Snapshot> latest,
      Map<ManifestEntry.Identifier, ManifestEntry> base)
      throws IOException {
    List<String> written = new ArrayList<>();
    List<ManifestFileMeta> baseManifests = new ArrayList<>();
    if (latest.isPresent()) {
      baseManifests.addAll(scan.manifestsOf(latest.get().baseManifestList(), latest.get()));
      baseManifests.addAll(scan.manifestsOf(latest.get().deltaManifestList(), latest.get()));
    }
    if (baseManifests.size() > MANIFEST_MERGE_MIN_COUNT) {
      baseManifests = writeLiveSet(base, written);
    }
    List<ManifestFileMeta> delta = writeManifest(files, written);
    String baseList = newFileName("manifest-list");
    long baseListSize = manifestList.write(baseList, baseManifests);
    written.add(baseList);
    String deltaList = newFileName("manifest-list");
    long deltaListSize = manifestList.write(deltaList, delta);
    written.add(deltaList);
    String changelogList = null;
    Long changelogListSize = null;
    long changelogRows = 0;
    if (!changelog.isEmpty()) {
      List<ManifestFileMeta> changelogManifests = writeManifest(changelog, written);
      changelogList = newFileName("manifest-list");
      changelogListSize = manifestList.write(changelogList, changelogManifests);
      written.add(changelogList);
      for (ManifestEntry e : changelog) {
        changelogRows += e.file().rowCount();
      }
    }
    long deltaRows = 0;
    for (ManifestEntry e : files) {
      deltaRows += e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
    }
    long previousTotal = latest.map(Snapshot::totalRecordCount).orElse(0L);
    Snapshot snapshot =
        new Snapshot(
            latest.map(Snapshot::id).orElse(0L) + 1,
            schema.id(),
            baseList,
            baseListSize,
            deltaList,
            deltaListSize,
            changelogList,
            changelogListSize,
            commitUser,
            identifier,
            kind,
            System.currentTimeMillis(),
            previousTotal + deltaRows,
            deltaRows,
            changelogRows,
            null);
    return new Attempt(snapshot, written);
  }

  private List<ManifestFileMeta> writeLiveSet(
      Map<ManifestEntry.Identifier, ManifestEntry> base, List<String> written) throws IOException {
    List<ManifestEntry> all = new ArrayList<>(base.values());
    List<ManifestFileMeta> metas = new ArrayList<>();
    for (int from = 0; from < all.size(); from += ENTRIES_PER_MANIFEST) {
      metas.addAll(
          writeManifest(all.subList(from, Math.min(all.size(), from + ENTRIES_PER_MANIFEST)), written));
    }
    return metas;
  }

  private List<ManifestFileMeta> writeManifest(List<ManifestEntry> entries, List<String> written)
      throws IOException {
    if (entries.isEmpty()) {
      return List.of();
    }
    String name = newFileName("manifest");
    ManifestFileMeta meta =
        manifestFile.write(name, entries, partitionStats(entries), schema.id());
    written.add(name);
    return List.of(meta);
  }

  private SimpleStats partitionStats(List<ManifestEntry> entries) {
    int fields = partitionType.size();
    if (fields == 0) {
      SerializedRow empty = new SerializedRow(partitionCodec.encode(new Object[0]));
      return new SimpleStats(empty, empty, List.of());
    }
    RowComparator order = new RowComparator(partitionType);
    Object[] min = new Object[fields];
    Object[] max = new Object[fields];
    long[] nulls = new long[fields];
    Map<SerializedRow, Object[]> decoded = new HashMap<>();
    for (ManifestEntry e : entries) {
      Object[] values = decoded.computeIfAbsent(e.partition(), p -> partitionCodec.decode(p.bytes()));
      for (int i = 0; i < fields; i++) {
        Object v = values[i];
        if (v == null) {
          nulls[i]++;
          continue;
        }
        if (min[i] == null || order.compareField(i, v, min[i]) < 0) {
          min[i] = v;
        }
        if (max[i] == null || order.compareField(i, v, max[i]) > 0) {
          max[i] = v;
        }
      }
    }
    List<Long> nullCounts = new ArrayList<>(fields);
    Arrays.stream(nulls).forEach(nullCounts::add);
    return new SimpleStats(
        new SerializedRow(partitionCodec.encode(min)),
        new SerializedRow(partitionCodec.encode(max)),
        nullCounts);
  }

  private String newFileName(String prefix) {
    return prefix + "-" + fileIdPrefix + "-" + (fileCounter++);
  }

  private void publishHints(Snapshot snapshot) {
    try {
      snapshots.writeLatestHint(snapshot.id());
      if (snapshot.id() == 1) {
        snapshots.writeEarliestHint(1);
      }
    } catch (IOException e) {
      // Hints may lag: readers probe past them. The snapshot itself has landed.
      LOG.warn("snapshot {} landed but its hint could not be written", snapshot.id(), e);
    }
  }

  private static void backoff(int attempt) throws InterruptedIOException {
    long ceiling = Math.min(1_000L, 10L << Math.min(attempt, 6));
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, ceiling + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while backing off a commit retry");
    }
  }
}
