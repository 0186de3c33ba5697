package io.changelake.templates;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The columns of a table a template creates, parsed from {@code --columns} (for example {@code
 * order_id:BIGINT,store_id:BIGINT,amount:BIGINT}) together with {@code --primaryKeys}. Primary-key
 * columns are NOT NULL, the others nullable.
 */
final class TableColumns implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The STRING field naming the row kind (+I, -U, +U, -D) of a change row. */
  static final String ROW_KIND = "_row_kind";

  /** One column: its name, type and whether it belongs to the primary key. */
  record Column(String name, ColumnType type, boolean key) implements Serializable {}

  private final List<Column> columns;

  private TableColumns(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  /**
   * Parses {@code name:TYPE,...} and the primary-key column names.
   *
   * @throws IllegalArgumentException saying which part of the text is wrong
   */
  static TableColumns parse(String spec, List<String> primaryKeys) {
    List<Column> columns = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (String part : spec.split(",")) {
      String[] nameAndType = part.split(":");
      if (nameAndType.length != 2 || nameAndType[0].isBlank()) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not name:TYPE (for example amount:BIGINT)");
      }
      String name = nameAndType[0].trim();
      if (!names.add(name)) {
        throw new IllegalArgumentException("column '" + name + "' is declared twice");
      }
      if (name.equals(ROW_KIND)) {
        throw new IllegalArgumentException("'" + ROW_KIND + "' is reserved for the row kind");
      }
      columns.add(
          new Column(name, ColumnType.named(nameAndType[1]), primaryKeys.contains(name)));
    }
    for (String key : primaryKeys) {
      if (!names.contains(key)) {
        throw new IllegalArgumentException(
            "primary key '" + key + "' is not among the columns " + names);
      }
    }
    return new TableColumns(columns);
  }

  List<Column> columns() {
    return columns;
  }

  /** The column named {@code name}, or null. */
  Column column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }

  /** The Beam schema of a change row: every column, then {@link #ROW_KIND}. */
  Schema changeSchema() {
    Schema.Builder builder = Schema.builder();
    for (Column c : columns) {
      builder.addField(Schema.Field.of(c.name(), c.type().fieldType()).withNullable(!c.key()));
    }
    return builder.addStringField(ROW_KIND).build();
  }
}
