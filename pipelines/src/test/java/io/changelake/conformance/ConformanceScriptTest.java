package io.changelake.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.conformance.ConformanceScript.Write;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scripts in the shared format, and with the COLUMN lines that add columns, a key column and a
 * partition.
 */
class ConformanceScriptTest {

  @Test
  void aSharedFormatScriptHasTheOrdersTable() {
    ConformanceScript script = ConformanceScript.parse("s", List.of("I 1001 10 -", "COMMIT"));
    assertEquals(ConformanceRun.ORDERS, script.rowType());
    assertEquals(List.of("order_id"), script.primaryKeys());
    assertEquals(List.of(), script.partitionKeys());
    assertEquals(Arrays.asList(1001L, 10L, null), ((Write) script.actions().get(0)).values());
  }

  @Test
  void columnLinesAddColumnsAfterAmountAndAPartitionJoinsThePrimaryKey() {
    ConformanceScript script =
        ConformanceScript.parse(
            "s",
            List.of(
                "COLUMN note STRING",
                "COLUMN flag BOOLEAN",
                "COLUMN region BIGINT PARTITION",
                "UA 1001 - 5 abc false 2",
                "D 1001 10 5 - - 1"));
    assertEquals(
        List.of("order_id", "store_id", "amount", "note", "flag", "region"),
        script.rowType().names());
    assertFalse(script.rowType().type(5).nullable(), "a partition column is NOT NULL");
    assertEquals(List.of("order_id", "region"), script.primaryKeys());
    assertEquals(List.of("region"), script.partitionKeys());
    assertEquals(
        Arrays.asList(1001L, null, 5L, "abc", false, 2L),
        ((Write) script.actions().get(0)).values());
    assertEquals(
        Arrays.asList(1001L, 10L, 5L, null, null, 1L), ((Write) script.actions().get(1)).values());
  }

  @Test
  void aKeyColumnJoinsThePrimaryKeyBeforeThePartitionAndIsNeverNull() {
    List<String> columns =
        List.of("COLUMN region BIGINT PARTITION", "COLUMN tag STRING KEY", "COLUMN flag BOOLEAN");
    List<String> lines = new ArrayList<>(columns);
    lines.add("UA 1001 - 5 2 ab true");
    ConformanceScript script = ConformanceScript.parse("s", lines);
    assertEquals(List.of("order_id", "tag", "region"), script.primaryKeys());
    assertEquals(List.of("region"), script.partitionKeys());
    assertFalse(script.rowType().type(4).nullable(), "a key column is NOT NULL");
    assertTrue(script.rowType().type(5).nullable());
    assertEquals(
        Arrays.asList(1001L, null, 5L, 2L, "ab", true), ((Write) script.actions().get(0)).values());
    lines.set(3, "UA 1001 - 5 2 - true");
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> ConformanceScript.parse("s", lines));
    assertTrue(
        missing.getMessage().endsWith("key column 'tag' cannot be null"), missing.getMessage());
  }

  @Test
  void aWriteThatDoesNotFitTheColumnsNamesItsLine() {
    List<String> columns = List.of("COLUMN flag BOOLEAN", "COLUMN region BIGINT PARTITION");
    for (String write : List.of("I 1001 10 5 true", "I 1001 10 5 yes 1", "I 1001 10 5 true -")) {
      List<String> lines = new ArrayList<>(columns);
      lines.add(write);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ConformanceScript.parse("s", lines));
      assertTrue(e.getMessage().startsWith("s line 3: '" + write + "'"), e.getMessage());
    }
    IllegalArgumentException type =
        assertThrows(
            IllegalArgumentException.class,
            () -> ConformanceScript.parse("s", List.of("COLUMN at TIMESTAMP")));
    assertTrue(type.getMessage().contains("BIGINT, STRING, BOOLEAN"), type.getMessage());
  }
}
