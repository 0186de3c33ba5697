package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.beans.Introspector;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.TreeSet;
import org.apache.beam.sdk.options.Description;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each template's metadata JSON parses, has the Flex Template shape, and lists exactly the options
 * its Options interface declares (the described getters of this package's interfaces).
 */
class TemplateMetadataTest {

  @ParameterizedTest
  @EnumSource(TemplateCatalog.class)
  void metadataListsExactlyTheTemplatesOptions(TemplateCatalog template) throws Exception {
    JsonNode metadata;
    try (InputStream in = TemplateCatalog.class.getResourceAsStream(template.metadataResource())) {
      assertNotNull(in, template.metadataResource());
      metadata = new ObjectMapper().readTree(in);
    }
    assertFalse(metadata.path("name").asText().isBlank());
    assertFalse(metadata.path("description").asText().isBlank());
    Set<String> listed = new TreeSet<>();
    for (JsonNode parameter : metadata.path("parameters")) {
      assertTrue(listed.add(parameter.path("name").asText()), "listed twice: " + parameter);
      assertFalse(parameter.path("label").asText().isBlank(), parameter.toString());
      assertFalse(parameter.path("helpText").asText().isBlank(), parameter.toString());
      assertTrue(parameter.path("isOptional").isBoolean(), parameter.toString());
      for (JsonNode regex : parameter.path("regexes")) {
        java.util.regex.Pattern.compile(regex.asText());
      }
    }
    assertEquals(declaredOptions(template.optionsType()), listed);
  }

  private static Set<String> declaredOptions(Class<?> options) {
    Set<String> names = new TreeSet<>();
    for (Method getter : options.getMethods()) {
      boolean ours =
          getter.getDeclaringClass().getPackage().equals(TemplateCatalog.class.getPackage());
      if (ours && getter.isAnnotationPresent(Description.class)) {
        String name = getter.getName();
        names.add(Introspector.decapitalize(name.substring(name.startsWith("is") ? 2 : 3)));
      }
    }
    return names;
  }
}
