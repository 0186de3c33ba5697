package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.tag.TagPeriodHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Automatic tags ({@code tag.automatic-creation=process-time}) name and place their tags as Paimon
 * 1.3.1 does: the period rules against Paimon's own period handler, and whole runs against Paimon's
 * tag creation on a copy of the same table.
 */
class AutoTagsTest {

  private static final TablePath PATH = ChangelogScanTest.PATH;

  @TempDir Path folder;

  static Stream<Arguments> periods() {
    return Stream.of(
        Arguments.of(Map.of("tag.creation-period", "daily")),
        Arguments.of(
            Map.of("tag.creation-period", "daily", "tag.period-formatter", "without_dashes")),
        Arguments.of(Map.of("tag.creation-period", "hourly")),
        Arguments.of(
            Map.of("tag.creation-period", "hourly", "tag.period-formatter", "without_dashes")),
        Arguments.of(
            Map.of(
                "tag.creation-period",
                "hourly",
                "tag.period-formatter",
                "without_dashes_and_spaces")),
        Arguments.of(
            Map.of("tag.creation-period", "two-hours", "tag.period-formatter", "without_dashes")),
        Arguments.of(Map.of("tag.creation-period-duration", "30 min")));
  }

  @ParameterizedTest
  @MethodSource("periods")
  void periodsNameTagsAsPaimonsPeriodHandler(Map<String, String> options) {
    TagPeriod ours = TagPeriod.of(Orders.schema(options).options());
    TagPeriodHandler paimon = TagPeriodHandler.create(CoreOptions.fromMap(options));
    Random random = new Random(11);
    for (int i = 0; i < 2_000; i++) {
      LocalDateTime time =
          LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(random.nextInt(3 * 365 * 24 * 3600));
      LocalDateTime closes = paimon.normalizeToPreviousTag(time);
      assertEquals(closes, ours.previousStart(time), time.toString());
      String name = paimon.timeToTag(closes);
      assertEquals(name, ours.name(closes), time.toString());
      assertEquals(paimon.tagToTime(name), ours.start(name), name);
    }
    for (String other : List.of("release-1", "savepoint", "2026-12-01x")) {
      assertEquals(paimon.isAutoTag(other), ours.start(other) != null, other);
    }
  }

  /** Six commits, then their commit times rewritten to these local times. */
  private static final List<LocalDateTime> TIMES =
      List.of(
          LocalDateTime.of(2026, 11, 28, 10, 0),
          LocalDateTime.of(2026, 11, 28, 23, 0),
          LocalDateTime.of(2026, 11, 29, 0, 30),
          LocalDateTime.of(2026, 11, 29, 12, 0),
          LocalDateTime.of(2026, 12, 2, 9, 0),
          LocalDateTime.of(2026, 12, 2, 10, 0));

  static Stream<Arguments> runs() {
    return Stream.of(
        Arguments.of(Map.of()),
        Arguments.of(Map.of("tag.num-retained-max", "2")),
        Arguments.of(Map.of("tag.automatic-completion", "true")),
        Arguments.of(Map.of("tag.creation-delay", "1 h")),
        Arguments.of(Map.of("tag.creation-period", "hourly", "tag.num-retained-max", "3")));
  }

  @ParameterizedTest
  @MethodSource("runs")
  void aRunTagsTheSnapshotsPaimonTags(Map<String, String> settings) throws Exception {
    Path ours = folder.resolve("ours");
    Path theirs = folder.resolve("paimon");
    Map<String, String> autoTags = new HashMap<>(settings);
    autoTags.put("tag.automatic-creation", "process-time");
    try (LocalObjectStore store = new LocalObjectStore(ours)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of("bucket", "1")));
      for (int c = 1; c <= TIMES.size(); c++) {
        try (TableWriter writer = table.newWriter()) {
          writer.write(RowKind.INSERT, Orders.row(c, 1L, (long) c));
          table.newCommit("test").commit(c, writer.prepareCommit(c));
        }
        retime(store, c, TIMES.get(c - 1));
      }
      table.tags().create("release", 2);
      copy(ours, theirs);

      Map<String, String> all = new LinkedHashMap<>(table.schema().options().asMap());
      all.putAll(autoTags);
      TableSchema tagging =
          TableSchema.create(Orders.ROW_TYPE, List.of(), List.of("order_id"), all, null);
      AutoTags.of(new Table(store, PATH, tagging)).run();

      FileStoreTable paimon = PaimonTables.open(theirs.resolve(PATH.root())).copy(autoTags);
      paimon.store().newTagAutoManager(paimon).run();

      Map<String, Long> expected = new TreeMap<>();
      paimon.tagManager().tags().forEach((s, names) -> names.forEach(n -> expected.put(n, s.id())));
      Map<String, Long> actual = new TreeMap<>();
      table.tags().list().forEach((name, s) -> actual.put(name, s.id()));
      assertEquals(expected, actual, settings.toString());
      assertTrue(actual.containsKey("release"));
    }
  }

  @Test
  void aCommitTagsItsTableAutomatically() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(folder)) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(Map.of("bucket", "1", "tag.automatic-creation", "process-time")));
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1, 1L, 1L));
        table.newCommit("test").commit(1, writer.prepareCommit(1));
      }
      Snapshot first = table.snapshots().read(1);
      LocalDateTime committed =
          LocalDateTime.ofInstant(
              java.time.Instant.ofEpochMilli(first.timeMillis()), ZoneId.systemDefault());
      // The first snapshot closes the day before its own: Paimon names its tag after that day.
      String yesterday = committed.toLocalDate().minusDays(1).toString();
      assertEquals(Map.of(yesterday, 1L), ids(table.tags().list()));
      assertTrue(PaimonTables.open(folder.resolve(PATH.root())).tagManager().tagExists(yesterday));
    }
  }

  private static Map<String, Long> ids(Map<String, Snapshot> tags) {
    Map<String, Long> ids = new TreeMap<>();
    tags.forEach((name, s) -> ids.put(name, s.id()));
    return ids;
  }

  @Test
  void aDelayNotShorterThanThePeriodIsRefused() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(folder)) {
      Table table =
          Table.create(
              store,
              PATH,
              Orders.schema(
                  Map.of(
                      "bucket", "1",
                      "tag.automatic-creation", "process-time",
                      "tag.creation-period", "hourly",
                      "tag.creation-delay", "1 h")));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> AutoTags.of(table));
      assertTrue(e.getMessage().startsWith("tag.creation-delay"), e.getMessage());
      assertNull(
          AutoTags.of(
              Table.create(store, new TablePath("shop", "plain"), Orders.schema(Map.of()))));
    }
  }

  /** Rewrites a snapshot's commit time, so that a run sees commits spread over days. */
  private static void retime(LocalObjectStore store, long id, LocalDateTime time) throws Exception {
    String file = PATH.root() + "snapshot/snapshot-" + id;
    String json = new String(store.read(file), StandardCharsets.UTF_8);
    long millis = time.atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
    store.write(
        file,
        json.replaceFirst("(\"timeMillis\"\\s*:\\s*)\\d+", "$1" + millis)
            .getBytes(StandardCharsets.UTF_8));
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }
}
