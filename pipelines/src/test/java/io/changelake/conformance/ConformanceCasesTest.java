package io.changelake.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shared conformance case, and every case the differential fuzzer found and kept ({@code
 * fuzz-cases}), for each producer and merge engine it lists, prints what Apache Paimon 1.3.1
 * printed (lines starting with {@code #} or {@code --} aside); combinations Paimon rejects are
 * rejected.
 */
class ConformanceCasesTest {

  @TempDir Path warehouse;

  private static final List<String> SUITES = List.of("conformance", "fuzz-cases");

  static Path folder(String suite, String name) throws URISyntaxException {
    return Path.of(ConformanceCasesTest.class.getResource("/" + suite + "/" + name).toURI());
  }

  /** Each case as {@code <suite>/<case>__<producer>__<merge-engine>}. */
  static Stream<String> cases() throws Exception {
    List<String> cases = new ArrayList<>();
    for (String suite : SUITES) {
      try (Stream<Path> files = Files.list(folder(suite, "expected"))) {
        files
            .map(p -> suite + "/" + p.getFileName().toString().replace(".txt", ""))
            .sorted()
            .forEach(cases::add);
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void printsWhatPaimonPrints(String suiteAndName) throws Exception {
    String suite = suiteAndName.substring(0, suiteAndName.indexOf('/'));
    String name = suiteAndName.substring(suite.length() + 1);
    String[] parts = name.split("__");
    String expected = Files.readString(folder(suite, "expected").resolve(name + ".txt"));
    ConformanceScript script =
        ConformanceScript.read(folder(suite, "scripts").resolve(parts[0] + ".txt"));
    ConformanceRun run =
        new ConformanceRun(script, parts[0] + ".txt", parts[1], parts[2], Map.of());
    if (expected.lines().anyMatch(l -> l.startsWith("ERROR"))) {
      assertThrows(IllegalArgumentException.class, () -> run.run(warehouse, nullStream()));
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    run.run(warehouse, new PrintStream(out, true, StandardCharsets.UTF_8));
    String actual = out.toString(StandardCharsets.UTF_8);
    if (suite.equals("conformance")) {
      assertEquals(significant(expected), significant(actual));
    } else {
      // Kept fuzzer cases compare as the fuzzer does: the order between keys does not count.
      String paimon = ConformanceFuzzTest.normalized(script, expected);
      String ours = ConformanceFuzzTest.normalized(script, actual);
      assertEquals(paimon, ours);
    }
  }

  static String significant(String report) {
    return String.join(
        "\n", report.lines().filter(l -> !l.startsWith("#") && !l.startsWith("--")).toList());
  }

  private static PrintStream nullStream() {
    return new PrintStream(OutputStream.nullOutputStream());
  }
}
