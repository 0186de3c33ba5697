package io.changelake.types;

import java.util.Objects;

/**
 * One column of a table: its id (stable across schema changes, as Paimon keeps it), name and type.
 *
 * @param id the field id, unique in the table
 * @param name the column name
 * @param type the column type with its nullability
 */
public record DataField(int id, String name, DataType type) {
  public DataField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }
}
