package io.changelake.mergetree.merge;

import static io.changelake.mergetree.merge.Versions.merge;
import static io.changelake.mergetree.merge.Versions.orders;
import static io.changelake.mergetree.merge.Versions.show;
import static io.changelake.mergetree.merge.Versions.version;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.mergetree.MergeException;
import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-written cases from the merge engines' Javadoc and the conformance cases' final states. */
class MergeFunctionsTest {

  private static MergeFunction engine(Map<String, String> options) {
    return MergeFunctions.create(Versions.orders(options));
  }

  @Test
  void deduplicateKeepsTheLastVersionAndALastRetractionDeletes() {
    MergeFunction dedup = engine(Map.of());
    assertEquals(
        "+U[1001, 10, 80] @1", show(merge(dedup, orders("+I 1001 10 100", "+U 1001 10 80"))));
    assertEquals(
        "-D[1001, 10, 80] @1", show(merge(dedup, orders("+I 1001 10 100", "-D 1001 10 80"))));
  }

  @Test
  void deduplicateWithIgnoreDeleteDropsRetractions() {
    MergeFunction dedup = engine(Map.of("ignore-delete", "true"));
    assertEquals(
        "+I[1001, 10, 100] @0", show(merge(dedup, orders("+I 1001 10 100", "-D 1001 10 100"))));
    assertEquals("nothing", show(merge(dedup, orders("-U 1001 10 100", "-D 1001 10 100"))));
  }

  @Test
  void ignoreDeleteReadsPaimonsFallbackKeys() {
    MergeFunction dedup = engine(Map.of("deduplicate.ignore-delete", "true"));
    assertNull(merge(dedup, orders("-D 1001 10 100")));
  }

  @Test
  void partialUpdateConformanceFinalState() {
    MergeFunction partial = engine(Map.of("merge-engine", "partial-update"));
    assertEquals(
        "+I[1001, 10, 80] @2",
        show(merge(partial, orders("+I 1001 10 -", "+I 1001 - 100", "+I 1001 - 80"))));
    assertEquals("+I[1002, 20, 5] @1", show(merge(partial, orders("+I 1002 20 -", "+I 1002 - 5"))));
  }

  @Test
  void partialUpdateRetractionWithoutARuleNamesTheOptions() {
    MergeFunction partial = engine(Map.of("merge-engine", "partial-update"));
    MergeException e =
        assertThrows(
            MergeException.class, () -> merge(partial, orders("+I 1001 10 100", "-D 1001 10 100")));
    for (String option :
        new String[] {
          "ignore-delete", "partial-update.remove-record-on-delete", "sequence-group"
        }) {
      assertTrue(e.getMessage().contains(option), e.getMessage());
    }
  }

  @Test
  void partialUpdateRemoveRecordOnDeleteEmptiesTheRowAndUpdateBeforeOnlyAdvancesTheSequence() {
    MergeFunction partial =
        engine(
            Map.of(
                "merge-engine",
                "partial-update",
                "partial-update.remove-record-on-delete",
                "true"));
    assertEquals(
        "-D[1001, null, null] @1",
        show(merge(partial, orders("+I 1001 10 100", "-D 1001 10 100"))));
    assertEquals(
        "+I[1001, null, 7] @2",
        show(merge(partial, orders("+I 1001 10 100", "-D 1001 10 100", "+I 1001 - 7"))));
    assertEquals(
        "+I[1001, 10, 100] @1", show(merge(partial, orders("+I 1001 10 100", "-U 1001 10 100"))));
  }

  @Test
  void partialUpdateOfOnlyIgnoredRetractionsIsADeleteWithSequenceZero() {
    MergeFunction partial =
        engine(Map.of("merge-engine", "partial-update", "ignore-delete", "true"));
    assertEquals("-D[1001, null, null] @0", show(merge(partial, orders("-D 1001 10 100"))));
  }

  @Test
  void sequenceGroupRetractionNullsTheGroupWhenNewer() {
    TableSchema table =
        Versions.table(
            new String[] {"k", "g", "a", "b"},
            new DataType[] {
              DataType.bigint(), DataType.intType(), DataType.string(), DataType.string()
            },
            Map.of("merge-engine", "partial-update", "fields.g.sequence-group", "a"));
    MergeFunction partial = MergeFunctions.create(table);
    KeyValue insert = version(0, RowKind.INSERT, 1L, 5, "x", "y");
    KeyValue olderRetraction = version(1, RowKind.DELETE, 1L, 4, "x", "y");
    KeyValue newerRetraction = version(2, RowKind.DELETE, 1L, 6, "x", "y");
    assertEquals("+I[1, 5, x, y] @1", show(merge(partial, insert, olderRetraction)));
    assertEquals("+I[1, 6, null, y] @2", show(merge(partial, insert, newerRetraction)));
  }

  @Test
  void aggregationSumConformanceFinalState() {
    MergeFunction aggregation =
        engine(Map.of("merge-engine", "aggregation", "fields.amount.aggregate-function", "sum"));
    // The -D retracts store_id's last_non_null_value (null) and subtracts from the sum.
    assertEquals(
        "+I[1001, null, 150] @3",
        show(
            merge(
                aggregation,
                orders("+I 1001 10 100", "+I 1001 10 50", "+I 1001 10 25", "-D 1001 10 25"))));
  }

  @Test
  void aggregationOfOnlyRetractionsIsAnInsert() {
    MergeFunction aggregation =
        engine(Map.of("merge-engine", "aggregation", "fields.amount.aggregate-function", "sum"));
    assertEquals("+I[1001, null, -25] @0", show(merge(aggregation, orders("-D 1001 10 25"))));
  }

  @Test
  void aggregationRemoveRecordOnDeleteDeletesTheRow() {
    MergeFunction aggregation =
        engine(
            Map.of(
                "merge-engine",
                "aggregation",
                "fields.amount.aggregate-function",
                "sum",
                "aggregation.remove-record-on-delete",
                "true"));
    assertEquals(
        "-D[1001, null, null] @1",
        show(merge(aggregation, orders("+I 1001 10 100", "-D 1001 10 100"))));
    assertEquals(
        "+I[1001, 10, 175] @2",
        show(merge(aggregation, orders("+I 1001 10 100", "-U 1001 10 25", "+U 1001 10 100"))));
  }

  @Test
  void aggregateFunctionWithoutRetractionNamesTheColumnAndTheFix() {
    MergeFunction aggregation =
        engine(Map.of("merge-engine", "aggregation", "fields.amount.aggregate-function", "max"));
    MergeException e =
        assertThrows(
            MergeException.class,
            () -> merge(aggregation, orders("+I 1001 10 100", "-U 1001 10 100")));
    assertTrue(e.getMessage().contains("'amount'"), e.getMessage());
    assertTrue(e.getMessage().contains("'fields.amount.ignore-retract' = 'true'"), e.getMessage());
  }

  @Test
  void ignoreRetractKeepsTheColumn() {
    MergeFunction aggregation =
        engine(
            Map.of(
                "merge-engine",
                "aggregation",
                "fields.amount.aggregate-function",
                "max",
                "fields.amount.ignore-retract",
                "true"));
    assertEquals(
        "+I[1001, null, 100] @1",
        show(merge(aggregation, orders("+I 1001 10 100", "-U 1001 10 100"))));
  }

  @Test
  void productRetractionDivides() {
    MergeFunction aggregation =
        engine(
            Map.of("merge-engine", "aggregation", "fields.amount.aggregate-function", "product"));
    assertEquals(
        "+I[1001, 10, 12] @2",
        show(merge(aggregation, orders("+I 1001 10 6", "+I 1001 10 10", "-U 1001 - 5"))));
    assertThrows(
        MergeException.class, () -> merge(aggregation, orders("+I 1001 10 6", "-U 1001 - 0")));
  }

  @Test
  void decimalSumOverflowsAsPaimon() {
    TableSchema small =
        Versions.table(
            new String[] {"k", "d"},
            new DataType[] {DataType.bigint(), DataType.decimal(5, 2)},
            Map.of("merge-engine", "aggregation", "fields.d.aggregate-function", "sum"));
    KeyValue max = version(0, RowKind.INSERT, 1L, new BigDecimal("999.99"));
    // Up to 18 digits Paimon adds unscaled longs unchecked: the sum keeps its sixth digit.
    assertEquals(
        new BigDecimal("1999.98"), merge(MergeFunctions.create(small), max, max).value()[1]);
    TableSchema wide =
        Versions.table(
            new String[] {"k", "d"},
            new DataType[] {DataType.bigint(), DataType.decimal(20, 0)},
            Map.of("merge-engine", "aggregation", "fields.d.aggregate-function", "sum"));
    KeyValue wideMax = version(0, RowKind.INSERT, 1L, new BigDecimal("99999999999999999999"));
    assertNull(merge(MergeFunctions.create(wide), wideMax, wideMax).value()[1]);
  }

  @Test
  void primaryKeyAndSequenceFieldKeepTheirValuesInAggregation() {
    TableSchema table =
        Versions.table(
            new String[] {"k", "ts", "n"},
            new DataType[] {DataType.bigint(), DataType.intType(), DataType.intType()},
            Map.of(
                "merge-engine",
                "aggregation",
                "fields.default-aggregate-function",
                "sum",
                "sequence.field",
                "ts"));
    KeyValue a = version(0, RowKind.INSERT, 1L, 7, 1);
    KeyValue b = version(1, RowKind.INSERT, 1L, null, 2);
    assertEquals("+I[1, null, 3] @1", show(merge(MergeFunctions.create(table), a, b)));
  }

  @Test
  void countIsRefusedWithTheSumFix() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                engine(
                    Map.of(
                        "merge-engine",
                        "aggregation",
                        "fields.amount.aggregate-function",
                        "count")));
    assertTrue(e.getMessage().contains("count"), e.getMessage());
  }

  @Test
  void aggregateFunctionOfTheWrongTypeIsRefusedAtCreation() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                engine(
                    Map.of(
                        "merge-engine",
                        "aggregation",
                        "fields.amount.aggregate-function",
                        "bool_or")));
    assertTrue(e.getMessage().contains("'fields.amount.aggregate-function'"), e.getMessage());
  }

  @Test
  void conflictingDeleteRulesAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            engine(
                Map.of(
                    "merge-engine",
                    "partial-update",
                    "ignore-delete",
                    "true",
                    "partial-update.remove-record-on-delete",
                    "true")));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            engine(
                Map.of(
                    "merge-engine",
                    "aggregation",
                    "aggregation.remove-record-on-delete",
                    "true",
                    "fields.amount.ignore-retract",
                    "true")));
  }

  @Test
  void firstRowConformanceFinalStateKeepsTheFirstSequenceNumber() {
    MergeFunction firstRow = engine(Map.of("merge-engine", "first-row"));
    assertEquals(
        "+I[1001, 10, 100] @0", show(merge(firstRow, orders("+I 1001 10 100", "+I 1001 10 80"))));
    assertEquals(
        "+I[1002, 20, 5] @0", show(merge(firstRow, orders("+I 1002 20 5", "+I 1002 20 6"))));
  }

  @Test
  void firstRowRetractionFailsUnlessIgnoreDelete() {
    MergeException e =
        assertThrows(
            MergeException.class,
            () ->
                merge(
                    engine(Map.of("merge-engine", "first-row")),
                    orders("+I 1001 10 100", "-D 1001 10 100")));
    assertTrue(e.getMessage().contains("'ignore-delete'"), e.getMessage());
    MergeFunction ignoring = engine(Map.of("merge-engine", "first-row", "ignore-delete", "true"));
    assertEquals(
        "+I[1001, 10, 100] @0", show(merge(ignoring, orders("+I 1001 10 100", "-D 1001 10 100"))));
    assertNull(merge(ignoring, orders("-D 1001 10 100")));
  }

  @Test
  void firstRowRefusesASequenceField() {
    assertThrows(
        IllegalArgumentException.class,
        () -> engine(Map.of("merge-engine", "first-row", "sequence.field", "amount")));
  }

  @Test
  void sequenceOrderSortsBySequenceFieldNullsFirstThenSequenceNumber() {
    Comparator<ChangeRow> order =
        MergeFunctions.sequenceOrder(Versions.orders(Map.of("sequence.field", "amount")));
    KeyValue[] versions = orders("+I 1001 10 5", "+I 1001 10 -", "+I 1001 10 3", "+I 1001 11 3");
    KeyValue[] sorted = versions.clone();
    Arrays.sort(sorted, order);
    assertEquals(
        Arrays.asList(versions[1], versions[2], versions[3], versions[0]), Arrays.asList(sorted));
    assertNull(MergeFunctions.sequenceOrder(Versions.orders(Map.of())));
  }
}
