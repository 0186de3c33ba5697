package io.changelake.types;

import java.util.ArrayList;
import java.util.List;

/**
 * The ordered columns of a row. A row itself is an {@code Object[]} whose i-th value is of the Java
 * class {@link TypeRoot#javaClass()} of the i-th field's type, or null.
 */
public record RowType(List<DataField> fields) {

  public RowType {
    fields = List.copyOf(fields);
  }

  /** A row type whose fields get ids 0, 1, 2, ... in order. */
  public static RowType of(String[] names, DataType[] types) {
    if (names.length != types.length) {
      throw new IllegalArgumentException(names.length + " names for " + types.length + " types");
    }
    List<DataField> fields = new ArrayList<>(names.length);
    for (int i = 0; i < names.length; i++) {
      fields.add(new DataField(i, names[i], types[i]));
    }
    return new RowType(fields);
  }

  public int size() {
    return fields.size();
  }

  public DataField field(int index) {
    return fields.get(index);
  }

  public DataType type(int index) {
    return fields.get(index).type();
  }

  /** The position of the named field, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Where each field of {@code fields} stands in this row type, found by name, in {@code fields}'
   * order; null if one is missing.
   */
  public int[] positionsOf(RowType fields) {
    int[] positions = new int[fields.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = indexOf(fields.field(i).name());
      if (positions[i] < 0) {
        return null;
      }
    }
    return positions;
  }

  public List<String> names() {
    return fields.stream().map(DataField::name).toList();
  }

  /** The fields at the given positions, in that order, keeping their ids. */
  public RowType project(int[] positions) {
    List<DataField> projected = new ArrayList<>(positions.length);
    for (int p : positions) {
      projected.add(fields.get(p));
    }
    return new RowType(projected);
  }
}
