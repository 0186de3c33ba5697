package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.TableOptions;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each row of the table in {@link ChangelogRule}'s documentation, as records in and out. */
class ChangelogRuleTest {

  private static final RowType ROW =
      RowType.of(
          new String[] {"id", "amount", "note"},
          new DataType[] {DataType.bigint(), DataType.bigint(), DataType.string()});

  private static final KeyValue ADD_BEFORE = row(1, RowKind.INSERT, 10, "a");
  private static final KeyValue ADD_AFTER = row(2, RowKind.UPDATE_AFTER, 20, "b");
  private static final KeyValue RETRACT = row(3, RowKind.DELETE, 10, "a");

  @Test
  void aNewRowIsEmittedAsAnInsert() throws IOException {
    ChangelogRule rule = rule(Map.of());
    assertEquals(List.of("+I 2 20 b"), emitted(rule, null, ADD_AFTER));
    assertEquals(List.of("+I 2 20 b"), emitted(rule, RETRACT, ADD_AFTER));
  }

  @Test
  void noRowBeforeAndNoneAfterEmitsNothing() throws IOException {
    ChangelogRule rule = rule(Map.of());
    assertEquals(List.of(), emitted(rule, null, null));
    assertEquals(List.of(), emitted(rule, null, RETRACT));
    assertEquals(List.of(), emitted(rule, RETRACT, RETRACT));
  }

  @Test
  void aRemovedRowIsEmittedAsADeleteOfTheRowBefore() throws IOException {
    ChangelogRule rule = rule(Map.of());
    assertEquals(List.of("-D 1 10 a"), emitted(rule, ADD_BEFORE, RETRACT));
    assertEquals(List.of("-D 1 10 a"), emitted(rule, ADD_BEFORE, null));
  }

  @Test
  void aChangedRowIsEmittedAsUpdateBeforeAndAfter() throws IOException {
    assertEquals(List.of("-U 1 10 a", "+U 2 20 b"), emitted(rule(Map.of()), ADD_BEFORE, ADD_AFTER));
  }

  @Test
  void anEqualRowIsEmittedUnlessRowDeduplicateIsOn() throws IOException {
    KeyValue same = row(5, RowKind.INSERT, 10, "a");
    assertEquals(List.of("-U 1 10 a", "+U 5 10 a"), emitted(rule(Map.of()), ADD_BEFORE, same));
    assertEquals(
        List.of(),
        emitted(rule(Map.of("changelog-producer.row-deduplicate", "true")), ADD_BEFORE, same));
  }

  @Test
  void rowDeduplicateLeavesIgnoredFieldsOutOfTheComparison() throws IOException {
    KeyValue otherNote = row(5, RowKind.INSERT, 10, "z");
    ChangelogRule ignoringNote =
        rule(
            Map.of(
                "changelog-producer.row-deduplicate", "true",
                "changelog-producer.row-deduplicate-ignore-fields", "note"));
    assertEquals(List.of(), emitted(ignoringNote, ADD_BEFORE, otherNote));
    ChangelogRule comparingAll = rule(Map.of("changelog-producer.row-deduplicate", "true"));
    assertEquals(List.of("-U 1 10 a", "+U 5 10 z"), emitted(comparingAll, ADD_BEFORE, otherNote));
  }

  @Test
  void rowDeduplicateTakesRowsAsEqualExactlyWhenTheirValuesAre() throws IOException {
    RowType wide =
        RowType.of(
            new String[] {"id", "l", "i", "h", "t", "d", "f", "b", "s", "dec", "bin"},
            new DataType[] {
              DataType.bigint(),
              DataType.bigint(),
              DataType.intType(),
              DataType.smallint(),
              DataType.tinyint(),
              DataType.doubleType(),
              DataType.floatType(),
              DataType.booleanType(),
              DataType.string(),
              DataType.decimal(5, 2),
              DataType.bytes()
            });
    Object[][] choices = {
      {7L},
      {null, 1L, 2L},
      {null, 1, 2},
      {null, (short) 1, (short) -300},
      {null, (byte) 1, (byte) -2},
      {null, 0.0, -0.0, Double.NaN, 1.5},
      {null, 0.0f, -0.0f, Float.NaN},
      {null, true, false},
      {null, "a", "b"},
      {null, new BigDecimal("1.25"), new BigDecimal("2.50")},
      {null, new byte[] {1}, new byte[] {1}, new byte[] {2}}
    };
    ChangelogRule rule =
        new ChangelogRule(
            TableOptions.of(Map.of("changelog-producer.row-deduplicate", "true")), wide);
    Random random = new Random(7);
    int equal = 0;
    for (int n = 0; n < 2000; n++) {
      Object[] before = new Object[choices.length];
      Object[] after = new Object[choices.length];
      for (int c = 0; c < choices.length; c++) {
        before[c] = choices[c][random.nextInt(choices[c].length)];
        after[c] =
            random.nextInt(5) == 0 ? choices[c][random.nextInt(choices[c].length)] : before[c];
      }
      boolean same = Arrays.deepEquals(before, after);
      equal += same ? 1 : 0;
      List<RowKind> kinds = new ArrayList<>();
      rule.emit(
          new KeyValue(new Object[] {7L}, 1, RowKind.INSERT, before),
          new KeyValue(new Object[] {7L}, 2, RowKind.INSERT, after),
          (row, kind) -> kinds.add(kind));
      assertEquals(
          same ? List.of() : List.of(RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER),
          kinds,
          Arrays.deepToString(before) + " -> " + Arrays.deepToString(after));
    }
    assertTrue(equal > 100 && equal < 1900, equal + " of 2000 pairs equal");
  }

  @Test
  void firstRowEmitsANewRowWithItsOwnKindAndNothingForAKeyThatHadOne() throws IOException {
    ChangelogRule firstRow = rule(Map.of("merge-engine", "first-row"));
    assertEquals(List.of("+U 2 20 b"), emitted(firstRow, null, ADD_AFTER));
    assertEquals(List.of(), emitted(firstRow, ADD_BEFORE, ADD_AFTER));
    assertEquals(List.of(), emitted(firstRow, ADD_BEFORE, RETRACT));
  }

  private static ChangelogRule rule(Map<String, String> options) {
    return new ChangelogRule(TableOptions.of(options), ROW);
  }

  private static List<String> emitted(ChangelogRule rule, KeyValue before, KeyValue after)
      throws IOException {
    List<String> out = new ArrayList<>();
    rule.emit(
        before,
        after,
        (kv, kind) ->
            out.add(
                kind.shortString()
                    + " "
                    + kv.sequenceNumber()
                    + " "
                    + kv.get(1)
                    + " "
                    + kv.get(2)));
    return out;
  }

  private static KeyValue row(long sequence, RowKind kind, long amount, String note) {
    return new KeyValue(new Object[] {7L}, sequence, kind, new Object[] {7L, amount, note});
  }
}
