package io.changelake.it.terraform;

import com.bertramlabs.plugins.hcl4j.HCLParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads terraform/ with hcl4j and walks the maps it returns.
 *
 * <p>hcl4j evaluates what it can: a reference to something it does not know (a resource attribute,
 * or a variable or local of another file) stays as its source text, so {@code
 * "${aws_s3_bucket.this.arn}/${local.prefix}/*"} comes back as {@code
 * "aws_s3_bucket.this.arn/local.prefix/*"}. The tests rely on that to compare references.
 */
final class Hcl {
  private Hcl() {}

  /** The repository's terraform/ folder, found from the working directory (it/ under Maven). */
  static Path terraformRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      Path candidate = p.resolve("terraform");
      if (Files.isDirectory(candidate.resolve("modules/warehouse"))) {
        return candidate;
      }
    }
    throw new IllegalStateException("no terraform/modules/warehouse above " + dir);
  }

  static Path moduleDir() {
    return terraformRoot().resolve("modules/warehouse");
  }

  static Path exampleDir() {
    return terraformRoot().resolve("examples/basic");
  }

  /** Every .tf file under terraform/, sorted, without provider caches. */
  static List<Path> allTfFiles() {
    try (Stream<Path> files = Files.walk(terraformRoot())) {
      return files
          .filter(p -> p.toString().endsWith(".tf"))
          .filter(p -> !p.toString().contains("/.terraform/"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> parse(Path file) {
    return parse(file, Map.of());
  }

  /**
   * The parse tree with hcl4j's unresolved references (VariableTree and other runtime symbols)
   * turned into their source text, so tests compare plain strings.
   */
  private static Object plain(Object node) {
    if (node == null
        || node instanceof String
        || node instanceof Boolean
        || node instanceof Number) {
      return node;
    }
    if (node instanceof Map<?, ?> m) {
      Map<String, Object> copy = new LinkedHashMap<>();
      m.forEach((k, v) -> copy.put(String.valueOf(k), plain(v)));
      return copy;
    }
    if (node instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(plain(v)));
      return copy;
    }
    return node.toString();
  }

  /** Parses one file, with variables set as terraform would from tfvars or defaults. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parse(Path file, Map<String, Object> variables) {
    HCLParser parser = new HCLParser();
    variables.forEach(parser::setVariable);
    // hcl4j prints its evaluation steps to System.out; keep them out of the test report.
    PrintStream out = System.out;
    synchronized (Hcl.class) {
      System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
      try {
        return (Map<String, Object>) plain(parser.parse(file.toFile(), StandardCharsets.UTF_8));
      } catch (Exception e) {
        throw new AssertionError("hcl4j cannot parse " + file + ": " + e, e);
      } finally {
        System.setOut(out);
      }
    }
  }

  /** The default of every variable that has one, from a variables.tf. */
  static Map<String, Object> variableDefaults(Path variablesFile) {
    Map<String, Object> defaults = new java.util.HashMap<>();
    map(parse(variablesFile), "variable")
        .forEach(
            (name, body) -> {
              Object value = ((Map<?, ?>) body).get("default");
              if (value != null) {
                defaults.put(name, value);
              }
            });
    return defaults;
  }

  /** A nested map by path; fails the test naming the missing key. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> root, String... path) {
    Object node = root;
    StringBuilder where = new StringBuilder();
    for (String key : path) {
      where.append('/').append(key);
      if (!(node instanceof Map<?, ?> m) || !m.containsKey(key)) {
        throw new AssertionError("missing " + where);
      }
      node = m.get(key);
    }
    if (!(node instanceof Map<?, ?>)) {
      throw new AssertionError(where + " is not a block but " + node);
    }
    return (Map<String, Object>) node;
  }

  /**
   * The blocks of one type inside a body: hcl4j gives a single block as a map and repeated blocks
   * as a list of maps.
   */
  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> blocks(Map<String, Object> body, String type) {
    Object value = body.get(type);
    if (value == null) {
      return List.of();
    }
    if (value instanceof Map<?, ?> m) {
      return List.of((Map<String, Object>) m);
    }
    List<Map<String, Object>> result = new ArrayList<>();
    for (Object o : (List<?>) value) {
      result.add((Map<String, Object>) o);
    }
    return result;
  }

  /** A list attribute as strings (a lone value counts as a one-element list). */
  static List<String> strings(Map<String, Object> body, String attribute) {
    Object value = body.get(attribute);
    if (value == null) {
      return List.of();
    }
    if (value instanceof List<?> list) {
      return list.stream().map(String::valueOf).toList();
    }
    return Collections.singletonList(String.valueOf(value));
  }

  /**
   * One IAM statement of a data "aws_iam_policy_document", and whether it came from a dynamic
   * block.
   */
  record Statement(Map<String, Object> body, boolean dynamic, List<String> forEach) {
    String sid() {
      return String.valueOf(body.get("sid"));
    }

    boolean allows() {
      // aws_iam_policy_document's effect defaults to Allow.
      Object effect = body.get("effect");
      return effect == null || "Allow".equals(effect);
    }

    List<String> actions() {
      return strings(body, "actions");
    }

    List<String> resources() {
      return strings(body, "resources");
    }

    List<Map<String, Object>> conditions() {
      return blocks(body, "condition");
    }

    @Override
    public String toString() {
      return body.toString();
    }
  }

  /** All statements of a policy document, the content of dynamic "statement" blocks included. */
  static List<Statement> statements(Map<String, Object> policyDocument) {
    List<Statement> result = new ArrayList<>();
    for (Map<String, Object> s : blocks(policyDocument, "statement")) {
      result.add(new Statement(s, false, List.of()));
    }
    Object dynamic = policyDocument.get("dynamic");
    if (dynamic instanceof Map<?, ?> d) {
      @SuppressWarnings("unchecked")
      Map<String, Object> dynamicBlocks = (Map<String, Object>) d;
      for (Map<String, Object> block : blocks(dynamicBlocks, "statement")) {
        result.add(new Statement(map(block, "content"), true, strings(block, "for_each")));
      }
    }
    return result;
  }
}
