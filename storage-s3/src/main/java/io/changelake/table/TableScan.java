package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.IndexManifestFile;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFile;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.ManifestList;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads which files a snapshot holds: its live data files (base and delta manifests applied in
 * order), the files it changed, and its changelog files.
 *
 * <p>Manifests are immutable, so their entries are cached (a bounded number of them) across calls.
 */
public final class TableScan {

  private static final int CACHED_MANIFESTS = 256;

  private final IndexManifestFile indexManifests;
  private final ManifestFile manifests;
  private final ManifestList lists;
  private final String root;
  private final Map<String, List<ManifestEntry>> cache =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, List<ManifestEntry>> eldest) {
          return size() > CACHED_MANIFESTS;
        }
      };

  public TableScan(ObjectStore store, TablePath path) {
    this.indexManifests = new IndexManifestFile(store, path.manifestFolder());
    this.manifests = new ManifestFile(store, path.manifestFolder());
    this.lists = new ManifestList(store, path.manifestFolder());
    this.root = store.root() + path.root();
  }

  /** The data files live in a snapshot: ADD entries, one per file, in manifest order. */
  public List<ManifestEntry> liveFiles(Snapshot snapshot) throws IOException {
    Map<ManifestEntry.Identifier, ManifestEntry> live = new LinkedHashMap<>();
    apply(live, dataEntries(snapshot), snapshot);
    return new ArrayList<>(live.values());
  }

  /**
   * The entries of a snapshot's base and delta manifests as they are stored, ADD and DELETE, in
   * order: a file added and removed since the manifests were last merged appears in both.
   */
  public List<ManifestEntry> dataEntries(Snapshot snapshot) throws IOException {
    List<ManifestFileMeta> metas =
        new ArrayList<>(manifestsOf(snapshot.baseManifestList(), snapshot));
    metas.addAll(manifestsOf(snapshot.deltaManifestList(), snapshot));
    return entries(metas);
  }

  /**
   * The index files live in a snapshot, as its index manifest lists them (ADD entries only); empty
   * when it has none.
   */
  public List<IndexManifestEntry> indexFiles(Snapshot snapshot) throws IOException {
    if (snapshot.indexManifest() == null) {
      return List.of();
    }
    try {
      return indexManifests.read(snapshot.indexManifest());
    } catch (ObjectNotFoundException e) {
      throw missing(snapshot, "index manifest", snapshot.indexManifest(), e);
    }
  }

  /** The entries a snapshot's delta holds: the files it added and removed. */
  public List<ManifestEntry> deltaEntries(Snapshot snapshot) throws IOException {
    return entries(manifestsOf(snapshot.deltaManifestList(), snapshot));
  }

  /** The changelog files a snapshot produced (empty when it has none). */
  public List<ManifestEntry> changelogEntries(Snapshot snapshot) throws IOException {
    if (snapshot.changelogManifestList() == null) {
      return List.of();
    }
    return entries(manifestsOf(snapshot.changelogManifestList(), snapshot));
  }

  /** The manifests a manifest list names, for commits that build on them. */
  public List<ManifestFileMeta> manifestsOf(String listName, Snapshot snapshot) throws IOException {
    try {
      return lists.read(listName);
    } catch (ObjectNotFoundException e) {
      throw missing(snapshot, "manifest list", listName, e);
    }
  }

  /** A metadata file a snapshot names is gone. */
  private IOException missing(
      Snapshot snapshot, String what, String fileName, ObjectNotFoundException cause) {
    return new IOException(
        "snapshot "
            + snapshot.id()
            + " of "
            + root
            + " names the "
            + what
            + " "
            + fileName
            + ", which is missing: the table is damaged or the snapshot was expired meanwhile",
        cause);
  }

  /** The entries of the given manifests, in order. */
  public List<ManifestEntry> entries(Collection<ManifestFileMeta> metas) throws IOException {
    List<ManifestEntry> all = new ArrayList<>();
    for (ManifestFileMeta meta : metas) {
      all.addAll(read(meta.fileName()));
    }
    return all;
  }

  /** Applies entries in order to a live-file map: ADD puts, DELETE removes. */
  static void apply(
      Map<ManifestEntry.Identifier, ManifestEntry> live, List<ManifestEntry> entries, Snapshot at)
      throws IOException {
    for (ManifestEntry entry : entries) {
      if (entry.kind() == FileKind.ADD) {
        live.put(entry.identifier(), entry);
      } else if (live.remove(entry.identifier()) == null && at != null) {
        throw new IOException(
            "snapshot "
                + at.id()
                + " deletes "
                + entry.file().fileName()
                + " (bucket "
                + entry.bucket()
                + ", level "
                + entry.file().level()
                + ") which no earlier manifest adds: the manifests are inconsistent");
      }
    }
  }

  private List<ManifestEntry> read(String fileName) throws IOException {
    synchronized (cache) {
      List<ManifestEntry> cached = cache.get(fileName);
      if (cached != null) {
        return cached;
      }
    }
    List<ManifestEntry> entries;
    try {
      entries = List.copyOf(manifests.read(fileName));
    } catch (ObjectNotFoundException e) {
      throw new IOException(
          "the manifest "
              + root
              + "manifest/"
              + fileName
              + " is missing: the table is damaged or"
              + " the snapshot that names it was expired meanwhile",
          e);
    }
    synchronized (cache) {
      cache.put(fileName, entries);
    }
    return entries;
  }
}
