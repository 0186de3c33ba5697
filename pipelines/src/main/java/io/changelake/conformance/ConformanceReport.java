package io.changelake.conformance;

import io.changelake.types.RowKind;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The report of one conformance run, in the reference driver's output format ({@code
 * shared/conformance/README.md}): the streaming changelog from snapshot 1 with its snapshot
 * headers, the aggregate {@code SUM(amount), COUNT(*) GROUP BY store_id} a downstream job derives
 * from it, the final table state with row kinds, the same aggregate over that state, and whether
 * the two aggregates agree.
 *
 * <p>Filled by whoever reads the table (changelake's runner, or a test reading with Paimon), then
 * printed: one printer, so that both sides print alike.
 */
public final class ConformanceReport {

  private final List<String> changelog = new ArrayList<>();
  private final List<String> state = new ArrayList<>();
  private final Map<Long, long[]> fromChangelog = groups();
  private final Map<Long, long[]> fromState = groups();

  /** A snapshot of the streaming read begins. */
  public void snapshot(long id, String commitKind) {
    changelog.add("-- snapshot " + id + " (" + commitKind + ")");
  }

  /** A row of the streaming read, as emitted. */
  public void change(RowKind kind, Object[] row) {
    changelog.add(kind.shortString() + Arrays.toString(row));
    accumulate(fromChangelog, row, kind.isAdd() ? 1 : -1);
  }

  /** A row of the final batch read, with the kind the reader returned. */
  public void stateRow(RowKind kind, Object[] row) {
    state.add(kind.shortString() + Arrays.toString(row));
    accumulate(fromState, row, 1);
  }

  /** Prints the report's sections. */
  public void print(PrintStream out) {
    out.println("== streaming read (scan.mode=from-snapshot, scan.snapshot-id=1)");
    changelog.forEach(out::println);
    out.println("== downstream SUM(amount), COUNT(*) GROUP BY store_id fed by the changelog");
    print(fromChangelog, out);
    out.println("== final table state (batch read of latest snapshot)");
    state.forEach(out::println);
    out.println("== SUM(amount), COUNT(*) GROUP BY store_id over the final table state");
    print(fromState, out);
    Map<Long, long[]> derived = groups();
    derived.putAll(fromChangelog);
    derived.values().removeIf(v -> v[0] == 0 && v[1] == 0);
    boolean matches = derived.size() == fromState.size();
    for (Map.Entry<Long, long[]> e : fromState.entrySet()) {
      long[] other = derived.get(e.getKey());
      matches &= other != null && Arrays.equals(other, e.getValue());
    }
    out.println(
        "== changelog-derived aggregate "
            + (matches ? "MATCHES" : "DIFFERS FROM")
            + " final-state aggregate");
  }

  private static Map<Long, long[]> groups() {
    return new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
  }

  private static void accumulate(Map<Long, long[]> groups, Object[] row, int sign) {
    long[] sumAndCount = groups.computeIfAbsent((Long) row[1], k -> new long[2]);
    sumAndCount[0] += sign * (row[2] == null ? 0 : (Long) row[2]);
    sumAndCount[1] += sign;
  }

  /** Groups in store_id order; a section without any group says so, as the reference does. */
  private static void print(Map<Long, long[]> groups, PrintStream out) {
    if (groups.isEmpty()) {
      out.println("(no groups)");
    }
    for (Map.Entry<Long, long[]> e : groups.entrySet()) {
      out.println(
          "store_id="
              + Objects.toString(e.getKey())
              + " sum="
              + e.getValue()[0]
              + " count="
              + e.getValue()[1]);
    }
  }
}
