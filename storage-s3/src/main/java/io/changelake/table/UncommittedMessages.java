package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.ManifestEntry;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The commit messages a writer prepared that a committer may not have committed yet, and the view
 * of the buckets they imply.
 *
 * <p>A writer that restarts (a retried bundle, a worker that lost its memory) while its committer
 * is behind must see its own earlier, uncommitted files, or its sequence numbers, compactions and
 * lookups go wrong. It does not know which of its messages landed: the committer numbers commits on
 * its own, and a commit may even have landed only its APPEND half. It does not need to: every file
 * name is unique and a file is added at a level at most once and removed from it at most once, so
 * for any snapshot that holds a prefix of the messages (whole or half),
 *
 * <pre>
 *   view after all messages = (live files of the snapshot + every file the messages add)
 *                             - every file the messages remove
 * </pre>
 *
 * <p>holds without knowing where the prefix ends. This needs the committer to commit each bucket's
 * messages in the order they were prepared, and no other writer on the bucket: both are what {@link
 * SnapshotCommit}'s conflict checks and the Beam committer guarantee.
 */
public final class UncommittedMessages {

  private UncommittedMessages() {}

  /**
   * The live files after the messages, given the live files of a snapshot holding any prefix of
   * them, keyed by identifier.
   */
  public static Map<ManifestEntry.Identifier, ManifestEntry> applied(
      Collection<ManifestEntry> live, List<CommitMessage> messages) {
    Map<ManifestEntry.Identifier, ManifestEntry> view = new LinkedHashMap<>();
    for (ManifestEntry e : live) {
      view.put(e.identifier(), e);
    }
    Set<ManifestEntry.Identifier> removed = new HashSet<>();
    for (CommitMessage m : messages) {
      for (DataFileMeta f : m.compactBefore()) {
        removed.add(entry(FileKind.DELETE, m, f).identifier());
      }
      for (List<DataFileMeta> added : List.of(m.newFiles(), m.compactAfter())) {
        for (DataFileMeta f : added) {
          ManifestEntry e = entry(FileKind.ADD, m, f);
          view.putIfAbsent(e.identifier(), e);
        }
      }
    }
    view.keySet().removeAll(removed);
    return view;
  }

  /**
   * How many of the messages, from the first, the latest snapshot holds, as far as the data files
   * tell: the largest k for which the first k messages, applied to the live files, change nothing.
   * A writer may forget those k. Since the messages after the landed ones have not landed, their
   * files are missing from the table, so a k past the landed prefix shows up as a change, unless
   * the messages in between change no data file at all (only changelog files, or files they add and
   * remove themselves): forgetting those is harmless, as no view needs them.
   */
  public static int committedPrefix(Table table, List<CommitMessage> messages) throws IOException {
    Optional<Snapshot> latest = table.snapshots().latest();
    List<ManifestEntry> live =
        latest.isPresent() ? table.newScan().liveFiles(latest.get()) : List.of();
    Set<ManifestEntry.Identifier> now = new HashSet<>();
    for (ManifestEntry e : live) {
      now.add(e.identifier());
    }
    for (int k = messages.size(); k > 0; k--) {
      if (applied(live, messages.subList(0, k)).keySet().equals(now)) {
        return k;
      }
    }
    return 0;
  }

  private static ManifestEntry entry(FileKind kind, CommitMessage m, DataFileMeta f) {
    return new ManifestEntry(kind, m.partition(), m.bucket(), m.totalBuckets(), f);
  }
}
