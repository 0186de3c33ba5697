package io.changelake.table;

import static io.changelake.table.BadInputTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.OptionRules;
import io.changelake.schema.TableSchema;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.options.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tables other engines share: every Paimon option is decided, Paimon's own normal tables are
 * accepted, and a table asking for what changelake lacks is refused by name before any file is
 * written, read, expired or cleaned.
 */
class OptionRulesTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  private static List<ConfigOption<?>> paimonOptions() throws IllegalAccessException {
    return PaimonOptionFields.of(CoreOptions.class);
  }

  @Test
  void everyOptionOfPaimonsCoreOptionsHasADecision() throws Exception {
    List<String> undecided = new ArrayList<>();
    for (ConfigOption<?> option : paimonOptions()) {
      String key = option.key().replace("#", "x");
      if (OptionRules.rule(key) == null && !OptionRules.FIELD_OPTION.matcher(key).matches()) {
        undecided.add(option.key());
      }
    }
    assertEquals(List.of(), undecided);
  }

  @Test
  void paimonsDefaultValuesAreAccepted() throws Exception {
    List<String> refused = new ArrayList<>();
    for (ConfigOption<?> option : paimonOptions()) {
      if (!option.hasDefaultValue()) {
        continue;
      }
      Object value = option.defaultValue();
      if (!(value instanceof String
          || value instanceof Boolean
          || value instanceof Integer
          || value instanceof Long
          || value instanceof Enum)) {
        continue;
      }
      OptionRules.Rule rule = OptionRules.rule(option.key());
      if (rule == null || rule.support() == OptionRules.Support.REFUSED) {
        continue;
      }
      try {
        OptionRules.check(option.key(), value.toString());
      } catch (IllegalArgumentException e) {
        refused.add(option.key());
      }
    }
    assertEquals(List.of(), refused);
  }

  @Test
  void everyRuleHasAReason() {
    for (OptionRules.Rule rule : OptionRules.all()) {
      assertTrue(!rule.reason().isBlank(), rule.key());
    }
  }

  static Stream<Arguments> refusedOptions() {
    return Stream.of(
        Arguments.of("deletion-vectors.enabled", "true", "deletion vectors"),
        Arguments.of("bucket", "-2", "postpone bucket"),
        Arguments.of("file.format", "orc", "parquet"),
        Arguments.of("record-level.expire-time", "1 d", "record-level expiry"),
        Arguments.of("commit.force-compact", "true", "compaction forced"),
        Arguments.of("ignore-update-before", "true", "-U"),
        Arguments.of("some.option-from-the-future", "x", "not an option changelake knows"));
  }

  @ParameterizedTest
  @MethodSource("refusedOptions")
  void aPaimonTableAskingForWhatChangelakeLacksIsRefusedBeforeAnyFileIsWritten(
      String key, String value, String why) throws Exception {
    TableSchema ours = Orders.schema(Map.of("changelog-producer", "lookup"));
    Map<String, String> changed = new HashMap<>();
    changed.put(key, value);
    Path folder = warehouse.resolve("db.db/orders");
    PaimonTables.create(folder, ours, changed);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      List<String> before = paths(store);
      Table table = Table.open(store, PATH);
      String option = "'" + key + "'";
      assertMentions(
          assertThrows(UnsupportedTableException.class, table::newWriter),
          option,
          "cannot be written",
          why);
      assertMentions(
          assertThrows(UnsupportedTableException.class, () -> table.newCommit("job")),
          option,
          "cannot be written");
      assertMentions(
          assertThrows(UnsupportedTableException.class, table::newRead), option, "cannot be read");
      assertMentions(
          assertThrows(UnsupportedTableException.class, table::newChangelogScan), option);
      assertMentions(
          assertThrows(UnsupportedTableException.class, table::newSnapshotExpiry),
          option,
          "cannot be expired");
      assertMentions(
          assertThrows(UnsupportedTableException.class, () -> new OrphanFilesClean(table)),
          option,
          "cannot be cleaned");
      assertEquals(before, paths(store));
    }
  }

  @Test
  void aNewTableAskingForWhatChangelakeLacksIsNotCreated() {
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> Orders.schema(Map.of("deletion-vectors.enabled", "true"))),
        "'deletion-vectors.enabled'",
        "deletion vectors");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> Orders.schema(Map.of("bucket", "-1", "bucket-key", "order_id"))),
        "'bucket-key'",
        "bucket' = -1");
  }

  @Test
  void harmlessPaimonOptionsAreAcceptedOnNewTables() {
    TableSchema schema =
        Orders.schema(
            Map.of(
                "manifest.target-file-size", "4 mb",
                "sink.parallelism", "4",
                "deletion-vectors.enabled", "false",
                "snapshot.expire.limit", "5",
                "consumer.expiration-time", "1 d"));
    assertEquals("4", schema.options().get("sink.parallelism"));
  }

  @Test
  void paimonsOwnNormalTablesAreWrittenAndRead() throws Exception {
    for (String reference : List.of("lookup", "input")) {
      Path copy = warehouse.resolve(reference).resolve("db.db");
      copyTree(Path.of("/work/shared/reference/paimon-1.3.1", reference), copy);
      try (LocalObjectStore store = new LocalObjectStore(warehouse.resolve(reference))) {
        Table table = Table.open(store, PATH);
        assertNotNull(table.newRead());
        try (TableWriter writer = table.newWriter()) {
          writer.write(RowKind.INSERT, Orders.row(999_999L, 1L, 1L));
          table.newCommit("ours").commit(1, writer.prepareCommit(1));
        }
      }
      assertTrue(
          PaimonTables.readAll(PaimonTables.open(copy.resolve("orders")), Orders.schema(Map.of()))
              .stream()
              .anyMatch(r -> r[0].equals(999_999L)),
          reference);
    }
  }

  @Test
  void aPaimonTableWithHarmlessAndImplementedOptionsIsWritten() throws Exception {
    TableSchema ours = Orders.schema(Map.of());
    Map<String, String> changed = new HashMap<>();
    changed.put("path", warehouse.resolve("db.db/orders").toString());
    changed.put("snapshot.num-retained.max", "20");
    changed.put("metadata.stats-mode", "full");
    changed.put("sink.parallelism", "2");
    changed.put("manifest.merge-min-count", "10");
    PaimonTables.create(warehouse.resolve("db.db/orders"), ours, changed);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1L, 1L, 1L));
        assertEquals(1, table.newCommit("ours").commit(1, writer.prepareCommit(1)).size());
      }
    }
  }

  private static List<String> paths(LocalObjectStore store) throws Exception {
    List<String> paths = new ArrayList<>();
    for (ObjectInfo info : store.list("")) {
      paths.add(info.path());
    }
    return paths;
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
