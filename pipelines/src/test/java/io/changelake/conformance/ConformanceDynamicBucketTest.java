package io.changelake.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shared conformance case, for each producer and merge engine it lists, run with {@code
 * bucket} = -1 (dynamic bucket mode, {@code ./changelake conformance --option bucket=-1}) prints
 * what Apache Paimon 1.3.1 prints for the same script and options, Paimon driven here with its own
 * hash bucket assigner; combinations Paimon rejects are rejected.
 */
class ConformanceDynamicBucketTest {

  @TempDir Path warehouse;

  /**
   * Each case twice: with Paimon's default target of 2,000,000 keys a bucket (one bucket), and with
   * a target of 2, so that the script's keys spread over several buckets opened as they come.
   */
  static Stream<Arguments> cases() throws Exception {
    return ConformanceCasesTest.cases()
        .filter(c -> c.startsWith("conformance/"))
        .flatMap(c -> Stream.of(Arguments.of(c, "2000000"), Arguments.of(c, "2")));
  }

  @ParameterizedTest(name = "{0} target-row-num {1}")
  @MethodSource("cases")
  void printsWhatPaimonPrintsWithDynamicBuckets(String suiteAndName, String targetRowNum)
      throws Exception {
    String name = suiteAndName.substring("conformance/".length());
    String[] parts = name.split("__");
    ConformanceScript script =
        ConformanceScript.read(
            ConformanceCasesTest.folder("conformance", "scripts").resolve(parts[0] + ".txt"));
    ConformanceRun run =
        new ConformanceRun(
            script,
            parts[0] + ".txt",
            parts[1],
            parts[2],
            Map.of("bucket", "-1", "dynamic-bucket.target-row-num", targetRowNum));
    String paimon =
        PaimonConformanceRun.run(
            script,
            run.options(),
            warehouse.resolve("paimon/db.db/orders"),
            Files.createDirectories(warehouse.resolve("io")));
    if (paimon.startsWith("ERROR")) {
      assertThrows(
          IllegalArgumentException.class,
          () ->
              run.run(warehouse.resolve("ours"), new PrintStream(OutputStream.nullOutputStream())),
          paimon);
      return;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    run.run(warehouse.resolve("ours"), new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(
        ConformanceCasesTest.significant(paimon),
        ConformanceCasesTest.significant(out.toString(StandardCharsets.UTF_8)));
  }
}
