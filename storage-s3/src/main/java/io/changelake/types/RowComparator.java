package io.changelake.types;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders rows (or keys) of one row type column by column, as the merge tree orders keys: nulls
 * first, numbers and temporals by value, strings by code point, bytes unsigned.
 *
 * <p>It runs for every record a writer sorts or merges, so each column compares through a switch on
 * its type rather than a chain of comparator objects.
 */
public final class RowComparator implements Comparator<Object[]> {

  private final TypeRoot[] roots;
  private final boolean integral;

  public RowComparator(RowType type) {
    integral = integral(type);
    roots = new TypeRoot[type.size()];
    for (int i = 0; i < roots.length; i++) {
      roots[i] = type.type(i).root();
    }
  }

  /** The number of columns the rows hold. */
  public int size() {
    return roots.length;
  }

  /** Whether the rows are of an {@link #integral(RowType)} type. */
  public boolean integral() {
    return integral;
  }

  /**
   * Whether rows of {@code type} are one integral column (BIGINT, INT, SMALLINT or TINYINT), which
   * orders as its value does: a sort or merge may compare {@link #integralValue}s rather than rows.
   */
  public static boolean integral(RowType type) {
    return type.size() == 1 && integral(type.type(0).root());
  }

  /** Whether {@code root} is an integer type (BIGINT, INT, SMALLINT or TINYINT). */
  public static boolean integral(TypeRoot root) {
    return root == TypeRoot.BIGINT
        || root == TypeRoot.INT
        || root == TypeRoot.SMALLINT
        || root == TypeRoot.TINYINT;
  }

  /**
   * Whether column {@code index} is integral (BIGINT, INT, SMALLINT or TINYINT): its values order
   * as their {@code long}s do, which a merge may compare in place of the values.
   */
  public boolean integralAt(int index) {
    return integral(roots[index]);
  }

  /** The value of a non-null row of an {@link #integral} type, as a long. */
  public static long integralValue(Object[] row) {
    return ((Number) row[0]).longValue();
  }

  /** Orders two values of column {@code index}. */
  public int compareField(int index, Object a, Object b) {
    if (a == null || b == null) {
      return a == b ? 0 : a == null ? -1 : 1;
    }
    switch (roots[index]) {
      case BIGINT:
        return Long.compare((Long) a, (Long) b);
      case INT:
        return Integer.compare((Integer) a, (Integer) b);
      case CHAR:
      case VARCHAR:
        return compareCodePoints((String) a, (String) b);
      case BINARY:
      case VARBINARY:
        return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default:
        return compareComparable(a, b);
    }
  }

  /**
   * {@link #compareField(int, Object, Object)} of column {@code index} of two rows read column by
   * column: BIGINT, INT, SMALLINT, TINYINT, DOUBLE, FLOAT and BOOLEAN values through the rows'
   * unboxed getters, so nothing is boxed where the rows hold them unboxed.
   */
  public int compareField(int index, ChangeRow a, ChangeRow b) {
    boolean aNull = a.isNullAt(index);
    boolean bNull = b.isNullAt(index);
    if (aNull || bNull) {
      return aNull == bNull ? 0 : aNull ? -1 : 1;
    }
    return switch (roots[index]) {
      case BIGINT -> Long.compare(a.getLong(index), b.getLong(index));
      case INT -> Integer.compare(a.getInt(index), b.getInt(index));
      case SMALLINT -> Short.compare(a.getShort(index), b.getShort(index));
      case TINYINT -> Byte.compare(a.getByte(index), b.getByte(index));
      case DOUBLE -> Double.compare(a.getDouble(index), b.getDouble(index));
      case FLOAT -> Float.compare(a.getFloat(index), b.getFloat(index));
      case BOOLEAN -> Boolean.compare(a.getBoolean(index), b.getBoolean(index));
      default -> compareField(index, a.get(index), b.get(index));
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareComparable(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /** Code point order equals the order of UTF-8 bytes, which is Paimon's string order. */
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (ca != cb && (Character.isSurrogate(ca) || Character.isSurrogate(cb))) {
        int pa = a.codePointAt(i);
        int pb = b.codePointAt(j);
        if (pa != pb) {
          return Integer.compare(pa, pb);
        }
        i += Character.charCount(pa);
        j += Character.charCount(pb);
        continue;
      }
      if (ca != cb) {
        return Character.compare(ca, cb);
      }
      i++;
      j++;
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  @Override
  public int compare(Object[] a, Object[] b) {
    for (int i = 0; i < roots.length; i++) {
      int c = compareField(i, a[i], b[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
