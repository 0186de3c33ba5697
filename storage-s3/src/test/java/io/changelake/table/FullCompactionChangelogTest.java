package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A full compaction's changelog names the keys it changed and no other: keys the top level alone
 * holds, merged beside keys that changed (their files overlap), emit nothing. Our changelog is
 * Paimon 1.3.1's for the same writes, change for change.
 */
class FullCompactionChangelogTest {

  @TempDir Path warehouse;

  @ParameterizedTest(name = "row-deduplicate={0}")
  @ValueSource(booleans = {false, true})
  void keysTheTopAloneHoldsEmitNothing(boolean rowDeduplicate) throws Exception {
    TableSchema schema =
        Orders.schema(
            Map.of(
                "bucket", "1",
                "changelog-producer", "full-compaction",
                "full-compaction.delta-commits", "1",
                "changelog-producer.row-deduplicate", Boolean.toString(rowDeduplicate)));
    // The same row again for key 40 after its first write: an update to an equal row.
    List<String> ours =
        assertChangelogIsPaimons(
            schema,
            List.of(range(1, 50), List.of(10L, 40L), List.of(25L)),
            (key, identifier) -> Orders.row(key, 1L, key == 40 ? 400 : key * 10 + identifier));
    long changedKeys = ours.stream().filter(c -> c.startsWith("+U")).count();
    assertEquals(rowDeduplicate ? 2 : 3, changedKeys, ours.toString());
  }

  /**
   * With a {@code sequence.field}, a version that comes later but orders before the stored one
   * loses to it, and the changelog still names the key, as Paimon's does: -U and +U of the row it
   * keeps (nothing with row-deduplicate). Lookup and full-compaction producers alike, the key's
   * stored version found in the compaction (full compaction) or by a lookup (lookup).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"full-compaction", "lookup"})
  void aLaterVersionThatOrdersBeforeTheStoredOneLosesAndEmitsAsPaimons(String producer)
      throws Exception {
    Map<String, String> options =
        new HashMap<>(
            Map.of("bucket", "1", "changelog-producer", producer, "sequence.field", "amount"));
    if (producer.equals("full-compaction")) {
      options.put("full-compaction.delta-commits", "1");
    }
    // Key 10 comes again with a smaller amount (it loses), key 40 with a greater one.
    List<String> ours =
        assertChangelogIsPaimons(
            Orders.schema(options),
            List.of(range(1, 50), List.of(10L, 40L), List.of(10L)),
            (key, identifier) ->
                Orders.row(
                    key,
                    identifier,
                    identifier == 0 ? key * 10 : key == 10 ? identifier : key * 100));
    // Key 10's stored row is named twice, as it stays: -U and +U of the same row.
    assertEquals(2, ours.stream().filter(c -> c.equals("+U[10, 0, 100]")).count(), ours.toString());
  }

  /** The row a commit writes for a key. */
  private interface RowOf {
    Object[] row(long key, long identifier);
  }

  /**
   * Writes the keys of each commit, in order, to a table of ours and to Paimon's, and asserts that
   * our changelog is Paimon's, change for change.
   *
   * @return our changelog, each change as its kind and row
   */
  private List<String> assertChangelogIsPaimons(
      TableSchema schema, List<List<Long>> commits, RowOf rowOf) throws Exception {
    TablePath path = new TablePath("db", "orders");
    try (LocalObjectStore store = new LocalObjectStore(warehouse.resolve("ours"))) {
      Table table = Table.create(store, path, schema);
      SnapshotCommit commit = table.newCommit("test");
      FileStoreTable paimon =
          PaimonTables.create(warehouse.resolve("paimon").resolve(path.root()), schema);
      try (TableWriter ours = table.newWriter();
          PaimonStreams.Writer theirs =
              new PaimonStreams.Writer(
                  paimon, schema, Files.createDirectories(warehouse.resolve("io")))) {
        long identifier = 0;
        for (List<Long> keys : commits) {
          for (long key : keys) {
            Object[] row = rowOf.row(key, identifier);
            ours.write(RowKind.INSERT, row);
            theirs.write(RowKind.INSERT, row);
          }
          identifier++;
          commit.commit(identifier, ours.prepareCommit(identifier));
          theirs.commit();
        }
      }
      List<String> ours = changes(ChangelogScanTest.changelog(table, 1));
      // Paimon commits each compaction in a snapshot of its own; ours commits it with the writes.
      assertEquals(changes(PaimonStreams.changelog(paimon, schema, 1)), ours);
      return ours;
    }
  }

  private static List<String> changes(List<Change> changes) {
    return changes.stream().map(c -> c.kind().shortString() + c.row()).toList();
  }

  private static List<Long> range(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }
}
