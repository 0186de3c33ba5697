package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a table back to an earlier snapshot or a tag, as Paimon's {@code rollback_to} does: the
 * snapshots after it, and the tags on them, are removed with the files only they used; the next
 * commit takes the id after it.
 *
 * <p>Order, so that an interruption leaves a readable table: every snapshot after the target is
 * read first, then their snapshot files are deleted newest first (the table is always snapshots
 * {@code earliest..k}), then the LATEST hint is written, then the tags after the target and the
 * files only the removed snapshots used. Files an interrupted run leaves are unreferenced: {@code
 * clean-orphans} removes them.
 *
 * <p>A rollback to a tag whose snapshot has expired restores the tag as that snapshot and removes
 * every snapshot after it; the table then begins at the tag. The long-lived changelogs after the
 * target ({@link SnapshotLog#changelogs}, decoupled changelog lifecycle) are removed too, as
 * Paimon's RollbackHelper does, so no reader follows an id the next commits reuse; the files only
 * they named are left to {@code clean-orphans}, as in Paimon.
 *
 * <p>Readers: a consumer ({@link Consumers}) that has read past the target would continue with
 * snapshots that reuse the removed ids but hold other changes, so its downstream state would be
 * wrong. A rollback with such a consumer is refused, naming it, unless {@code dropConsumersAhead}
 * is given: then those consumers are deleted, and their readers must restart from a full read.
 * Writers must be stopped during a rollback: a commit in flight would land on the removed
 * snapshots' files.
 */
public final class Rollback {

  private static final Logger LOG = LoggerFactory.getLogger(Rollback.class);

  /**
   * What a rollback did.
   *
   * @param snapshotId the snapshot the table is back at: its latest now
   * @param removedSnapshots the snapshots removed
   * @param removedTags the tags removed (they named removed snapshots)
   * @param droppedConsumers the consumers deleted because they had read past the target
   * @param deletedFiles data, changelog and manifest files removed
   */
  public record RolledBack(
      long snapshotId,
      List<Long> removedSnapshots,
      List<String> removedTags,
      List<String> droppedConsumers,
      int deletedFiles) {}

  private final Table table;
  private final ObjectStore store;
  private final TablePath path;
  private final SnapshotLog snapshots;
  private final TableScan scan;

  Rollback(Table table) {
    table.requireSupported("rolled back");
    this.table = table;
    this.store = table.store();
    this.path = table.path();
    this.snapshots = table.snapshots();
    this.scan = table.newScan();
  }

  /**
   * Rolls the table back to snapshot {@code snapshotId}.
   *
   * @param dropConsumersAhead delete the consumers that have read past the snapshot instead of
   *     refusing
   * @throws SnapshotNotFoundException if the snapshot does not exist
   * @throws IllegalStateException naming the consumers that have read past it, unless dropped
   */
  public RolledBack toSnapshot(long snapshotId, boolean dropConsumersAhead) throws IOException {
    if (!snapshots.exists(snapshotId)) {
      throw new SnapshotNotFoundException(
          snapshotId,
          "cannot roll "
              + table.location()
              + " back to snapshot "
              + snapshotId
              + ": it does not exist (expired or never made); roll back to a tag instead");
    }
    return rollBack(snapshots.read(snapshotId), false, dropConsumersAhead);
  }

  /**
   * Rolls the table back to the snapshot tagged {@code tagName}; if that snapshot expired, the tag
   * becomes the table's only snapshot.
   *
   * @throws IllegalArgumentException if there is no such tag
   * @throws IllegalStateException naming the consumers that have read past it, unless dropped
   */
  public RolledBack toTag(String tagName, boolean dropConsumersAhead) throws IOException {
    Snapshot tagged = table.tags().read(tagName);
    if (snapshots.exists(tagged.id())) {
      return rollBack(snapshots.read(tagged.id()), false, dropConsumersAhead);
    }
    // Expiry removed the snapshot's changelog with it: the restored snapshot names none.
    Snapshot restored =
        new Snapshot(
            tagged.id(),
            tagged.schemaId(),
            tagged.baseManifestList(),
            tagged.baseManifestListSize(),
            tagged.deltaManifestList(),
            tagged.deltaManifestListSize(),
            null,
            null,
            tagged.indexManifest(),
            tagged.commitUser(),
            tagged.commitIdentifier(),
            tagged.commitKind(),
            tagged.timeMillis(),
            tagged.totalRecordCount(),
            tagged.deltaRecordCount(),
            0,
            tagged.watermark());
    return rollBack(restored, true, dropConsumersAhead);
  }

  private RolledBack rollBack(Snapshot target, boolean restore, boolean dropConsumersAhead)
      throws IOException {
    long targetId = target.id();
    List<String> ahead = new ArrayList<>();
    for (Map.Entry<String, Long> c : table.consumers().list().entrySet()) {
      if (c.getValue() > targetId + 1) {
        ahead.add(c.getKey());
      }
    }
    if (!ahead.isEmpty() && !dropConsumersAhead) {
      throw new IllegalStateException(
          "cannot roll "
              + table.location()
              + " back to snapshot "
              + targetId
              + ": consumers "
              + ahead
              + " have read past it, and would go on with changes that do not follow"
              + " what they read; stop those readers, then roll back with the consumers dropped"
              + " (--drop-consumers-ahead) and restart them from a full read");
    }
    OptionalLong latest = snapshots.latestId();
    OptionalLong earliest = snapshots.earliestId();
    List<Snapshot> removed = new ArrayList<>();
    if (latest.isPresent()) {
      long from = restore ? earliest.getAsLong() : targetId + 1;
      for (long id = from; id <= latest.getAsLong(); id++) {
        removed.add(snapshots.read(id));
      }
    }
    List<String> removedTags = new ArrayList<>();
    List<Snapshot> keptTags = new ArrayList<>();
    for (Map.Entry<String, Snapshot> tag : table.tags().list().entrySet()) {
      if (tag.getValue().id() > targetId) {
        removedTags.add(tag.getKey());
      } else {
        keptTags.add(tag.getValue());
      }
    }
    for (int i = removed.size() - 1; i >= 0; i--) {
      snapshots.delete(removed.get(i).id());
    }
    if (restore) {
      store.write(snapshots.path(targetId), target.toJson());
      snapshots.writeEarliestHint(targetId);
    }
    snapshots.writeLatestHint(targetId);
    removeChangelogsAfter(targetId);
    for (String tag : removedTags) {
      store.delete(table.tags().path(tag));
    }
    for (String consumer : ahead) {
      table.consumers().delete(consumer);
    }
    int deleted = deleteUnused(removed, target, keptTags);
    List<Long> removedIds = new ArrayList<>();
    for (Snapshot s : removed) {
      if (s.id() != targetId) {
        removedIds.add(s.id());
      }
    }
    LOG.info(
        "rolled {} back to snapshot {}: removed snapshots {}, tags {}, consumers {}, {} files",
        table.location(),
        targetId,
        removedIds,
        removedTags,
        ahead,
        deleted);
    return new RolledBack(targetId, removedIds, removedTags, ahead, deleted);
  }

  /** Removes the long-lived changelogs after the target, newest first. */
  private void removeChangelogsAfter(long targetId) throws IOException {
    SnapshotLog changelogs = SnapshotLog.changelogs(store, path);
    OptionalLong earliest = changelogs.earliestId();
    OptionalLong latest = changelogs.latestId();
    if (earliest.isEmpty() || latest.isEmpty()) {
      return;
    }
    long from = Math.max(earliest.getAsLong(), targetId + 1);
    if (from > latest.getAsLong()) {
      return;
    }
    // Paimon writes -1 when no changelog is left: the hint then names none.
    changelogs.writeLatestHint(from == earliest.getAsLong() ? -1 : from - 1);
    for (long id = latest.getAsLong(); id >= from; id--) {
      changelogs.delete(id);
    }
  }

  private record BucketFile(SerializedRow partition, int bucket, String fileName) {}

  /** Removes what the removed snapshots used and neither the target nor a kept tag does. */
  private int deleteUnused(List<Snapshot> removed, Snapshot target, List<Snapshot> keptTags)
      throws IOException {
    List<Snapshot> kept = new ArrayList<>(keptTags);
    kept.add(target);
    Set<BucketFile> keptFiles = new HashSet<>();
    Set<String> keptManifests = new HashSet<>();
    for (int i = 0; i < kept.size(); i++) {
      Snapshot s = kept.get(i);
      for (ManifestEntry e : scan.liveFiles(s)) {
        keptFiles.add(new BucketFile(e.partition(), e.bucket(), e.file().fileName()));
      }
      List<String> lists = new ArrayList<>(List.of(s.baseManifestList(), s.deltaManifestList()));
      // A tag's changelog list went when its snapshot expired: only the target's (last) counts.
      boolean isTarget = i == kept.size() - 1;
      if (isTarget && s.changelogManifestList() != null) {
        lists.add(s.changelogManifestList());
      }
      for (String list : lists) {
        keptManifests.add(list);
        for (ManifestFileMeta m : scan.manifestsOf(list, s)) {
          keptManifests.add(m.fileName());
        }
      }
    }
    Set<BucketFile> deletedFiles = new HashSet<>();
    Set<String> deletedManifests = new HashSet<>();
    int deleted = 0;
    for (Snapshot s : removed) {
      if (s.id() == target.id()) {
        continue;
      }
      List<String> lists = new ArrayList<>(List.of(s.baseManifestList(), s.deltaManifestList()));
      if (s.changelogManifestList() != null) {
        lists.add(s.changelogManifestList());
      }
      for (String list : lists) {
        List<ManifestFileMeta> manifests = scan.manifestsOf(list, s);
        for (ManifestEntry e : scan.entries(manifests)) {
          BucketFile file = new BucketFile(e.partition(), e.bucket(), e.file().fileName());
          if (e.kind() == FileKind.ADD && !keptFiles.contains(file) && deletedFiles.add(file)) {
            String folder = path.bucketFolder(table.partitionPath(e.partition()), e.bucket());
            store.delete(folder + e.file().fileName());
            for (String extra : e.file().extraFiles()) {
              store.delete(folder + extra);
            }
            deleted += 1 + e.file().extraFiles().size();
          }
        }
        for (ManifestFileMeta m : manifests) {
          if (!keptManifests.contains(m.fileName()) && deletedManifests.add(m.fileName())) {
            store.delete(path.manifestFolder() + m.fileName());
            deleted++;
          }
        }
        if (!keptManifests.contains(list) && deletedManifests.add(list)) {
          store.delete(path.manifestFolder() + list);
          deleted++;
        }
      }
    }
    return deleted;
  }
}
