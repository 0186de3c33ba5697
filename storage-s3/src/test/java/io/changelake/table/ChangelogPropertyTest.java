package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.table.RandomChangeStream.Case;
import io.changelake.table.RandomChangeStream.Written;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random streams of upserts and retractions (thousands of changes over a few hundred keys, dozens
 * of commits, random compactions, options drawn from the seed) for every merge engine and producer
 * the table accepts:
 *
 * <ul>
 *   <li>the table holds what a plain model of the merge engine says (last write wins for
 *       deduplicate);
 *   <li>the lookup and full-compaction changelogs, and the input changelog of a complete input,
 *       replayed per key (+I/+U add the row, -U/-D retract it) give exactly the final table, and
 *       their SUM(amount) is the table's.
 * </ul>
 *
 * <p>Seeds are fixed, so a run is reproducible; {@code -Dchangelog.seed=S} runs every case with
 * seed S (and S+1, ... with {@code -Dchangelog.runs=N}), which is how to rerun a failure (its
 * message names its seed) or to explore new seeds, e.g. {@code -Dchangelog.seed=1000
 * -Dchangelog.runs=20} (about half a minute per run).
 */
class ChangelogPropertyTest {

  private static final long FIRST_SEED = Long.getLong("changelog.seed", 20261129L);
  private static final int RUNS = Integer.getInteger("changelog.runs", 1);

  /** The size of a stream: also {@link BackgroundCompactionTest}'s. */
  static final int OPERATIONS = 2000;

  static final int KEYS = 300;
  static final int COMMITS = 25;

  @TempDir Path warehouse;

  /** Every engine with every producer it accepts, each with seeds of its own. */
  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (int run = 0; run < RUNS; run++) {
      long seed = FIRST_SEED + run;
      cases.add(new Case("deduplicate", "none", seed, false));
      // The input producer is right only for a complete input; anything else it echoes as given.
      cases.add(new Case("deduplicate", "input", seed, true));
      for (String producer : List.of("lookup", "full-compaction")) {
        cases.add(new Case("deduplicate", producer, seed, false));
        cases.add(new Case("partial-update", producer, seed, false));
        cases.add(new Case("aggregation", producer, seed, false));
      }
      cases.add(new Case("first-row", "lookup", seed, false));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void changelogReplaysToTheTableAndTheTableIsWhatTheEngineModelSays(Case c) throws Exception {
    RandomChangeStream stream = new RandomChangeStream(c, KEYS);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, RandomChangeStream.PATH, stream.schema());
      Written written = stream.write(table, OPERATIONS, COMMITS);
      String context =
          c
              + " "
              + written.options()
              + "; rerun: -Dtest=ChangelogPropertyTest -Dchangelog.seed="
              + c.seed()
              + " -Dchangelog.runs=1";
      try {
        List<Object[]> state = table.newRead().readAll();
        Rows.assertSameRows(written.expected(), written.predictable(state));
        if (!c.producer().equals("none")) {
          List<Change> changes = ChangelogScanTest.changelog(table, 1);
          Rows.assertSameRows(state, replay(changes));
          assertEquals(sumOfAmounts(state), changelogSumOfAmounts(changes), "SUM(amount)");
        }
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(context, e);
      }
    }
  }

  /**
   * The rows a changelog leaves, replayed per key in order; fails at the first retraction of a row
   * its key does not hold, which a correct changelog never sends.
   */
  static List<Object[]> replay(List<Change> changes) {
    Map<Object, List<List<Object>>> byKey = new HashMap<>();
    for (int i = 0; i < changes.size(); i++) {
      Change change = changes.get(i);
      List<List<Object>> rows = byKey.computeIfAbsent(change.row().get(0), k -> new ArrayList<>());
      if (change.kind().isAdd()) {
        rows.add(change.row());
      } else if (!rows.remove(change.row())) {
        fail("change " + i + " (" + change + ") retracts a row its key does not hold: " + rows);
      }
    }
    List<Object[]> state = new ArrayList<>();
    for (List<List<Object>> rows : byKey.values()) {
      for (List<Object> row : rows) {
        state.add(row.toArray());
      }
    }
    return state;
  }

  private static long sumOfAmounts(List<Object[]> rows) {
    long sum = 0;
    for (Object[] row : rows) {
      sum += row[2] == null ? 0 : (Long) row[2];
    }
    return sum;
  }

  /** What a downstream SUM(amount) fed by the changelog reads: adds count, retractions subtract. */
  private static long changelogSumOfAmounts(List<Change> changes) {
    long sum = 0;
    for (Change change : changes) {
      Long amount = (Long) change.row().get(2);
      if (amount != null) {
        sum += change.kind().isAdd() ? amount : -amount;
      }
    }
    return sum;
  }
}
