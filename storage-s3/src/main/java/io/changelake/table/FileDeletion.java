package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.FileSource;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.SerializedRow;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deletions snapshot and changelog expiry share (Paimon's FileDeletionBase): data files a delta
 * replaced, the files a manifest list adds, manifests and manifest lists nothing retained names. A
 * file or manifest already gone is no error: only an earlier, interrupted run removes those, and it
 * removed what they named first.
 */
final class FileDeletion {

  private static final Logger LOG = LoggerFactory.getLogger(FileDeletion.class);

  /** A data file, by where it lives. */
  record BucketFile(SerializedRow partition, int bucket, String fileName) {
    static BucketFile of(ManifestEntry e) {
      return new BucketFile(e.partition(), e.bucket(), e.file().fileName());
    }
  }

  private final Table table;
  private final TableScan scan;
  private final ObjectStore store;
  private final TablePath path;

  FileDeletion(Table table, TableScan scan) {
    this.table = table;
    this.scan = scan;
    this.store = table.store();
    this.path = table.path();
  }

  /** The data files live in any of the snapshots. */
  Set<BucketFile> liveIn(List<Snapshot> holders) throws IOException {
    Set<BucketFile> live = new HashSet<>();
    for (Snapshot holder : holders) {
      for (ManifestEntry e : scan.liveFiles(holder)) {
        live.add(BucketFile.of(e));
      }
    }
    return live;
  }

  /**
   * Removes the data files the delta of {@code s} deleted, except those in {@code live} and, with
   * {@code keepFlushed}, those a flush wrote (or of unknown source).
   */
  int deleteReplaced(Snapshot s, Set<BucketFile> live, boolean keepFlushed) throws IOException {
    List<ManifestEntry> delta = entriesOrNothing(s.deltaManifestList(), s);
    // A file deleted and added in one delta moved to another level: it stays.
    Set<BucketFile> added = new HashSet<>();
    for (ManifestEntry e : delta) {
      if (e.kind() == FileKind.ADD) {
        added.add(BucketFile.of(e));
      }
    }
    int deleted = 0;
    for (ManifestEntry e : delta) {
      BucketFile file = BucketFile.of(e);
      boolean flushed = e.file().fileSource() != FileSource.COMPACT;
      if (e.kind() == FileKind.DELETE
          && !added.contains(file)
          && !live.contains(file)
          && !(keepFlushed && flushed)) {
        deleted += deleteFile(e);
      }
    }
    return deleted;
  }

  /** Removes the files a manifest list adds (a changelog list's changelog files). */
  int deleteAdded(String list, Snapshot s) throws IOException {
    int deleted = 0;
    for (ManifestEntry e : entriesOrNothing(list, s)) {
      if (e.kind() == FileKind.ADD) {
        deleted += deleteFile(e);
      }
    }
    return deleted;
  }

  /** Removes a data or changelog file with its extra files. */
  int deleteFile(ManifestEntry e) throws IOException {
    String folder = path.bucketFolder(table.partitionPath(e.partition()), e.bucket());
    store.delete(folder + e.file().fileName());
    for (String extra : e.file().extraFiles()) {
      store.delete(folder + extra);
    }
    return 1 + e.file().extraFiles().size();
  }

  /** The entries a manifest list names, or nothing when the list or a manifest is gone. */
  List<ManifestEntry> entriesOrNothing(String list, Snapshot s) throws IOException {
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

  /** The manifests a list names, or nothing when the list is gone. */
  List<ManifestFileMeta> manifestsOrNothing(String list, Snapshot s) throws IOException {
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

  /** Whether a manifest list is there: a long-lived changelog names lists expiry removed. */
  boolean listExists(String list) throws IOException {
    return store.exists(path.manifestFolder() + list);
  }

  /**
   * Adds the lists and the manifests they name to {@code names}; with {@code ifPresent}, a list
   * that is gone adds nothing (a long-lived changelog's), else it is an error.
   */
  void addManifests(Snapshot s, List<String> lists, boolean ifPresent, Set<String> names)
      throws IOException {
    for (String list : lists) {
      if (ifPresent && !listExists(list)) {
        continue;
      }
      names.add(list);
      for (ManifestFileMeta m : scan.manifestsOf(list, s)) {
        names.add(m.fileName());
      }
    }
  }

  /**
   * Removes a list's manifests, then the list, where no retained snapshot names them; {@code
   * removed} collects what is gone, as expired snapshots share manifests.
   */
  int deleteUnretained(String list, Snapshot s, Set<String> retained, Set<String> removed)
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
