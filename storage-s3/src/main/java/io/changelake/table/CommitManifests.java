package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.IndexManifestFile;
import io.changelake.format.ManifestEntry;
import io.changelake.format.ManifestFile;
import io.changelake.format.ManifestFileMeta;
import io.changelake.format.ManifestList;
import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the manifests and manifest lists of one commit attempt, as Paimon lays them out: the base
 * list (the previous snapshot's base and delta manifests, or, once they pile up past {@link
 * #MANIFEST_MERGE_MIN_COUNT}, the live set rewritten), the delta list (this commit's entries) and,
 * when the commit produced changelog files, the changelog list.
 *
 * <p>Every file has a name unique to this writer ({@code manifest-<uuid>-<n>}, {@code
 * manifest-list-<uuid>-<n>}), so an attempt that loses the race for its snapshot id removes its own
 * files without touching anyone else's.
 */
final class CommitManifests {

  private static final Logger LOG = LoggerFactory.getLogger(CommitManifests.class);

  /** Past this many manifests, the base of the next snapshot is rewritten as one live set. */
  static final int MANIFEST_MERGE_MIN_COUNT = 30;

  /** Entries per manifest when the base is rewritten. */
  static final int ENTRIES_PER_MANIFEST = 50_000;

  /**
   * The manifest lists of one attempt and every file it wrote.
   *
   * @param changelogList null when the commit has no changelog files, as is its size
   * @param indexManifest the snapshot's index manifest: a new one when the commit changes index
   *     files, else the latest snapshot's (null if none)
   * @param files the names of every manifest and manifest list written, in the manifest folder
   */
  record Written(
      String baseList,
      long baseListSize,
      String deltaList,
      long deltaListSize,
      String changelogList,
      Long changelogListSize,
      String indexManifest,
      List<String> files) {}

  private final ObjectStore store;
  private final TablePath path;
  private final long schemaId;
  private final TableScan scan;
  private final ManifestFile manifestFile;
  private final ManifestList manifestList;
  private final IndexManifestFile indexManifestFile;
  private final PartitionStats partitionStats;
  private final String fileIdPrefix = UUID.randomUUID().toString();
  private int fileCounter;

  CommitManifests(ObjectStore store, TablePath path, TableSchema schema, TableScan scan) {
    this.store = store;
    this.path = path;
    this.schemaId = schema.id();
    this.scan = scan;
    this.manifestFile = new ManifestFile(store, path.manifestFolder());
    this.manifestList = new ManifestList(store, path.manifestFolder());
    this.indexManifestFile = new IndexManifestFile(store, path.manifestFolder());
    this.partitionStats = new PartitionStats(schema.partitionType());
  }

  /**
   * Writes the manifests of a commit of {@code files}, {@code changelog} and {@code indexChanges}
   * on top of {@code latest}, whose live files are {@code live}.
   */
  Written write(
      List<ManifestEntry> files,
      List<ManifestEntry> changelog,
      List<IndexManifestEntry> indexChanges,
      Optional<Snapshot> latest,
      Map<ManifestEntry.Identifier, ManifestEntry> live)
      throws IOException {
    List<String> written = new ArrayList<>();
    List<ManifestFileMeta> baseManifests = new ArrayList<>();
    if (latest.isPresent()) {
      baseManifests.addAll(scan.manifestsOf(latest.get().baseManifestList(), latest.get()));
      baseManifests.addAll(scan.manifestsOf(latest.get().deltaManifestList(), latest.get()));
    }
    if (baseManifests.size() > MANIFEST_MERGE_MIN_COUNT) {
      baseManifests = writeLiveSet(live, written);
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
    if (!changelog.isEmpty()) {
      List<ManifestFileMeta> changelogManifests = writeManifest(changelog, written);
      changelogList = newFileName("manifest-list");
      changelogListSize = manifestList.write(changelogList, changelogManifests);
      written.add(changelogList);
    }
    String indexManifest = latest.map(Snapshot::indexManifest).orElse(null);
    if (!indexChanges.isEmpty()) {
      indexManifest = writeIndexManifest(latest, indexChanges);
      written.add(indexManifest);
    }
    return new Written(
        baseList,
        baseListSize,
        deltaList,
        deltaListSize,
        changelogList,
        changelogListSize,
        indexManifest,
        written);
  }

  /**
   * The latest snapshot's index files with the changes applied, as Paimon combines them: one file
   * per (partition, bucket, index type), DELETE entries removed first, then each ADD replacing what
   * its (partition, bucket) had. Two writers that gave the same bucket new keys at once are merged,
   * not refused: the later commit's file replaces the earlier's, as in Paimon, which supports one
   * writing job per dynamic-bucket table.
   */
  private String writeIndexManifest(Optional<Snapshot> latest, List<IndexManifestEntry> changes)
      throws IOException {
    Map<IndexManifestEntry.Identity, IndexManifestEntry> live = new LinkedHashMap<>();
    if (latest.isPresent()) {
      for (IndexManifestEntry e : scan.indexFiles(latest.get())) {
        live.put(e.identity(), e);
      }
    }
    for (IndexManifestEntry e : changes) {
      if (e.kind() == FileKind.DELETE) {
        live.remove(e.identity());
      }
    }
    for (IndexManifestEntry e : changes) {
      if (e.kind() == FileKind.ADD) {
        live.put(e.identity(), e);
      }
    }
    String name = newFileName("index-manifest");
    indexManifestFile.write(name, new ArrayList<>(live.values()));
    return name;
  }

  /** Removes the files of an attempt that lost its race; what stays is left to orphan cleaning. */
  void discard(Written attempt) {
    for (String file : attempt.files()) {
      try {
        store.delete(path.manifestFolder() + file);
      } catch (IOException e) {
        LOG.warn("could not remove {} after a lost commit race; orphan cleaning will", file, e);
      }
    }
  }

  private List<ManifestFileMeta> writeLiveSet(
      Map<ManifestEntry.Identifier, ManifestEntry> live, List<String> written) throws IOException {
    List<ManifestEntry> all = new ArrayList<>(live.values());
    List<ManifestFileMeta> metas = new ArrayList<>();
    for (int from = 0; from < all.size(); from += ENTRIES_PER_MANIFEST) {
      int to = Math.min(all.size(), from + ENTRIES_PER_MANIFEST);
      metas.addAll(writeManifest(all.subList(from, to), written));
    }
    return metas;
  }

  private List<ManifestFileMeta> writeManifest(List<ManifestEntry> entries, List<String> written)
      throws IOException {
    if (entries.isEmpty()) {
      return List.of();
    }
    String name = newFileName("manifest");
    ManifestFileMeta meta = manifestFile.write(name, entries, partitionStats.of(entries), schemaId);
    written.add(name);
    return List.of(meta);
  }

  private String newFileName(String prefix) {
    return prefix + "-" + fileIdPrefix + "-" + fileCounter++;
  }
}
