package io.changelake.schema;

import io.changelake.types.DataType;
import java.util.Objects;

/**
 * One change to a table's schema, as {@code Table.alter} applies it; Paimon's {@code SchemaChange}
 * kinds that changelake implements. {@link SchemaEvolution} holds the rules each kind obeys.
 */
public sealed interface SchemaChange {

  /** What the change does, in words, for the schema history. */
  String describe();

  /**
   * Adds a nullable column with a new field id.
   *
   * @param name the new column's name
   * @param type its type; it must be nullable, since the rows already written have no value
   * @param description the column comment, or null
   * @param position where it goes among the columns
   */
  record AddColumn(String name, DataType type, String description, ColumnPosition position)
      implements SchemaChange {
    public AddColumn {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(position, "position");
    }

    @Override
    public String describe() {
      return "add column " + name + " " + type + position.describe();
    }
  }

  /** Renames a column; it keeps its field id, so files written before read it by its new name. */
  record RenameColumn(String name, String newName) implements SchemaChange {
    @Override
    public String describe() {
      return "rename column " + name + " to " + newName;
    }
  }

  /** Drops a column that is neither a primary-key nor a partition column. */
  record DropColumn(String name) implements SchemaChange {
    @Override
    public String describe() {
      return "drop column " + name;
    }
  }

  /**
   * Widens a column's type (see {@link io.changelake.types.TypeWidening}); the column keeps its
   * nullability.
   */
  record UpdateColumnType(String name, DataType newType) implements SchemaChange {
    @Override
    public String describe() {
      return "alter column " + name + " type " + newType.withNullable(true);
    }
  }

  /** Makes a NOT NULL column nullable; a primary-key column stays NOT NULL. */
  record MakeColumnNullable(String name) implements SchemaChange {
    @Override
    public String describe() {
      return "alter column " + name + " drop not null";
    }
  }

  /** Sets or, with null, removes a column's comment. */
  record UpdateColumnComment(String name, String description) implements SchemaChange {
    @Override
    public String describe() {
      return "comment on column " + name;
    }
  }

  /** Sets or, with null, removes the table comment. */
  record UpdateComment(String comment) implements SchemaChange {
    @Override
    public String describe() {
      return "comment on table";
    }
  }

  /** Sets a table option that may change on an existing table. */
  record SetOption(String key, String value) implements SchemaChange {
    @Override
    public String describe() {
      return "set " + key + "=" + value;
    }
  }

  /** Removes a table option, so its default applies again. */
  record ResetOption(String key) implements SchemaChange {
    @Override
    public String describe() {
      return "reset " + key;
    }
  }

  /**
   * Where an added column goes: first, after a named column, or last.
   *
   * @param after the column it follows, or null
   * @param first whether it goes before every column
   */
  record ColumnPosition(String after, boolean first) {
    public static ColumnPosition last() {
      return new ColumnPosition(null, false);
    }

    public static ColumnPosition atFirst() {
      return new ColumnPosition(null, true);
    }

    public static ColumnPosition afterColumn(String column) {
      return new ColumnPosition(Objects.requireNonNull(column, "column"), false);
    }

    String describe() {
      return first ? " first" : after != null ? " after " + after : "";
    }
  }
}
