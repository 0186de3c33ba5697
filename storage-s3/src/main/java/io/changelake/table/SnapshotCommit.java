package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.ManifestEntry;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.store.Backoff;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optimistic, lock-free commit of a table: turns commit messages into snapshots.
 *
 * <p>One attempt reads the latest snapshot, checks the commit against it ({@link CommitConflicts}),
 * writes the manifests and manifest lists ({@link CommitManifests}: immutable, uniquely named),
 * then publishes {@code snapshot-<latest+1>} with the store's create-if-absent. When another
 * committer took that id first, the attempt's files are deleted and the loop starts again from the
 * new latest snapshot, after a randomised exponential {@link Backoff} between {@code
 * commit.min-retry-wait} and {@code commit.max-retry-wait} (Paimon's 10 ms and 10 s), at most
 * {@code commit.max-retries} times.
 *
 * <p>Two failures are {@link CommitConflictException}s: a conflict with the latest snapshot (a file
 * the commit replaces is gone, keys overlap at a level, a partition's bucket count differs), which
 * no retry fixes; and {@code commit.max-retries} exhausted by contention, which a later retry of
 * the same commit can fix ({@link CommitConflictException#retryable()}).
 *
 * <p>Idempotence: every snapshot records {@code commitUser} and {@code commitIdentifier}. Before
 * each attempt the commit looks back through the snapshots for its own (user, identifier, kind);
 * when it finds it, the commit already landed and is not repeated. A committer that crashed between
 * publishing a snapshot and hearing about it can therefore retry safely.
 *
 * <p>A commit with both flushed and compacted files produces two snapshots, APPEND then COMPACT,
 * with the same identifier, as Paimon does.
 *
 * <p>After a commit that created a snapshot, old snapshots are expired under the table's retention
 * options ({@link SnapshotExpiry}), then expired partitions dropped ({@link PartitionExpiry}), then
 * automatic tags made ({@link AutoTags}); the first two not on {@code write-only} tables, as in
 * Paimon.
 */
public final class SnapshotCommit {

  private static final Logger LOG = LoggerFactory.getLogger(SnapshotCommit.class);

  private final ObjectStore store;
  private final TablePath path;
  private final TableSchema schema;
  private final String commitUser;
  private final SnapshotLog snapshots;
  private final LiveFiles live;
  private final CommitConflicts conflicts;
  private final CommitManifests manifests;
  private final Backoff backoff;

  private long lostRaces;

  private long failedExpiries;

  private long failedAutoTags;

  private long failedPartitionExpiries;

  /** Made at the first commit; null before, or when the table's partitions do not expire. */
  private PartitionExpiry partitionExpiry;

  private boolean partitionExpiryResolved;

  /** Created at the first commit of a table with automatic tags; null before, or without them. */
  private AutoTags autoTags;

  /**
   * A committer of the table at {@code path} with schema {@code schema}.
   *
   * @throws UnsupportedTableException if the table's options ask for what changelake does not
   *     implement
   * @throws IllegalArgumentException if {@code commit.min-retry-wait} or {@code
   *     commit.max-retry-wait} is not a duration, or the minimum is not positive or exceeds the
   *     maximum
   */
  public SnapshotCommit(ObjectStore store, TablePath path, TableSchema schema, String commitUser) {
    schema.options().checkSupported(store.root() + path.root(), "written");
    this.store = store;
    this.path = path;
    this.schema = schema;
    this.commitUser = commitUser;
    this.snapshots = new SnapshotLog(store, path);
    TableScan scan = new TableScan(store, path);
    this.live = new LiveFiles(snapshots, scan);
    this.conflicts = new CommitConflicts(schema, commitUser);
    this.manifests = new CommitManifests(store, path, schema, scan);
    this.backoff = retryBackoff(schema.options());
  }

  private static Backoff retryBackoff(TableOptions options) {
    try {
      return new Backoff(options.commitMinRetryWait(), options.commitMaxRetryWait());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "options 'commit.min-retry-wait' and 'commit.max-retry-wait': "
              + e.getMessage()
              + "; give durations such as '10 ms' and '10 s', the minimum positive and not above"
              + " the maximum",
          e);
    }
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
   * committer that lost its own record (a new job under the same user) continues, so that its next
   * identifier is above every one it used before. Reads back through the snapshots.
   */
  public OptionalLong lastCommittedIdentifier() throws IOException {
    Optional<Snapshot> latest = snapshots.latest();
    if (latest.isEmpty()) {
      return OptionalLong.empty();
    }
    Optional<Snapshot> own =
        snapshots.newestWhere(latest.get(), s -> s.commitUser().equals(commitUser));
    return own.isPresent() ? OptionalLong.of(own.get().commitIdentifier()) : OptionalLong.empty();
  }

  /**
   * Commits the messages under the given identifier.
   *
   * @param identifier the committer's increasing number for this commit
   * @return the snapshots created, or found already created by an earlier try of the same commit:
   *     an APPEND snapshot if any message has flushed files, then a COMPACT snapshot if any has
   *     compacted files; none if every message is empty
   * @throws CommitConflictException if the commit conflicts with the table as it is now ({@link
   *     CommitConflictException#retryable()} false), or lost the race for a snapshot id more often
   *     than {@code commit.max-retries} allows (true)
   */
  public synchronized List<Snapshot> commit(long identifier, List<CommitMessage> messages)
      throws IOException {
    List<ManifestEntry> appendFiles = new ArrayList<>();
    List<ManifestEntry> appendChangelog = new ArrayList<>();
    List<ManifestEntry> compactFiles = new ArrayList<>();
    List<ManifestEntry> compactChangelog = new ArrayList<>();
    List<IndexManifestEntry> indexChanges = new ArrayList<>();
    for (CommitMessage m : messages) {
      for (IndexFileMeta f : m.newIndexFiles()) {
        indexChanges.add(new IndexManifestEntry(FileKind.ADD, m.partition(), m.bucket(), f));
      }
      addEntries(appendFiles, FileKind.ADD, m, m.newFiles());
      addEntries(appendChangelog, FileKind.ADD, m, m.changelogFiles());
      addEntries(compactFiles, FileKind.DELETE, m, m.compactBefore());
      addEntries(compactFiles, FileKind.ADD, m, m.compactAfter());
      addEntries(compactChangelog, FileKind.ADD, m, m.compactChangelog());
    }
    List<Snapshot> created = new ArrayList<>(2);
    if (!appendFiles.isEmpty() || !appendChangelog.isEmpty() || !indexChanges.isEmpty()) {
      created.add(
          commitOne(identifier, CommitKind.APPEND, appendFiles, appendChangelog, indexChanges));
    }
    if (!compactFiles.isEmpty() || !compactChangelog.isEmpty()) {
      created.add(
          commitOne(identifier, CommitKind.COMPACT, compactFiles, compactChangelog, List.of()));
    }
    if (!created.isEmpty() && !schema.options().writeOnly()) {
      expire();
      expirePartitions(identifier);
      tagAutomatically();
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
          store.root(),
          path.root(),
          failedExpiries,
          e);
    }
  }

  /**
   * Partition expiration after a commit ({@link PartitionExpiry}), as Paimon runs it after snapshot
   * expiry: when a look is due, the expired partitions are dropped in an OVERWRITE snapshot under
   * the same identifier. A failure never fails the commit: it is logged and counted, and the next
   * commit looks again. A write-only table's dedicated compaction runs it.
   */
  synchronized void expirePartitions(long identifier) {
    try {
      // Paimon compares partition times in the machine's local time.
      LocalDateTime now = LocalDateTime.now(ZoneId.systemDefault());
      if (!partitionExpiryResolved) {
        partitionExpiry = PartitionExpiry.of(new Table(store, path, schema), now);
        partitionExpiryResolved = true;
      }
      if (partitionExpiry != null) {
        partitionExpiry.expireIfDue(now, this, identifier);
      }
    } catch (IOException | RuntimeException e) {
      failedPartitionExpiries++;
      LOG.warn(
          "partition expiration after a commit to {}{} failed ({} so far); the next commit retries"
              + " it",
          store.root(),
          path.root(),
          failedPartitionExpiries,
          e);
    }
  }

  /**
   * How many partition expirations after this committer's commits failed (each retried by the
   * next).
   */
  public synchronized long failedPartitionExpiries() {
    return failedPartitionExpiries;
  }

  /**
   * Commits an OVERWRITE snapshot that deletes {@code files} and {@code indexFiles} (partition
   * expiration), or finds the one an earlier try made.
   */
  synchronized Snapshot overwrite(
      long identifier, List<ManifestEntry> files, List<IndexManifestEntry> indexFiles)
      throws IOException {
    return commitOne(identifier, CommitKind.OVERWRITE, files, List.of(), indexFiles);
  }

  /**
   * Automatic tags after a commit ({@link AutoTags}, {@code tag.automatic-creation}), as Paimon
   * creates them after its expiry. Like expiry, a failure never fails the commit: it is logged and
   * counted, and the next commit tries again. A write-only table's dedicated compaction runs it.
   */
  void tagAutomatically() {
    try {
      if (autoTags == null) {
        autoTags = AutoTags.of(new Table(store, path, schema));
      }
      if (autoTags != null) {
        autoTags.run();
      }
    } catch (IOException | RuntimeException e) {
      failedAutoTags++;
      LOG.warn(
          "automatic tags after a commit to {}{} failed ({} so far); the next commit retries them",
          store.root(),
          path.root(),
          failedAutoTags,
          e);
    }
  }

  /**
   * How many automatic-tag runs after this committer's commits failed (each retried by the next).
   */
  public synchronized long failedAutoTags() {
    return failedAutoTags;
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
      long identifier,
      CommitKind kind,
      List<ManifestEntry> files,
      List<ManifestEntry> changelog,
      List<IndexManifestEntry> indexChanges)
      throws IOException {
    int maxRetries = schema.options().commitMaxRetries();
    for (int attempt = 0; ; attempt++) {
      Optional<Snapshot> latest = snapshots.latest();
      Optional<Snapshot> done = findCommitted(identifier, kind, latest);
      if (done.isPresent()) {
        LOG.info(
            "commit {} ({}) of {} already landed as snapshot {}; not repeated",
            identifier,
            kind,
            commitUser,
            done.get().id());
        return done.get();
      }
      Map<ManifestEntry.Identifier, ManifestEntry> base = live.at(latest);
      conflicts.check(base, files, latest);
      CommitManifests.Written written =
          manifests.write(files, changelog, indexChanges, latest, base);
      Snapshot snapshot = newSnapshot(identifier, kind, files, changelog, latest, written);
      if (snapshots.tryCreate(snapshot)) {
        publishHints(snapshot);
        return snapshot;
      }
      manifests.discard(written);
      lostRaces++;
      if (attempt >= maxRetries) {
        throw CommitConflictException.retriesExhausted(
            "commit "
                + identifier
                + " ("
                + kind
                + ") of "
                + commitUser
                + " to "
                + store.root()
                + path.root()
                + " lost the race for a snapshot id to other committers "
                + (attempt + 1)
                + " times, more than 'commit.max-retries' ("
                + maxRetries
                + ") allows; the commit itself does not conflict, so committing it again can land"
                + " it: raise 'commit.max-retries' or reduce the number of concurrent committers");
      }
      backoff.sleep(attempt, "commit " + identifier + " of " + commitUser);
    }
  }

  /**
   * The snapshot an earlier try of this commit (same user, identifier and kind) created, if any.
   *
   * <p>A user's snapshots carry increasing identifiers, so the walk back stops at the first of the
   * user's snapshots that is this commit or comes before it. It walks past the user's later
   * commits, and past this identifier's snapshot of the other kind (a commit makes APPEND, then
   * COMPACT).
   */
  private Optional<Snapshot> findCommitted(
      long identifier, CommitKind kind, Optional<Snapshot> latest) throws IOException {
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    Optional<Snapshot> thisOrEarlier =
        snapshots.newestWhere(
            latest.get(),
            s ->
                s.commitUser().equals(commitUser)
                    && (s.commitIdentifier() < identifier
                        || (s.commitIdentifier() == identifier && s.commitKind() == kind)));
    return thisOrEarlier.filter(s -> s.commitIdentifier() == identifier);
  }

  private Snapshot newSnapshot(
      long identifier,
      CommitKind kind,
      List<ManifestEntry> files,
      List<ManifestEntry> changelog,
      Optional<Snapshot> latest,
      CommitManifests.Written written)
      throws IOException {
    long deltaRows = 0;
    for (ManifestEntry e : files) {
      deltaRows += e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
    }
    long changelogRows = 0;
    for (ManifestEntry e : changelog) {
      changelogRows += e.file().rowCount();
    }
    // As Paimon's commit: the table's latest schema, which a writer that began under an older one
    // (an alter landed while it ran) lags behind, and which the snapshot's newest files may have.
    long schemaId = new SchemaLog(store, path).latestId().orElse(schema.id());
    return new Snapshot(
        latest.map(Snapshot::id).orElse(0L) + 1,
        schemaId,
        written.baseList(),
        written.baseListSize(),
        written.deltaList(),
        written.deltaListSize(),
        written.changelogList(),
        written.changelogListSize(),
        written.indexManifest(),
        commitUser,
        identifier,
        kind,
        System.currentTimeMillis(),
        latest.map(Snapshot::totalRecordCount).orElse(0L) + deltaRows,
        deltaRows,
        changelogRows,
        null);
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
}
