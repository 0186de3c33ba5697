package io.changelake.table;

import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The named snapshots of a table, in Paimon's layout: {@code tag/tag-<name>} holds a copy of the
 * tagged snapshot's JSON, so Paimon reads changelake's tags and changelake reads Paimon's (the
 * extra fields Paimon writes, {@code tagCreateTime} and {@code tagTimeRetained}, are ignored).
 *
 * <p>A tag keeps its snapshot readable after the snapshot itself has expired: {@link
 * SnapshotExpiry} and {@link OrphanFilesClean} keep every data file and manifest a tag names. As in
 * Paimon, a tag does not keep its snapshot's changelog files: expiry removes those with the
 * snapshot. Deleting a tag removes only the tag file; the files only it held are left for {@code
 * clean-orphans}.
 */
public final class Tags {

  private static final String PREFIX = "tag-";

  private final ObjectStore store;
  private final String folder;
  private final SnapshotLog snapshots;

  Tags(ObjectStore store, TablePath path) {
    this.store = store;
    this.folder = path.tagFolder();
    this.snapshots = new SnapshotLog(store, path);
  }

  /** The path of a tag's file, relative to the store root. */
  public String path(String name) {
    if (!usableInPath(name)) {
      throw new IllegalArgumentException(
          "tag name '"
              + name
              + "' is not usable: use a non-empty name without '/', not starting"
              + " with '.'");
    }
    return folder + PREFIX + name;
  }

  /**
   * Tags snapshot {@code snapshotId} as {@code name}.
   *
   * @throws IllegalArgumentException if the name is not usable or already tags a snapshot
   * @throws SnapshotNotFoundException if the snapshot does not exist (never made, or expired)
   */
  public void create(String name, long snapshotId) throws IOException {
    checkName(name);
    write(name, snapshotId);
  }

  /**
   * Tags a snapshot with an automatic tag's name ({@link AutoTags}), which may be only digits
   * ({@code 20261201}): Paimon makes such names, where a name given by hand could be mistaken for a
   * snapshot id.
   */
  void createAutomatic(String name, long snapshotId) throws IOException {
    write(name, snapshotId);
  }

  private void write(String name, long snapshotId) throws IOException {
    String file = path(name);
    if (!snapshots.exists(snapshotId)) {
      throw new SnapshotNotFoundException(
          snapshotId,
          "cannot tag snapshot "
              + snapshotId
              + " of "
              + store.root()
              + folder
              + ": it does not exist (expired or never made); tag an existing snapshot");
    }
    Snapshot snapshot = snapshots.read(snapshotId);
    if (!store.createIfAbsent(file, snapshot.toJson())) {
      throw new IllegalArgumentException(
          "tag '"
              + name
              + "' already exists at "
              + store.root()
              + file
              + ": delete it first or choose another name");
    }
  }

  /**
   * Removes a tag.
   *
   * @throws IllegalArgumentException if there is no such tag
   */
  public void delete(String name) throws IOException {
    String file = path(name);
    if (!store.exists(file)) {
      throw new IllegalArgumentException(
          "no tag '" + name + "' at " + store.root() + folder + ": tags are " + list().keySet());
    }
    store.delete(file);
  }

  /** The snapshot a tag names, or empty if there is no such tag. */
  public Optional<Snapshot> get(String name) throws IOException {
    String file = path(name);
    try {
      return Optional.of(Snapshot.fromJson(store.read(file), store.root() + file));
    } catch (ObjectNotFoundException absent) {
      return Optional.empty();
    }
  }

  /**
   * The snapshot a tag names.
   *
   * @throws IllegalArgumentException naming the tags there are, if there is no such tag
   */
  public Snapshot read(String name) throws IOException {
    Optional<Snapshot> tagged = get(name);
    if (tagged.isEmpty()) {
      throw new IllegalArgumentException(
          "no tag '" + name + "' at " + store.root() + folder + ": tags are " + list().keySet());
    }
    return tagged.get();
  }

  /** Every tag and its snapshot, by name. */
  public Map<String, Snapshot> list() throws IOException {
    Map<String, Snapshot> tags = new TreeMap<>();
    for (ObjectInfo info : store.list(folder + PREFIX)) {
      String name = info.path().substring(folder.length() + PREFIX.length());
      if (name.contains("/")) {
        continue;
      }
      // A tag deleted between the listing and the read names nothing.
      get(name).ifPresent(s -> tags.put(name, s));
    }
    return tags;
  }

  /** The tagged snapshots, each once, by id ascending. */
  public List<Snapshot> taggedSnapshots() throws IOException {
    Map<Long, Snapshot> byId = new TreeMap<>();
    for (Snapshot s : list().values()) {
      byId.putIfAbsent(s.id(), s);
    }
    List<Snapshot> tagged = new ArrayList<>(byId.values());
    tagged.sort(Comparator.comparingLong(Snapshot::id));
    return tagged;
  }

  /** Whether a name can be a tag file's: not blank, no '/', not starting with '.'. */
  private static boolean usableInPath(String name) {
    return name != null && !name.isBlank() && !name.contains("/") && !name.startsWith(".");
  }

  /** Paimon's rules: not blank, no '/', not only digits (that would read as a snapshot id). */
  static void checkName(String name) {
    if (!usableInPath(name) || name.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException(
          "tag name '"
              + name
              + "' is not usable: use a non-empty name without '/', not starting"
              + " with '.' and not only digits");
    }
  }
}
