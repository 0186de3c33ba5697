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
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shared conformance case, for each producer and merge engine it lists, prints what Apache
 * Paimon 1.3.1 printed (lines starting with {@code #} or {@code --} aside); combinations Paimon
 * rejects are rejected.
 */
class ConformanceCasesTest {

  @TempDir Path warehouse;

  static Path folder(String name) throws URISyntaxException {
    return Path.of(ConformanceCasesTest.class.getResource("/conformance/" + name).toURI());
  }

  static Stream<String> cases() throws Exception {
    try (Stream<Path> files = Files.list(folder("expected"))) {
      return files.map(p -> p.getFileName().toString().replace(".txt", "")).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void printsWhatPaimonPrints(String name) throws Exception {
    String[] parts = name.split("__");
    String expected = Files.readString(folder("expected").resolve(name + ".txt"));
    ConformanceScript script =
        ConformanceScript.read(folder("scripts").resolve(parts[0] + ".txt"));
    ConformanceRun run = new ConformanceRun(script, parts[0] + ".txt", parts[1], parts[2], Map.of());
    if (expected.lines().anyMatch(l -> l.startsWith("ERROR"))) {
      assertThrows(IllegalArgumentException.class, () -> run.run(warehouse, nullStream()));
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    run.run(warehouse, new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(significant(expected), significant(out.toString(StandardCharsets.UTF_8)));
  }

  private static String significant(String report) {
    return String.join(
        "\n", report.lines().filter(l -> !l.startsWith("#") && !l.startsWith("--")).toList());
  }

  private static PrintStream nullStream() {
    return new PrintStream(OutputStream.nullOutputStream());
  }
}
