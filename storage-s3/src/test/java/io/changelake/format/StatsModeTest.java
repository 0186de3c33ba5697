package io.changelake.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsModeTest {

  private static final StatsMode THREE = StatsMode.parse("truncate(3)");

  @Test
  void truncatedMinIsAPrefixAndMaxIsIncrementedAtTheCut() {
    assertEquals(
        new ColumnStats("abc", "abe", 2L), THREE.apply(new ColumnStats("abcdef", "abdxyz", 2L)));
  }

  @Test
  void stringsWithinTheLengthAreKept() {
    assertEquals(new ColumnStats("ab", "abc", 0L), THREE.apply(new ColumnStats("ab", "abc", 0L)));
  }

  @Test
  void truncationCountsCodePointsNotChars() {
    // Each emoji is two chars but one code point; the max's last code point is incremented.
    assertEquals(
        new ColumnStats("😀😀😀", "😀😀😁", 0L),
        THREE.apply(new ColumnStats("😀😀😀😀", "😀😀😀😀", 0L)));
  }

  @Test
  void maxOfOnlyTheLargestCodePointDropsBothBounds() {
    String top = new String(Character.toChars(Character.MAX_CODE_POINT));
    assertEquals(
        new ColumnStats(null, null, 1L), THREE.apply(new ColumnStats("a", top.repeat(4), 1L)));
  }

  @Test
  void nonStringsAreKeptWhole() {
    ColumnStats numbers = new ColumnStats(1L, 99L, 0L);
    assertEquals(numbers, THREE.apply(numbers));
  }

  @Test
  void countsKeepsOnlyNullsAndNoneKeepsNothing() {
    ColumnStats full = new ColumnStats(1, 2, 3L);
    assertEquals(new ColumnStats(null, null, 3L), StatsMode.parse("COUNTS").apply(full));
    assertEquals(new ColumnStats(null, null, null), StatsMode.parse("none").apply(full));
    assertEquals(full, StatsMode.parse("full").apply(full));
  }

  @Test
  void printsAndParsesPaimonsForm() {
    for (String mode : new String[] {"none", "counts", "full", "truncate(16)"}) {
      assertEquals(mode, StatsMode.parse(mode).toString());
    }
    assertEquals(StatsMode.DEFAULT, StatsMode.parse("truncate(16)"));
  }

  @Test
  void unknownModeIsRejectedWithTheChoices() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StatsMode.parse("truncate(0)"));
    assertTrue(e.getMessage().contains("truncate(n)"), e.getMessage());
  }
}
