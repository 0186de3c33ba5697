package io.changelake.table;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.options.ConfigOption;

/**
 * Test fixture: the options a Paimon class declares ({@code CoreOptions}, the Flink connector's
 * {@code FlinkConnectorOptions}), for the tests that hold each to a decision of changelake's.
 */
public final class PaimonOptionFields {

  private PaimonOptionFields() {}

  /** Every {@link ConfigOption} constant {@code holder} declares. */
  public static List<ConfigOption<?>> of(Class<?> holder) throws IllegalAccessException {
    List<ConfigOption<?>> options = new ArrayList<>();
    for (Field f : holder.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == ConfigOption.class) {
        options.add((ConfigOption<?>) f.get(null));
      }
    }
    return options;
  }
}
