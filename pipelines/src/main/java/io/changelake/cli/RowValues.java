package io.changelake.cli;

import java.util.Arrays;

/**
 * The values of a row or key with value equality, binary columns included, so rows can be counted
 * and matched in maps.
 */
record RowValues(Object[] values) {

  @Override
  public boolean equals(Object o) {
    return o instanceof RowValues other && Arrays.deepEquals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(values);
  }

  @Override
  public String toString() {
    return RowText.values(values);
  }
}
