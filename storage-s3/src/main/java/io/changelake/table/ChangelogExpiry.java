package io.changelake.table;

import io.changelake.schema.RetentionOptions;
import io.changelake.schema.TableOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes long-lived changelogs ({@link SnapshotLog#changelogs}) and the files only they use, under
 * the changelog retention options, as Paimon 1.3.1's {@code ExpireChangelogImpl}. {@link
 * SnapshotExpiry} runs it after each of its runs when the changelog lifecycle is decoupled ({@link
 * TableOptions#changelogDecoupled()}).
 *
 * <table>
 *   <caption>Options (each defaults to its snapshot.* twin)</caption>
 *   <tr><th>option</th><th>effect</th></tr>
 *   <tr><td>changelog.num-retained.min</td><td>changelogs always kept, counted back from the
 *       latest snapshot: with 10 snapshots and 30 changelogs retained, the changelogs of the 20
 *       snapshots before the earliest stay</td></tr>
 *   <tr><td>changelog.num-retained.max</td><td>beyond this many (counted the same way), the oldest
 *       go whatever their age</td></tr>
 *   <tr><td>changelog.time-retained</td><td>between min and max, changelogs older than this
 *       go</td></tr>
 *   <tr><td>snapshot.expire.limit</td><td>changelogs one run removes at most</td></tr>
 * </table>
 *
 * <p>Never removed: the latest long-lived changelog (the one before the earliest snapshot), and any
 * at or after the smallest {@code nextSnapshot} of the table's {@link Consumers}.
 *
 * <p>Expiring the changelogs {@code [from, until)} removes, for each, oldest first: its changelog
 * files; the data files its delta replaced, if its delta list is still there (changelog-producer
 * none, whose snapshot expiry kept them), unless a tag on an earlier snapshot holds them; its
 * manifest lists and their manifests that neither changelog {@code until}, the earliest snapshot
 * nor a tag names; the changelog file. Then the changelog EARLIEST hint moves to {@code until}.
 * Safe to interrupt, as snapshot expiry is: a changelog file goes last.
 */
final class ChangelogExpiry {

  private static final Logger LOG = LoggerFactory.getLogger(ChangelogExpiry.class);

  private final Table table;
  private final SnapshotLog snapshots;
  private final SnapshotLog changelogs;
  private final FileDeletion files;

  ChangelogExpiry(Table table) {
    this.table = table;
    this.snapshots = table.snapshots();
    this.changelogs = SnapshotLog.changelogs(table.store(), table.path());
    this.files = new FileDeletion(table, table.newScan());
  }

  /**
   * Expires what the changelog retention options allow at the time {@code nowMillis}.
   *
   * @return the number of long-lived changelogs removed
   * @throws IllegalArgumentException if changelog.num-retained.max is below
   *     changelog.num-retained.min
   */
  long expire(long nowMillis) throws IOException {
    TableOptions options = table.options();
    int retainMin = options.get(RetentionOptions.CHANGELOG_NUM_RETAINED_MIN);
    int retainMax = options.get(RetentionOptions.CHANGELOG_NUM_RETAINED_MAX);
    if (retainMax < retainMin) {
      throw new IllegalArgumentException(
          "changelog.num-retained.max ("
              + retainMax
              + ") of "
              + table.location()
              + " is below changelog.num-retained.min ("
              + retainMin
              + "): raise the max or lower the min");
    }
    OptionalLong latestSnapshot = snapshots.latestId();
    OptionalLong latestChangelog = changelogs.latestId();
    OptionalLong earliestChangelog = changelogs.earliestId();
    if (latestSnapshot.isEmpty() || latestChangelog.isEmpty() || earliestChangelog.isEmpty()) {
      return 0;
    }
    long earliest = earliestChangelog.getAsLong();
    long firstByAge = Math.max(latestSnapshot.getAsLong() - retainMax + 1, earliest);
    long until = latestSnapshot.getAsLong() - retainMin + 1;
    OptionalLong slowestConsumer = table.consumers().minNextSnapshot();
    if (slowestConsumer.isPresent()) {
      until = Math.min(until, slowestConsumer.getAsLong());
    }
    until = Math.min(until, earliest + options.snapshotExpireLimit());
    until = Math.min(until, latestChangelog.getAsLong());
    long olderThan = nowMillis - options.get(RetentionOptions.CHANGELOG_TIME_RETAINED).toMillis();
    for (long id = firstByAge; id < until; id++) {
      if (changelogs.read(id).timeMillis() >= olderThan) {
        until = id;
        break;
      }
    }
    return expireUntil(earliest, until);
  }

  private long expireUntil(long from, long until) throws IOException {
    if (until <= from) {
      return 0;
    }
    List<Snapshot> tagged = new ArrayList<>();
    for (Snapshot s : table.tags().taggedSnapshots()) {
      if (s.id() < until) {
        tagged.add(s);
      }
    }
    Set<String> retained = new HashSet<>();
    List<Snapshot> holders = new ArrayList<>(tagged);
    holders.add(changelogs.read(until));
    OptionalLong earliestSnapshot = snapshots.earliestId();
    if (earliestSnapshot.isPresent()) {
      holders.add(snapshots.read(earliestSnapshot.getAsLong()));
    }
    for (Snapshot holder : holders) {
      files.addManifests(
          holder, List.of(holder.baseManifestList(), holder.deltaManifestList()), true, retained);
    }
    Map<Long, Set<FileDeletion.BucketFile>> liveInTag = new HashMap<>();
    Set<String> removed = new HashSet<>();
    int deleted = 0;
    for (long id = from; id < until; id++) {
      if (!changelogs.exists(id)) {
        continue;
      }
      Snapshot changelog = changelogs.read(id);
      if (changelog.changelogManifestList() != null) {
        deleted += files.deleteAdded(changelog.changelogManifestList(), changelog);
      }
      if (files.listExists(changelog.deltaManifestList())) {
        // A file a delta replaced can be live only in a tag on an earlier snapshot: the latest one.
        Snapshot tag = latestBefore(tagged, id);
        Set<FileDeletion.BucketFile> live = tag == null ? Set.of() : liveInTag.get(tag.id());
        if (live == null) {
          live = files.liveIn(List.of(tag));
          liveInTag.put(tag.id(), live);
        }
        deleted += files.deleteReplaced(changelog, live, false);
      }
      List<String> lists = new ArrayList<>();
      if (changelog.changelogManifestList() != null) {
        lists.add(changelog.changelogManifestList());
      }
      lists.add(changelog.deltaManifestList());
      lists.add(changelog.baseManifestList());
      for (String list : lists) {
        if (files.listExists(list)) {
          deleted += files.deleteUnretained(list, changelog, retained, removed);
        }
      }
      changelogs.delete(id);
      deleted++;
    }
    changelogs.writeEarliestHint(until);
    LOG.info(
        "expired changelogs {} to {} of {}, {} files removed",
        from,
        until - 1,
        table.location(),
        deleted);
    return until - from;
  }

  private static Snapshot latestBefore(List<Snapshot> tagged, long id) {
    Snapshot latest = null;
    for (Snapshot s : tagged) {
      if (s.id() < id) {
        latest = s;
      }
    }
    return latest;
  }
}
