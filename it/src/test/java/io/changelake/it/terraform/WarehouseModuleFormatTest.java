package io.changelake.it.terraform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** terraform/ is laid out as terraform fmt writes it. */
class WarehouseModuleFormatTest {

  @Test
  void everyTerraformFileFollowsTheCanonicalLayout() throws Exception {
    List<String> problems = new ArrayList<>();
    List<Path> files = new ArrayList<>(Hcl.allTfFiles());
    // terraform fmt formats .tfvars too; the example's sample is one in all but name.
    try (var stream = Files.walk(Hcl.terraformRoot())) {
      stream.filter(p -> p.toString().contains(".tfvars")).forEach(files::add);
    }
    for (Path file : files) {
      for (String problem : HclFormat.problems(Files.readString(file, StandardCharsets.UTF_8))) {
        problems.add(Hcl.terraformRoot().relativize(file) + " " + problem);
      }
    }
    assertEquals(List.of(), problems);
  }

  /** Where a terraform binary is on the PATH (not in CI by default), it has the last word. */
  @Test
  void terraformFmtFindsNothingToChangeWhenInstalled() throws Exception {
    Path terraform = onPath("terraform");
    assumeTrue(terraform != null, "no terraform binary on the PATH");
    ProcessBuilder pb =
        new ProcessBuilder(terraform.toString(), "fmt", "-check", "-recursive", "-diff", ".")
            .directory(Hcl.terraformRoot().toFile())
            .redirectErrorStream(true);
    pb.environment().put("CHECKPOINT_DISABLE", "1");
    Process process = pb.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "terraform fmt did not finish");
    assertEquals(0, process.exitValue(), output);
  }

  @Test
  void checkerAcceptsCanonicalText() {
    String text =
        """
        resource "aws_s3_bucket" "this" {
          bucket = var.name
          tags   = var.tags

          # Comments break an alignment run.
          force_destroy = false
          values        = ["${local.prefix}/*", "a = b"]
          actions = [
            "s3:GetObject",
          ]

          rule {
            condition = var.x == null || var.y != "{"
          }
        }
        """;
    assertEquals(List.of(), HclFormat.problems(text));
  }

  @Test
  void checkerReportsMisalignedEqualsSigns() {
    String text = "a {\n  bucket = 1\n  tags = 2\n}\n";
    assertEquals(List.of("line 3: '=' at column 8, expected 10"), HclFormat.problems(text));
  }

  @Test
  void checkerReportsPaddingBeyondTheLongestName() {
    String text = "a {\n  bucket  = 1\n  tags    = 2\n}\n";
    assertEquals(2, HclFormat.problems(text).size(), HclFormat.problems(text).toString());
  }

  @Test
  void checkerReportsWrongIndentation() {
    String text = "a {\n   b = 1\n  c {\n  d = 2\n  }\n}\n";
    assertEquals(
        List.of("line 2: indented 3, expected 2", "line 4: indented 2, expected 4"),
        HclFormat.problems(text));
  }

  @Test
  void checkerReportsTrailingWhitespaceTabsAndMissingNewline() {
    assertEquals(List.of("does not end with a newline"), HclFormat.problems("a = 1"));
    assertEquals(List.of("line 1: trailing whitespace"), HclFormat.problems("a = 1 \n"));
    assertEquals(
        List.of("line 2: tab", "line 2: indented 1, expected 2"),
        HclFormat.problems("a {\n\tb = 1\n}\n"));
    assertEquals(List.of("ends with blank lines"), HclFormat.problems("a = 1\n\n"));
  }

  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
