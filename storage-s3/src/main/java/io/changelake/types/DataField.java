package io.changelake.types;

import java.util.Objects;

/**
 * One column of a table: its id (stable across schema changes, as Paimon keeps it), name, type and
 * comment.
 *
 * @param id the field id, unique in the table
 * @param name the column name
 * @param type the column type with its nullability
 * @param description the column comment, or null
 */
public record DataField(int id, String name, DataType type, String description) {
  public DataField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  /** A column without a comment. */
  public DataField(int id, String name, DataType type) {
    this(id, name, type, null);
  }

  /** The same column under another name. */
  public DataField withName(String newName) {
    return new DataField(id, newName, type, description);
  }

  /** The same column with another type. */
  public DataField withType(DataType newType) {
    return new DataField(id, name, newType, description);
  }

  /** The same column with another comment (null for none). */
  public DataField withDescription(String newDescription) {
    return new DataField(id, name, type, newDescription);
  }
}
