package io.changelake.table;

import io.changelake.format.IndexManifestEntry;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
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
 * Removes the files of a table that no snapshot references: what failed or lost commits and crashed
 * writers leave behind.
 *
 * <p>Only manifests, manifest lists, index manifests, index files and files in bucket folders are
 * candidates; schema, snapshot, changelog, hint, consumer and tag files never are. Referenced are
 * the files of every snapshot, of every tagged snapshot ({@link Tags}), expired or not, and of
 * every long-lived changelog ({@link SnapshotLog#changelogs}): its changelog files and, where its
 * manifest lists are still there, the files they name. A candidate is removed only when it is older
 * than the safety age, because a commit in progress has written files that its snapshot does not
 * name yet; the age must exceed the longest a writer may take from writing a file to committing it
 * (default one day).
 */
public final class OrphanFilesClean {

  private static final Logger LOG = LoggerFactory.getLogger(OrphanFilesClean.class);

  /** The default safety age. */
  public static final Duration DEFAULT_OLDER_THAN = Duration.ofDays(1);

  private final Table table;

  public OrphanFilesClean(Table table) {
    table.requireSupported("cleaned");
    this.table = table;
  }

  /**
   * Removes unreferenced files older than {@code olderThan}.
   *
   * @return the paths removed, relative to the store root
   */
  public List<String> clean(Duration olderThan) throws IOException {
    ObjectStore store = table.store();
    TablePath path = table.path();
    Set<String> referenced = referencedFiles();
    long cutoff = System.currentTimeMillis() - olderThan.toMillis();
    List<String> removed = new ArrayList<>();
    for (ObjectInfo object : store.list(path.root())) {
      String relative = object.path().substring(path.root().length());
      if (relative.startsWith("schema/")
          || relative.startsWith("snapshot/")
          || relative.startsWith("consumer/")
          || relative.startsWith("tag/")
          || referenced.contains(object.path())
          || object.lastModifiedMillis() >= cutoff) {
        continue;
      }
      if (!relative.startsWith("manifest/")
          && !relative.startsWith("index/")
          && !relative.contains("bucket-")) {
        continue;
      }
      store.delete(object.path());
      removed.add(object.path());
    }
    LOG.info("removed {} orphan files from {}", removed.size(), table.location());
    return removed;
  }

  /**
   * The files a tag of {@code tagged} holds: its base and delta lists, their manifests and data
   * files, and its index files, as paths relative to the store root.
   */
  Set<String> referencedBy(Snapshot tagged) throws IOException {
    Set<String> referenced = new HashSet<>();
    addTagged(tagged, referenced, new HashSet<>(), new HashMap<>());
    return referenced;
  }

  /** Adds what a tag of {@code s} holds: its data, not its changelog, which expires with it. */
  private void addTagged(
      Snapshot s,
      Set<String> referenced,
      Set<String> seenManifests,
      Map<SerializedRow, String> partitionPaths)
      throws IOException {
    addReferenced(
        s,
        List.of(s.baseManifestList(), s.deltaManifestList()),
        true,
        referenced,
        seenManifests,
        partitionPaths);
  }

  /** Every file some snapshot or tag still references, as paths relative to the store root. */
  Set<String> referencedFiles() throws IOException {
    SnapshotLog snapshots = table.snapshots();
    Set<String> referenced = new HashSet<>();
    List<Snapshot> holders = new ArrayList<>();
    List<Snapshot> tagged = table.tags().taggedSnapshots();
    OptionalLong earliest = snapshots.earliestId();
    OptionalLong latest = snapshots.latestId();
    if (earliest.isPresent() && latest.isPresent()) {
      for (long id = earliest.getAsLong(); id <= latest.getAsLong(); id++) {
        holders.add(snapshots.read(id));
      }
    }
    Map<SerializedRow, String> partitionPaths = new HashMap<>();
    Set<String> seenManifests = new HashSet<>();
    for (Snapshot s : holders) {
      List<String> lists = new ArrayList<>(List.of(s.baseManifestList(), s.deltaManifestList()));
      if (s.changelogManifestList() != null) {
        lists.add(s.changelogManifestList());
      }
      addReferenced(s, lists, true, referenced, seenManifests, partitionPaths);
    }
    SnapshotLog changelogs = SnapshotLog.changelogs(table.store(), table.path());
    for (long id : changelogs.listIds()) {
      Snapshot c = changelogs.read(id);
      List<String> lists = new ArrayList<>();
      for (String list :
          new String[] {c.baseManifestList(), c.deltaManifestList(), c.changelogManifestList()}) {
        // Snapshot expiry removes the base and delta lists a changelog no longer reads.
        if (list != null && table.store().exists(table.path().manifestFolder() + list)) {
          lists.add(list);
        }
      }
      addReferenced(c, lists, false, referenced, seenManifests, partitionPaths);
    }
    for (Snapshot s : tagged) {
      // A tag keeps its snapshot's data; its changelog expires with the snapshot, as in Paimon.
      addTagged(s, referenced, seenManifests, partitionPaths);
    }
    return referenced;
  }

  /**
   * Adds what a snapshot's lists name, and its index files; {@code withIndex} false where the index
   * manifest may be gone (a long-lived changelog's: snapshot expiry removes index manifests).
   */
  private void addReferenced(
      Snapshot s,
      List<String> lists,
      boolean withIndex,
      Set<String> referenced,
      Set<String> seenManifests,
      Map<SerializedRow, String> partitionPaths)
      throws IOException {
    TableScan scan = table.newScan();
    TablePath path = table.path();
    if (withIndex
        && s.indexManifest() != null
        && referenced.add(path.manifestFolder() + s.indexManifest())) {
      for (IndexManifestEntry e : scan.indexFiles(s)) {
        referenced.add(path.indexFolder() + e.file().fileName());
      }
    }
    for (String list : lists) {
      referenced.add(path.manifestFolder() + list);
      List<ManifestFileMeta> unseen = new ArrayList<>();
      for (ManifestFileMeta m : scan.manifestsOf(list, s)) {
        referenced.add(path.manifestFolder() + m.fileName());
        if (seenManifests.add(m.fileName())) {
          unseen.add(m);
        }
      }
      for (ManifestEntry e : scan.entries(unseen)) {
        String partitionPath = partitionPaths.computeIfAbsent(e.partition(), table::partitionPath);
        String folder = path.bucketFolder(partitionPath, e.bucket());
        referenced.add(folder + e.file().fileName());
        for (String extra : e.file().extraFiles()) {
          referenced.add(folder + extra);
        }
      }
    }
  }
}
