package io.changelake.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.schema.TableOptions;
import io.changelake.types.DataType;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
