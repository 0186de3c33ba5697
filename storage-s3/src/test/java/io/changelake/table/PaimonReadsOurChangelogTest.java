package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.table.RandomChangeStream.Case;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Paimon 1.3.1 reads tables changelake wrote with random streams (several commits, random
 * compactions, options drawn from the seed): its batch read gives our rows, and its streaming read
 * from snapshot 1 gives our changelog.
 *
 * <p>Both read the same snapshots of the same folder, so the changes must agree down to the
 * snapshot that carries each one. Only the order across keys is free: both read a snapshot's
 * buckets in an order of their own, so the changes are compared per key, in order.
 */
class PaimonReadsOurChangelogTest {

  private static final long SEED = Long.getLong("changelog.seed", 1307L);
  private static final int OPERATIONS = 1200;
  private static final int KEYS = 200;
  private static final int COMMITS = 12;

  @TempDir Path warehouse;

  static Stream<Case> cases() {
    return Stream.of(
        new Case("deduplicate", "none", SEED, false),
        // input echoes its input: a complete changelog in, a correct changelog out.
        new Case("deduplicate", "input", SEED, true),
        new Case("deduplicate", "lookup", SEED, false),
        new Case("deduplicate", "full-compaction", SEED, false),
        new Case("partial-update", "lookup", SEED, false),
        new Case("aggregation", "lookup", SEED, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void paimonReadsOurRowsAndOurChangelog(Case c) throws Exception {
    RandomChangeStream stream = new RandomChangeStream(c, KEYS);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, RandomChangeStream.PATH, stream.schema());
      Map<String, String> options = stream.write(table, OPERATIONS, COMMITS).options();
      String context = c + " " + options;
      FileStoreTable paimon = PaimonTables.open(warehouse.resolve(RandomChangeStream.PATH.root()));

      Rows.assertSameRows(table.newRead().readAll(), PaimonTables.readAll(paimon, table.schema()));

      List<Change> ours = ChangelogScanTest.changelog(table, 1);
      assertFalse(ours.isEmpty(), context);
      assertEquals(
          perKey(ours), perKey(PaimonStreams.changelog(paimon, table.schema(), 1)), context);
    }
  }

  /** Each key's changes in the order read, by order id (which names the key, partition and all). */
  static Map<Object, List<String>> perKey(List<Change> changes) {
    Map<Object, List<String>> byKey = new TreeMap<>();
    for (Change change : changes) {
      byKey.computeIfAbsent(change.row().get(0), k -> new ArrayList<>()).add(change.toString());
    }
    return byKey;
  }
}
