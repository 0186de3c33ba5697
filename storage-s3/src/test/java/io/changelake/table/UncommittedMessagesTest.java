package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A writer restarted while its committer is behind: whichever prefix of its messages has landed
 * (none, some, all), a writer made with those messages continues with the right view, and the
 * messages survive the binary form the Beam coder uses.
 */
class UncommittedMessagesTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  @ParameterizedTest(name = "{0} of 3 messages committed before the restart")
  @ValueSource(ints = {0, 1, 2, 3})
  void aRestartedWriterSeesItsUncommittedFiles(int committedBeforeRestart) throws Exception {
    try (ObjectStore disk = new LocalObjectStore(warehouse)) {
      // lookup: every commit compacts, so messages carry files added and removed.
      Table table =
          Table.create(
              disk, PATH, Orders.schema(Map.of("bucket", "1", "changelog-producer", "lookup")));
      List<List<CommitMessage>> prepared = new ArrayList<>();
      try (TableWriter writer = table.newWriter()) {
        for (long round = 1; round <= 3; round++) {
          for (long key = 0; key < 50; key++) {
            writer.write(RowKind.INSERT, Orders.row(key, 1L, round * 100 + key));
          }
          prepared.add(writer.prepareCommit(round));
        }
      }
      SnapshotCommit commit = table.newCommit("job");
      for (int i = 0; i < committedBeforeRestart; i++) {
        commit.commit(i + 1, prepared.get(i));
      }
      List<CommitMessage> uncommitted = new ArrayList<>();
      prepared.forEach(uncommitted::addAll);
      int perRound = prepared.get(0).size();
      assertEquals(
          committedBeforeRestart * perRound,
          UncommittedMessages.committedPrefix(table, uncommitted));

      try (TableWriter restarted = table.newWriter(roundTrip(uncommitted))) {
        for (long key = 0; key < 50; key += 2) {
          restarted.write(RowKind.UPDATE_AFTER, Orders.row(key, 1L, -key));
        }
        List<CommitMessage> fourth = restarted.prepareCommit(4);
        for (int i = committedBeforeRestart; i < 3; i++) {
          commit.commit(i + 1, prepared.get(i));
        }
        commit.commit(4, fourth);
      }
      List<Object[]> expected = new ArrayList<>();
      for (long key = 0; key < 50; key++) {
        expected.add(Orders.row(key, 1L, key % 2 == 0 ? -key : 300 + key));
      }
      Rows.assertSameRows(expected, table.newRead().readAll());
      Rows.assertSameRows(
          expected,
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), table.schema()));
    }
  }

  @ParameterizedTest(name = "version {0}")
  @ValueSource(ints = {0, 3})
  void anUnknownSerializerVersionIsRefused(int version) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new DataOutputStream(bytes).writeInt(version);
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                CommitMessageSerializer.read(
                    new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
    assertTrue(e.getMessage().contains("version " + version), e.getMessage());
    assertFalse(e.getMessage().isEmpty());
  }

  /** The messages through the binary form, compared by their records' equality on the way. */
  private static List<CommitMessage> roundTrip(List<CommitMessage> messages) throws IOException {
    List<CommitMessage> out = new ArrayList<>();
    for (CommitMessage m : messages) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CommitMessageSerializer.write(m, new DataOutputStream(bytes));
      CommitMessage back =
          CommitMessageSerializer.read(
              new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
      assertEquals(m, back);
      out.add(back);
    }
    return out;
  }
}
