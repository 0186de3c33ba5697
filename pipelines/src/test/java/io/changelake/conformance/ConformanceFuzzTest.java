package io.changelake.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.BucketSplit;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TableRead;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The differential fuzzer: seeded random conformance scripts ({@link RandomScript}) run through
 * Apache Paimon 1.3.1 ({@link PaimonConformanceRun}) and through changelake's conformance runner,
 * and for each:
 *
 * <ul>
 *   <li>changelake prints what Paimon prints: the streaming changelog from snapshot 1 (each key's
 *       changes, kinds and order), both aggregates, and the final batch state with row kinds;
 *   <li>Paimon's own reader, streaming and batch, reads the table changelake wrote exactly so;
 *   <li>each split of the final state handed to a sink (views where the read allows) is the same
 *       rows read one by one;
 *   <li>a combination Paimon rejects, changelake rejects.
 * </ul>
 *
 * <p>Lines starting with {@code #} or {@code --} are left out, as by the conformance check, and the
 * order between keys (which depends on buckets and snapshot layout) does not count.
 *
 * <p>By default a fixed set of seeds runs; {@code -Dfuzz.seeds=N -Dfuzz.from=S} runs seeds S to
 * S+N-1, e.g. {@code mvn -B -q -pl pipelines -am test -Dtest=ConformanceFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfuzz.seeds=2000 -Dfuzz.from=1}. A failing seed prints
 * its script in the conformance format, Paimon's output and ours. {@code -Dfuzz.keep=S1,S2,...}
 * keeps seeds as cases: their scripts go to {@code src/test/resources/fuzz-cases/scripts} and
 * Paimon's output to {@code fuzz-cases/expected}, which {@link ConformanceCasesTest} runs.
 */
class ConformanceFuzzTest {

  /** The line of a kept case's expected output that says why changelake still differs. */
  private static final long FROM = Long.getLong("fuzz.from", 1);

  private static final int SEEDS = Integer.getInteger("fuzz.seeds", 60);

  @TempDir Path temp;

  static Stream<Long> seeds() {
    return LongStream.range(FROM, FROM + SEEDS).boxed();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void changelakeAndPaimonAgree(long seed) throws Exception {
    RandomScript random = RandomScript.of(seed);
    ConformanceScript script = ConformanceScript.parse("seed " + seed, random.lines());
    ConformanceRun ours =
        new ConformanceRun(
            script, "fuzz_" + seed + ".txt", random.producer(), random.engine(), Map.of());
    Path paimonTable = Files.createDirectories(temp.resolve("paimon"));
    String expected =
        PaimonConformanceRun.run(
            script, ours.options(), paimonTable, Files.createDirectories(temp.resolve("io")));
    Path warehouse = Files.createDirectories(temp.resolve("changelake"));
    String actual = runOurs(ours, warehouse);
    String paimonReadsOurs =
        actual.startsWith("ERROR")
            ? actual
            : PaimonConformanceRun.report(warehouse.resolve("db.db").resolve("orders"), script);
    List<String> problems = new ArrayList<>();
    compare(script, "changelake", expected, actual, problems);
    compare(script, "Paimon reading changelake's table", expected, paimonReadsOurs, problems);
    if (!actual.startsWith("ERROR")) {
      String sinkDiffers = sinkDiffers(warehouse);
      if (sinkDiffers != null) {
        problems.add(sinkDiffers);
      }
    }
    if (!problems.isEmpty()) {
      String report =
          "seed "
              + seed
              + " ("
              + random.caseName()
              + "): "
              + String.join("; ", problems)
              + "\n--- script\n"
              + random.text()
              + "--- Paimon\n"
              + expected
              + "\n--- changelake\n"
              + actual
              + "\n--- Paimon reading changelake's table\n"
              + paimonReadsOurs
              + "\nrerun: -Dtest=ConformanceFuzzTest -Dfuzz.from="
              + seed
              + " -Dfuzz.seeds=1";
      fail(report);
    }
  }

  @Test
  void theTinyWriteBufferTheFuzzerDrawsSpillsInPaimon() throws Exception {
    // changelake's side of it: WriteBufferTest (storage-s3) spills at the same size.
    List<String> lines = new ArrayList<>();
    lines.add("COLUMN note STRING");
    lines.add("COLUMN flag BOOLEAN");
    lines.add("OPTION write-buffer-size=" + RandomScript.TINY_WRITE_BUFFER);
    lines.add("OPTION page-size=" + RandomScript.TINY_PAGE);
    for (int i = 0; i < 20; i++) {
      lines.add(
          "UA " + (1001 + i % 3) + " " + (10 + i % 2) + " " + i + " n" + i + " " + (i % 2 == 0));
    }
    lines.add("COMMIT");
    ConformanceScript script = ConformanceScript.parse("tiny buffer", lines);
    ConformanceRun ours = new ConformanceRun(script, "tiny", "lookup", "aggregation", Map.of());
    String paimon =
        PaimonConformanceRun.run(
            script,
            ours.options(),
            Files.createDirectories(temp.resolve("paimon")),
            Files.createDirectories(temp.resolve("io")));
    String spills = paimon.lines().findFirst().orElseThrow();
    assertTrue(
        spills.startsWith("# paimon write buffer spills: ") && !spills.endsWith(": 0"), paimon);
    String actual = runOurs(ours, Files.createDirectories(temp.resolve("changelake")));
    assertEquals(normalized(script, paimon), normalized(script, actual));
  }

  @Test
  @EnabledIfSystemProperty(named = "fuzz.keep", matches = ".+")
  void keepSeedsAsCases() throws Exception {
    Path cases = Path.of("src/test/resources/fuzz-cases");
    for (String word : System.getProperty("fuzz.keep").split(",")) {
      long seed = Long.parseLong(word.trim());
      RandomScript random = RandomScript.of(seed);
      ConformanceScript script = ConformanceScript.parse("seed " + seed, random.lines());
      Map<String, String> options =
          new ConformanceRun(script, "", random.producer(), random.engine(), Map.of()).options();
      Path run = Files.createDirectories(temp.resolve("keep-" + seed));
      String expected =
          PaimonConformanceRun.run(
              script,
              options,
              Files.createDirectories(run.resolve("table")),
              Files.createDirectories(run.resolve("io")));
      String name = random.caseName();
      Files.writeString(
          Files.createDirectories(cases.resolve("scripts")).resolve(name.split("__")[0] + ".txt"),
          random.text());
      Files.writeString(
          Files.createDirectories(cases.resolve("expected")).resolve(name + ".txt"),
          "# paimon 1.3.1 (PaimonConformanceRun)\n# options "
              + new TreeMap<>(options)
              + "\n"
              + expected);
    }
  }

  /**
   * Where a read of the final state handed to a sink ({@code MergedRows.insertsTo}: views where the
   * read allows, what a full changelog read and the Beam batch read take) differs from the same
   * read row by row, which the state above compares with Paimon's; null where none does.
   */
  private static String sinkDiffers(Path warehouse) throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, ConformanceRun.PATH);
      Optional<Snapshot> latest = table.snapshots().latest();
      if (latest.isEmpty()) {
        return null;
      }
      TableRead read = table.newRead();
      for (BucketSplit split : read.splits(latest.get())) {
        List<String> rows = new ArrayList<>();
        try (TableRead.MergedRows merged = read.read(split)) {
          while (merged.hasNext()) {
            rows.add(Arrays.deepToString(merged.nextKeyValue().value()));
          }
        }
        List<String> sunk = new ArrayList<>();
        try (TableRead.MergedRows merged = read.read(split)) {
          merged.insertsTo(row -> sunk.add(Arrays.deepToString(row.toKeyValue().value())));
        }
        if (!rows.equals(sunk)) {
          return "a split handed to a sink differs from its rows read one by one: "
              + sunk
              + " against "
              + rows;
        }
      }
      return null;
    }
  }

  private static String runOurs(ConformanceRun run, Path warehouse) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      run.run(warehouse, new PrintStream(out, true, StandardCharsets.UTF_8));
    } catch (Exception e) {
      return "ERROR " + e;
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void compare(
      ConformanceScript script, String who, String expected, String actual, List<String> problems) {
    boolean expectedError = expected.startsWith("ERROR");
    boolean actualError = actual.startsWith("ERROR");
    if (expectedError || actualError) {
      if (expectedError != actualError) {
        problems.add(
            who
                + (expectedError
                    ? " accepts what Paimon rejects"
                    : " fails where Paimon does not"));
      }
      return;
    }
    if (!normalized(script, expected).equals(normalized(script, actual))) {
      problems.add(who + " differs");
    }
  }

  /**
   * The significant lines of a report with each section's rows grouped by key (order_id and the
   * partition columns) in key order, keeping each key's own order: what must be equal.
   */
  static String normalized(ConformanceScript script, String report) {
    List<Integer> keyFields = new ArrayList<>();
    for (String key : script.primaryKeys()) {
      keyFields.add(script.rowType().indexOf(key));
    }
    StringBuilder out = new StringBuilder();
    Map<String, List<String>> byKey = new TreeMap<>();
    for (String line : report.lines().toList()) {
      if (line.startsWith("#") || line.startsWith("--") || line.isBlank()) {
        continue;
      }
      int bracket = line.indexOf('[');
      if (bracket >= 0 && !line.startsWith("==")) {
        String[] fields = line.substring(bracket + 1, line.lastIndexOf(']')).split(", ", -1);
        String key = keyFields.stream().map(i -> fields[i]).toList().toString();
        byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(line);
        continue;
      }
      byKey.values().forEach(rows -> rows.forEach(r -> out.append(r).append('\n')));
      byKey.clear();
      out.append(line).append('\n');
    }
    byKey.values().forEach(rows -> rows.forEach(r -> out.append(r).append('\n')));
    return out.toString();
  }
}
