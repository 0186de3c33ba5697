package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.types.RowKind;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.beam.sdk.metrics.Metric;
import org.apache.beam.sdk.metrics.MetricName;
import org.junit.jupiter.api.Test;

/**
 * The metrics follow one convention, Beam's: camelCase names in one namespace per transform kind
 * ({@code changelake.write}, {@code changelake.read}), each listed in the operator guide.
 */
class MetricNamesTest {

  private static final Pattern CAMEL_CASE = Pattern.compile("[a-z]+([A-Z][a-z0-9]*)*");
  private static final Path OPERATOR_GUIDE =
      Path.of("src/main/java/io/changelake/beam/package-info.java");

  @Test
  void writeMetricsAreCamelCaseInTheWriteNamespaceAndDocumented() throws Exception {
    assertEquals("changelake.write", WriteMetrics.NAMESPACE);
    assertFollowTheConvention(WriteMetrics.NAMESPACE, metricsOf(WriteMetrics.class));
  }

  @Test
  void readMetricsAreCamelCaseInTheReadNamespaceAndDocumented() throws Exception {
    assertEquals("changelake.read", ReadMetrics.NAMESPACE);
    List<MetricName> names = metricsOf(ReadMetrics.class);
    for (RowKind kind : RowKind.values()) {
      names.add(ReadMetrics.rows(kind).getName());
    }
    assertFollowTheConvention(ReadMetrics.NAMESPACE, names);
  }

  private static List<MetricName> metricsOf(Class<?> holder) throws IllegalAccessException {
    List<MetricName> names = new ArrayList<>();
    for (Field f : holder.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers()) && Metric.class.isAssignableFrom(f.getType())) {
        f.setAccessible(true);
        names.add(((Metric) f.get(null)).getName());
      }
    }
    assertTrue(names.size() > 3, "found only " + names + " in " + holder.getSimpleName());
    return names;
  }

  private static void assertFollowTheConvention(String namespace, List<MetricName> names)
      throws Exception {
    String guide = Files.readString(OPERATOR_GUIDE);
    HashSet<String> seen = new HashSet<>();
    for (MetricName name : names) {
      assertEquals(namespace, name.getNamespace(), name.toString());
      assertTrue(CAMEL_CASE.matcher(name.getName()).matches(), name + " is not camelCase");
      assertTrue(seen.add(name.getName()), name + " is declared twice");
      assertTrue(
          Pattern.compile("\\b" + name.getName() + "\\b").matcher(guide).find(),
          name + " is missing from the operator guide (package-info)");
    }
  }
}
