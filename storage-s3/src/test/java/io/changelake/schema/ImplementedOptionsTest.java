package io.changelake.schema;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The declarations are the one list of implemented options: the README's option table matches them
 * row for row, every stored default is within its own bounds, each key is declared once, and a
 * value out of bounds is refused naming the option, the value and the bound.
 */
class ImplementedOptionsTest {

  private static final String HEADER = "| option | default | meaning |";

  /** The README row of a declaration: key, default (a stored value in backticks), meaning. */
  private static String row(TableOption<?> option) {
    String defaultCell;
    if (!option.storedDefault()) {
      defaultCell = option.defaultText();
    } else if (option.defaultText().isEmpty()) {
      defaultCell = "unset";
    } else {
      defaultCell = "`" + option.defaultText() + "`";
    }
    return "| `" + option.key() + "` | " + defaultCell + " | " + option.description() + " |";
  }

  /** The rows of the README's option table, from the row after its header separator. */
  private static List<String> readmeRows() throws Exception {
    // Surefire runs in the module folder; the README is the repository's.
    List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
    int header = lines.indexOf(HEADER);
    assertTrue(header >= 0, "README.md has an option table headed " + HEADER);
    List<String> rows = new ArrayList<>();
    for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      rows.add(lines.get(i));
    }
    return rows;
  }

  @Test
  void theReadmeOptionTableIsExactlyTheDeclaredOptionsWithTheirDefaults() throws Exception {
    List<String> declared =
        ImplementedOptions.ALL.stream().map(ImplementedOptionsTest::row).toList();
    assertEquals(String.join("\n", declared), String.join("\n", readmeRows()));
  }

  @Test
  void everyStoredDefaultIsWithinItsOwnBounds() {
    for (TableOption<?> option : ImplementedOptions.ALL) {
      if (option.storedDefault()) {
        assertDoesNotThrow(() -> option.check(option.defaultText()), option.key());
      }
    }
  }

  @Test
  void everyOptionIsDeclaredOnceAndDescribed() {
    Set<String> keys = new HashSet<>();
    for (TableOption<?> option : ImplementedOptions.ALL) {
      assertTrue(keys.add(option.key()), option.key() + " is declared twice");
      assertTrue(!option.description().isBlank(), option.key());
    }
  }

  @Test
  void everyDeclaredOptionIsImplementedInTheRulesAndNoOtherIs() {
    Set<String> declared = new HashSet<>();
    for (TableOption<?> option : ImplementedOptions.ALL) {
      if (!option.perColumn()) {
        declared.add(option.key());
      }
    }
    Set<String> implemented = new HashSet<>();
    for (OptionRules.Rule rule : OptionRules.all()) {
      if (rule.support() == OptionRules.Support.IMPLEMENTED) {
        implemented.add(rule.key());
      }
    }
    assertEquals(declared, implemented);
  }

  @Test
  void perColumnOptionsAreFoundByTheirKind() {
    assertEquals(
        ImplementedOptions.AGGREGATE_FUNCTION,
        OptionRules.perColumnOption("fields.amount.aggregate-function"));
    assertEquals(
        ImplementedOptions.SEQUENCE_GROUP,
        OptionRules.perColumnOption("fields.a,b.sequence-group"));
    assertEquals(null, OptionRules.perColumnOption("fields.amount.median"));
    assertEquals(
        "fields.amount.ignore-retract", ImplementedOptions.IGNORE_RETRACT.forColumn("amount"));
  }

  /** The options that had no bounds before the declarations, and a value beyond each bound. */
  @ParameterizedTest
  @CsvSource({
    "compaction.size-ratio, -1, must be at least 0",
    "compaction.max-size-amplification-percent, -5, must be at least 0",
    "file.compression.zstd-level, 0, must be from 1 to 22",
    "file.compression.zstd-level, 23, must be from 1 to 22",
    "page-size, 0, must be from 1 b to 1 gb",
  })
  void aValueOutOfBoundsIsRefusedNamingTheOptionTheValueAndTheBound(
      String key, String value, String bound) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> OptionRules.check(key, value));
    for (String word : List.of("'" + key + "'", "'" + value + "'", bound, "got " + value)) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' not in: " + e.getMessage());
    }
  }

  @Test
  void aMalformedValueIsRefusedWithTheFormExpected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> OptionRules.check("target-file-size", "big"));
    assertTrue(e.getMessage().contains("'target-file-size' = 'big'"), e.getMessage());
    assertTrue(e.getMessage().contains("expected a size such as '128 mb'"), e.getMessage());
  }

  @Test
  void anUnknownOptionIsRefusedListingTheImplementedOnes() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> OptionRules.check("bukcet", "2"));
    assertTrue(e.getMessage().contains("check the spelling"), e.getMessage());
    for (TableOption<?> option : ImplementedOptions.ALL) {
      assertTrue(
          e.getMessage().contains(option.key()), option.key() + " not in: " + e.getMessage());
    }
  }
}
