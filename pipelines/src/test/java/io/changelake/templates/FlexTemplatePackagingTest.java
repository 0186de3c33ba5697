package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Flex Template packaging agrees with the templates: the Dockerfile starts the main class given
 * at build time from the class path the {@code dataflow} profile copies, and for each template the
 * documented commands ({@code flex-template/README.md}) build its image with its main class,
 * register its metadata file, and run it with parameters that the metadata lists, that match the
 * metadata's regexes, that cover every required parameter, and that its Options class accepts.
 */
class FlexTemplatePackagingTest {

  private static final Path FOLDER = Path.of("flex-template");

  @Test
  void dockerfileStartsTheMainClassGivenAtBuildFromTheCopiedClassPath() throws Exception {
    String dockerfile = Files.readString(FOLDER.resolve("Dockerfile"));
    assertTrue(
        dockerfile.contains("FROM gcr.io/dataflow-templates-base/java17-template-launcher-base"),
        "Java 17 launcher base, as the build's release 17");
    assertTrue(dockerfile.contains("ARG TEMPLATE_MAIN_CLASS\n"));
    assertTrue(dockerfile.contains("ENV FLEX_TEMPLATE_JAVA_MAIN_CLASS=${TEMPLATE_MAIN_CLASS}\n"));
    assertTrue(dockerfile.contains("ENV FLEX_TEMPLATE_JAVA_CLASSPATH=/template/lib/*\n"));
    assertTrue(dockerfile.contains("COPY pipelines/target/flex-template-lib/ /template/lib/\n"));
    String pom = Files.readString(Path.of("pom.xml"));
    assertTrue(
        pom.contains(
            "<outputDirectory>${project.build.directory}/flex-template-lib</outputDirectory>"),
        "the dataflow profile copies the class path where the Dockerfile takes it");
    assertTrue(pom.contains("<artifactId>beam-runners-google-cloud-dataflow-java</artifactId>"));
  }

  @ParameterizedTest
  @EnumSource(TemplateCatalog.class)
  void documentedCommandsAgreeWithTheTemplate(TemplateCatalog template) throws Exception {
    String name = template.templateName();
    String section = section(Files.readString(FOLDER.resolve("README.md")), name);

    Class<?> mainClass = template.optionsType().getEnclosingClass();
    Method main = mainClass.getMethod("main", String[].class);
    assertTrue(Modifier.isStatic(main.getModifiers()), mainClass + ".main is static");
    assertTrue(
        section.contains(
            "--build-arg TEMPLATE_MAIN_CLASS=" + mainClass.getName() + " -t $REPO/" + name + ":"),
        name + ": the image starts " + mainClass.getName());
    assertTrue(
        section.contains(
            "gcloud dataflow flex-template build gs://$BUCKET/templates/" + name + ".json"));
    assertTrue(
        section.contains(
            "--metadata-file pipelines/src/main/resources" + template.metadataResource()));
    assertTrue(Files.exists(Path.of("src/main/resources" + template.metadataResource())));
    assertTrue(
        section.contains("--template-file-gcs-location gs://$BUCKET/templates/" + name + ".json"));

    Map<String, String> parameters = runParameters(section);
    Map<String, JsonNode> metadata = metadataParameters(template);
    List<String> args = new ArrayList<>();
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      JsonNode declared = metadata.get(p.getKey());
      assertNotNull(declared, name + ": parameter " + p.getKey() + " is not in the metadata");
      for (JsonNode regex : declared.path("regexes")) {
        assertTrue(
            Pattern.compile(regex.asText()).matcher(p.getValue()).matches(),
            name + ": " + p.getKey() + "=" + p.getValue() + " does not match " + regex.asText());
      }
      args.add("--" + p.getKey() + "=" + p.getValue());
    }
    metadata.forEach(
        (parameter, declared) -> {
          if (!declared.path("isOptional").asBoolean()) {
            assertTrue(
                parameters.containsKey(parameter), name + ": required " + parameter + " missing");
          }
        });
    assertDoesNotThrow(
        () ->
            PipelineOptionsFactory.fromArgs(args.toArray(String[]::new))
                .withValidation()
                .as(template.optionsType()),
        name + ": the Options class accepts the documented parameters");
  }

  /** The README's section for one template: from its heading to the next. */
  private static String section(String readme, String name) {
    int start = readme.indexOf("\n## " + name + "\n");
    assertTrue(start >= 0, "flex-template/README.md has a section ## " + name);
    int end = readme.indexOf("\n## ", start + 1);
    return readme.substring(start, end < 0 ? readme.length() : end);
  }

  /** The {@code --parameters ^~^a=1~b=2} of the section's run command, in order. */
  private static Map<String, String> runParameters(String section) {
    Matcher m = Pattern.compile("--parameters \\^~\\^(\\S+)").matcher(section);
    assertTrue(m.find(), "a run command with --parameters ^~^...");
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String pair : m.group(1).split("~")) {
      int eq = pair.indexOf('=');
      assertTrue(eq > 0, pair);
      assertEquals(null, parameters.put(pair.substring(0, eq), pair.substring(eq + 1)), pair);
    }
    return parameters;
  }

  private static Map<String, JsonNode> metadataParameters(TemplateCatalog template)
      throws Exception {
    Map<String, JsonNode> parameters = new LinkedHashMap<>();
    try (InputStream in = TemplateCatalog.class.getResourceAsStream(template.metadataResource())) {
      for (JsonNode p : new ObjectMapper().readTree(in).path("parameters")) {
        parameters.put(p.path("name").asText(), p);
      }
    }
    return parameters;
  }
}
