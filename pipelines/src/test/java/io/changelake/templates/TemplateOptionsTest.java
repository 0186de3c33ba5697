package io.changelake.templates;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A template launched with a wrong option fails before its pipeline starts, naming the option. */
class TemplateOptionsTest {

  @TempDir Path folder;

  private List<String> cdcToAggregate() {
    return new ArrayList<>(
        List.of(
            "--inputFilePattern=" + folder.resolve("*.json"),
            "--warehouse=" + folder.resolve("warehouse"),
            "--table=orders",
            "--columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT",
            "--primaryKeys=order_id",
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=store_totals",
            "--deadLetterDir=" + folder.resolve("dead")));
  }

  /** The arguments with {@code option} set, replacing an earlier value (Beam refuses repeats). */
  private static List<String> with(List<String> args, String option) {
    List<String> changed = new ArrayList<>(args);
    changed.removeIf(a -> a.startsWith(option.substring(0, option.indexOf('=') + 1)));
    changed.add(option);
    return changed;
  }

  private void assertRefused(TemplateCatalog template, List<String> args, String expected) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> template.run(args.toArray(String[]::new)));
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    // Nothing ran: no table, no dead-letter folder.
    assertTrue(
        !folder.resolve("warehouse").toFile().exists()
            && !folder.resolve("dead").toFile().exists());
  }

  @Test
  void unknownProducerIsRefusedNamingTheOption() {
    List<String> args = with(cdcToAggregate(), "--producer=upsert");
    assertRefused(
        TemplateCatalog.CDC_TO_AGGREGATE,
        args,
        "--producer=upsert is not valid: use one of none, input, lookup, full-compaction");
    assertRefused(TemplateCatalog.CDC_TO_TABLE, args.subList(0, 5), "--deadLetterDir is missing");
  }

  @Test
  void missingWarehouseIsRefusedNamingTheOption() {
    List<String> args = cdcToAggregate();
    args.removeIf(a -> a.startsWith("--warehouse="));
    assertRefused(TemplateCatalog.CDC_TO_AGGREGATE, args, "--warehouse is missing");
    assertRefused(
        TemplateCatalog.CHANGELOG_TO_AGGREGATE,
        List.of(
            "--sourceTable=orders",
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=t",
            "--deadLetterDir=" + folder.resolve("dead")),
        "--warehouse is missing");
  }

  @Test
  void columnsAndAggregateColumnsAreChecked() {
    assertRefused(
        TemplateCatalog.CDC_TO_AGGREGATE,
        with(cdcToAggregate(), "--primaryKeys=id"),
        "--columns=order_id:BIGINT,store_id:BIGINT,amount:BIGINT with --primaryKeys=id: primary key 'id'");
    assertRefused(
        TemplateCatalog.CDC_TO_AGGREGATE,
        with(cdcToAggregate(), "--valueColumn=price"),
        "--valueColumn=price is not valid: name one of --columns");
    assertRefused(
        TemplateCatalog.CDC_TO_AGGREGATE,
        with(cdcToAggregate(), "--columns=order_id:BIGINT,store_id:BIGINT,amount:MONEY"),
        "--columns=order_id:BIGINT,store_id:BIGINT,amount:MONEY with --primaryKeys=order_id: unknown column type 'MONEY'");
  }

  @Test
  void filesWithoutPrimaryKeysAreRefusedNamingTheOption() {
    List<String> args = new ArrayList<>(cdcToAggregate());
    args.removeIf(a -> a.startsWith("--primaryKeys="));
    assertRefused(
        TemplateCatalog.CDC_TO_AGGREGATE,
        args,
        "--primaryKeys is missing: give it, for example --primaryKeys=order_id");
  }

  @Test
  void endBeforeStartIsRefused() {
    assertRefused(
        TemplateCatalog.CHANGELOG_TO_AGGREGATE,
        List.of(
            "--warehouse=" + folder.resolve("warehouse"),
            "--sourceTable=orders",
            "--groupColumn=store_id",
            "--valueColumn=amount",
            "--aggregateTable=t",
            "--deadLetterDir=" + folder.resolve("dead"),
            "--startSnapshot=5",
            "--endSnapshot=3"),
        "--endSnapshot=3 is not valid");
  }

  @Test
  void unknownTemplateNamesTheTemplates() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TemplateCatalog.named("cdc"));
    assertTrue(e.getMessage().contains("cdc-to-table, changelog-to-aggregate, cdc-to-aggregate"));
  }
}
