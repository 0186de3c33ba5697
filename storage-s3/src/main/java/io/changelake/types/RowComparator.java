package io.changelake.types;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders rows (or keys) of one row type column by column, as the merge tree orders keys: nulls
 * first, numbers and temporals by value, strings by code point, bytes unsigned.
 */
public final class RowComparator implements Comparator<Object[]> {

  private final Comparator<Object>[] columns;

  @SuppressWarnings("unchecked")
  public RowComparator(RowType type) {
    columns = new Comparator[type.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = Comparator.nullsFirst(forType(type.type(i).root()));
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object> forType(TypeRoot root) {
    switch (root) {
      case BINARY:
      case VARBINARY:
        return (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      case CHAR:
      case VARCHAR:
        // Code point order equals the order of UTF-8 bytes, which is Paimon's string order.
        return (a, b) -> compareCodePoints((String) a, (String) b);
      default:
        return (a, b) -> ((Comparable) a).compareTo(b);
    }
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** Orders two values of column {@code index}. */
  public int compareField(int index, Object a, Object b) {
    return columns[index].compare(a, b);
  }

  @Override
  public int compare(Object[] a, Object[] b) {
    for (int i = 0; i < columns.length; i++) {
      int c = columns[i].compare(a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
