package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** Test fixture: compares collections of rows as multisets, printing them when they differ. */
public final class Rows {

  private Rows() {}

  /** Each row as text (arrays by content), sorted: equal lists mean equal multisets of rows. */
  public static List<String> canonical(Collection<Object[]> rows) {
    List<String> texts = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      texts.add(Arrays.deepToString(row));
    }
    texts.sort(null);
    return texts;
  }

  public static void assertSameRows(Collection<Object[]> expected, Collection<Object[]> actual) {
    assertEquals(canonical(expected), canonical(actual));
  }
}
