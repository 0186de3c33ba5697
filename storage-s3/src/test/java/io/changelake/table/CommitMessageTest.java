package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.DataFileMeta;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket's message followed by its next one ({@link CommitMessage#followedBy}), committed as one,
 * against the same two messages committed in turn in a copy of the table: the same rows, for us and
 * for Paimon, the same changelog replay, and a writer restarted on the messages sees them landed.
 */
class CommitMessageTest {

  private static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path joinedWarehouse;
  @TempDir Path inTurnWarehouse;

  @Test
  void aMessageFollowedByTheNextOneCommitsAsTheTwoCommittedInTurn() throws Exception {
    // Full compaction on every commit: the third message's compaction replaces the file the
    // second one's wrote, the case the join must leave out of both halves.
    Map<String, String> options =
        Map.of(
            "bucket", "1",
            "changelog-producer", "full-compaction",
            "full-compaction.delta-commits", "1");
    List<List<CommitMessage>> prepared = new ArrayList<>();
    try (ObjectStore disk = new LocalObjectStore(joinedWarehouse)) {
      Table table = Table.create(disk, PATH, Orders.schema(options));
      try (TableWriter writer = table.newWriter()) {
        for (long round = 1; round <= 3; round++) {
          for (long key = 0; key < 30; key++) {
            if (round == 3 && key % 3 == 0) {
              writer.write(RowKind.DELETE, Orders.row(key, 1L, 200 + key));
            } else if (key % round == 0) {
              writer.write(RowKind.INSERT, Orders.row(key, 1L, round * 100 + key));
            }
          }
          prepared.add(writer.prepareCommit(round));
        }
      }
    }
    copy(joinedWarehouse, inTurnWarehouse);
    CommitMessage second = prepared.get(1).get(0);
    CommitMessage third = prepared.get(2).get(0);
    Set<String> rewritten = names(second.compactAfter());
    rewritten.retainAll(names(third.compactBefore()));
    assertFalse(rewritten.isEmpty(), "the third message compacts what the second wrote");

    CommitMessage joined = second.followedBy(third);
    assertTrue(names(joined.compactBefore()).stream().noneMatch(rewritten::contains));
    assertTrue(names(joined.compactAfter()).stream().noneMatch(rewritten::contains));
    List<String> joinedRows = commitAndRead(joinedWarehouse, prepared.get(0), List.of(joined));
    List<String> inTurnRows =
        commitAndRead(inTurnWarehouse, prepared.get(0), prepared.get(1), prepared.get(2));
    assertEquals(inTurnRows, joinedRows);
    assertEquals(
        inTurnRows,
        Rows.canonical(
            PaimonTables.readAll(
                PaimonTables.open(joinedWarehouse.resolve(PATH.root())), Orders.schema(options))));
    assertEquals(replay(inTurnWarehouse, options), replay(joinedWarehouse, options));
    assertEquals(joinedRows, replay(joinedWarehouse, options));

    try (ObjectStore disk = new LocalObjectStore(joinedWarehouse)) {
      List<CommitMessage> all = new ArrayList<>();
      prepared.forEach(all::addAll);
      assertEquals(3, UncommittedMessages.committedPrefix(Table.open(disk, PATH), all));
    }
  }

  @Test
  void aMessageIsFollowedOnlyByItsOwnBucketsNext() throws Exception {
    try (ObjectStore disk = new LocalObjectStore(joinedWarehouse)) {
      Table table = Table.create(disk, PATH, Orders.schema(Map.of("bucket", "2")));
      List<CommitMessage> messages;
      try (TableWriter writer = table.newWriter()) {
        for (long key = 0; key < 20; key++) {
          writer.write(RowKind.INSERT, Orders.row(key, 1L, key));
        }
        messages = writer.prepareCommit(1);
      }
      assertEquals(2, messages.size());
      IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class, () -> messages.get(0).followedBy(messages.get(1)));
      assertTrue(refused.getMessage().contains("bucket"), refused.getMessage());
    }
  }

  @SafeVarargs
  private static List<String> commitAndRead(Path warehouse, List<CommitMessage>... commits)
      throws IOException {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      Table table = Table.open(disk, PATH);
      SnapshotCommit commit = table.newCommit("job");
      for (int i = 0; i < commits.length; i++) {
        commit.commit(i + 1, commits[i]);
      }
      return Rows.canonical(table.newRead().readAll());
    }
  }

  /** The table Paimon's changelog read replays to. */
  private static List<String> replay(Path warehouse, Map<String, String> options) throws Exception {
    Map<Object, Object[]> rows = new java.util.TreeMap<>();
    for (PaimonStreams.Change c :
        PaimonStreams.changelog(
            PaimonTables.open(warehouse.resolve(PATH.root())), Orders.schema(options), 1)) {
      if (c.kind() == RowKind.INSERT || c.kind() == RowKind.UPDATE_AFTER) {
        rows.put(c.row().get(0), c.row().toArray());
      } else {
        rows.remove(c.row().get(0));
      }
    }
    return Rows.canonical(rows.values());
  }

  private static Set<String> names(List<DataFileMeta> files) {
    Set<String> out = new HashSet<>();
    files.forEach(f -> out.add(f.fileName()));
    return out;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }
}
