package io.changelake.table;

import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The snapshots of a table: {@code snapshot/snapshot-<id>}, ids 1, 2, 3, ... without gaps, and the
 * LATEST and EARLIEST hints beside them. The same, under {@code changelog/changelog-<id>}, holds
 * the long-lived changelogs ({@link #changelogs}).
 *
 * <p>The hints are written after a snapshot and may lag or be missing, so they are never trusted
 * alone: the latest id is the hint probed forward until the next id is absent, and the earliest is
 * the hint checked to exist.
 */
public final class SnapshotLog {

  private final ObjectStore store;
  private final String folder;
  private final String prefix;

  public SnapshotLog(ObjectStore store, TablePath path) {
    this(store, path.snapshotFolder(), "snapshot-");
  }

  private SnapshotLog(ObjectStore store, String folder, String prefix) {
    this.store = store;
    this.folder = folder;
    this.prefix = prefix;
  }

  /**
   * The long-lived changelogs of a table, in Paimon's layout: when the changelog retention exceeds
   * the snapshot retention ({@code changelog.*} options), expiry copies each snapshot it removes to
   * {@code changelog/changelog-<id>} (the same JSON) and keeps the files its changelog reads, until
   * {@link ChangelogExpiry} removes it. Ids run without gaps up to the earliest snapshot.
   */
  public static SnapshotLog changelogs(ObjectStore store, TablePath path) {
    return new SnapshotLog(store, path.changelogFolder(), "changelog-");
  }

  /** The path of a snapshot file. */
  public String path(long id) {
    return folder + prefix + id;
  }

  /**
   * Reads a snapshot.
   *
   * @throws ObjectNotFoundException if it does not exist (never created, or expired)
   * @throws IOException naming the file if it is not a snapshot
   */
  public Snapshot read(long id) throws IOException {
    return Snapshot.fromJson(store.read(path(id)), store.root() + path(id));
  }

  /** Whether snapshot {@code id} exists. */
  public boolean exists(long id) throws IOException {
    return store.exists(path(id));
  }

  /** The id of the newest snapshot, or empty for a table without any. */
  public OptionalLong latestId() throws IOException {
    OptionalLong hint = readHint("LATEST");
    long id;
    if (hint.isPresent() && exists(hint.getAsLong())) {
      id = hint.getAsLong();
    } else {
      List<Long> ids = listIds();
      if (ids.isEmpty()) {
        return OptionalLong.empty();
      }
      id = ids.get(ids.size() - 1);
    }
    while (exists(id + 1)) {
      id++;
    }
    return OptionalLong.of(id);
  }

  /** The id of the oldest snapshot still present, or empty for a table without any. */
  public OptionalLong earliestId() throws IOException {
    OptionalLong hint = readHint("EARLIEST");
    if (hint.isPresent() && exists(hint.getAsLong()) && !exists(hint.getAsLong() - 1)) {
      return hint;
    }
    List<Long> ids = listIds();
    return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.get(0));
  }

  /** The newest snapshot, or empty. */
  public Optional<Snapshot> latest() throws IOException {
    OptionalLong id = latestId();
    return id.isPresent() ? Optional.of(read(id.getAsLong())) : Optional.empty();
  }

  /**
   * The newest snapshot for which {@code condition} holds, walking from {@code latest} back to the
   * earliest snapshot present; each older snapshot is read only when the walk reaches it, so a
   * condition that holds for a recent snapshot costs few reads.
   *
   * @throws ObjectNotFoundException if expiry removes a snapshot the walk has yet to read
   */
  public Optional<Snapshot> newestWhere(Snapshot latest, Predicate<Snapshot> condition)
      throws IOException {
    long earliest = earliestId().orElse(1);
    for (long id = latest.id(); id >= earliest; id--) {
      Snapshot s = id == latest.id() ? latest : read(id);
      if (condition.test(s)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** Every snapshot id present, ascending. */
  public List<Long> listIds() throws IOException {
    List<Long> ids = new ArrayList<>();
    for (ObjectInfo info : store.list(folder + prefix)) {
      String name = info.path().substring(folder.length() + prefix.length());
      try {
        ids.add(Long.parseLong(name));
      } catch (NumberFormatException notASnapshot) {
        // A stray file in the folder is not a snapshot; commits never write such names.
      }
    }
    ids.sort(Long::compare);
    return ids;
  }

  /**
   * Publishes a snapshot if its id is still free: the one atomic step of a commit.
   *
   * @return false if another committer already took the id
   */
  public boolean tryCreate(Snapshot snapshot) throws IOException {
    return store.createIfAbsent(path(snapshot.id()), snapshot.toJson());
  }

  /** Records the newest id in the LATEST hint. */
  public void writeLatestHint(long id) throws IOException {
    store.write(folder + "LATEST", Long.toString(id).getBytes(StandardCharsets.UTF_8));
  }

  /** Records the oldest id in the EARLIEST hint. */
  public void writeEarliestHint(long id) throws IOException {
    store.write(folder + "EARLIEST", Long.toString(id).getBytes(StandardCharsets.UTF_8));
  }

  /** Writes a snapshot file whatever is there: a long-lived changelog (expiry). */
  void overwrite(Snapshot snapshot) throws IOException {
    store.write(path(snapshot.id()), snapshot.toJson());
  }

  /** Deletes a snapshot file (expiry only). */
  void delete(long id) throws IOException {
    store.delete(path(id));
  }

  private OptionalLong readHint(String name) throws IOException {
    try {
      String text = new String(store.read(folder + name), StandardCharsets.UTF_8).trim();
      return OptionalLong.of(Long.parseLong(text));
    } catch (ObjectNotFoundException | NumberFormatException missingOrTorn) {
      return OptionalLong.empty();
    }
  }
}
