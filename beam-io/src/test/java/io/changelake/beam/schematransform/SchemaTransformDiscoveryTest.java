package io.changelake.beam.schematransform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.transforms.SchemaTransformProvider;
import org.junit.jupiter.api.Test;

/**
 * Each changelake provider is found by {@link ServiceLoader}, as the expansion service, Beam YAML
 * and Managed find them, under its URN, and its configuration speaks snake_case with a description
 * on every field.
 */
class SchemaTransformDiscoveryTest {

  @Test
  void serviceLoaderFindsEveryProviderUnderItsUrn() {
    Map<String, Class<?>> found = new TreeMap<>();
    for (SchemaTransformProvider provider : ServiceLoader.load(SchemaTransformProvider.class)) {
      if (provider.identifier().startsWith("beam:schematransform:org.changelake:")) {
        found.put(provider.identifier(), provider.getClass());
      }
    }
    assertEquals(
        Map.of(
            "beam:schematransform:org.changelake:read:v1", ReadSchemaTransformProvider.class,
            "beam:schematransform:org.changelake:read_changelog:v1",
                ReadChangelogSchemaTransformProvider.class,
            "beam:schematransform:org.changelake:write:v1", WriteSchemaTransformProvider.class),
        found);
  }

  @Test
  void everyConfigurationFieldIsSnakeCaseAndDescribed() {
    for (SchemaTransformProvider provider : ServiceLoader.load(SchemaTransformProvider.class)) {
      if (!provider.identifier().startsWith("beam:schematransform:org.changelake:")) {
        continue;
      }
      assertFalse(provider.description().isBlank(), provider.identifier());
      for (Schema.Field field : provider.configurationSchema().getFields()) {
        String where = provider.identifier() + " field " + field.getName();
        assertTrue(field.getName().matches("[a-z][a-z0-9]*(_[a-z0-9]+)*"), where);
        assertFalse(field.getDescription() == null || field.getDescription().isBlank(), where);
      }
    }
  }
}
