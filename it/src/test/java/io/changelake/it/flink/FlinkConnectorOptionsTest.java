package io.changelake.it.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.OptionRules;
import io.changelake.table.PaimonOptionFields;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.flink.FlinkConnectorOptions;
import org.apache.paimon.options.ConfigOption;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.Test;

/**
 * The options of Paimon 1.3.1's Flink connector, which a Flink SQL user may put on a table, each
 * have a decision in {@link OptionRules} (storage-s3's {@code OptionRulesTest} holds Paimon's
 * {@code CoreOptions} to the same): a table Flink made with them is not refused as unknown, and
 * their defaults are accepted.
 */
class FlinkConnectorOptionsTest {

  private static List<ConfigOption<?>> flinkOptions() throws IllegalAccessException {
    return PaimonOptionFields.of(FlinkConnectorOptions.class);
  }

  @Test
  void everyOptionOfPaimonsFlinkConnectorHasADecision() throws Exception {
    List<ConfigOption<?>> options = flinkOptions();
    assertTrue(options.size() > 40, "read " + options.size() + " options");
    List<String> undecided = new ArrayList<>();
    for (ConfigOption<?> option : options) {
      if (OptionRules.rule(option.key()) == null) {
        undecided.add(option.key());
      }
    }
    assertEquals(List.of(), undecided);
  }

  @Test
  void theFlinkConnectorsDefaultValuesAreAccepted() throws Exception {
    List<String> refused = new ArrayList<>();
    for (ConfigOption<?> option : flinkOptions()) {
      if (!option.hasDefaultValue()) {
        continue;
      }
      // As Paimon writes the value into a table's options: durations, sizes and enums as text.
      String value = asWritten(option);
      try {
        OptionRules.check(option.key(), value);
      } catch (IllegalArgumentException e) {
        refused.add(option.key() + " = " + value + ": " + e.getMessage());
      }
    }
    assertEquals(List.of(), refused);
  }

  @Test
  void aFullCompactionOnATimerIsRefusedNamingTheOption() {
    OptionRules.check("changelog-producer.compaction-interval", "0s");
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () -> OptionRules.check("changelog-producer.compaction-interval", "2 min"));
    assertTrue(
        refused.getMessage().contains("changelog-producer.compaction-interval")
            && refused.getMessage().contains("'0 s'"),
        refused.getMessage());
  }

  private static <T> String asWritten(ConfigOption<T> option) {
    Options options = new Options();
    options.set(option, option.defaultValue());
    return options.toMap().get(option.key());
  }
}
