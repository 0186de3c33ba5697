package io.changelake.templates;

import io.changelake.beam.DynamicColumns;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.schemas.Schema;

/**
 * The columns of a table a template creates, parsed from {@code --columns} (for example {@code
 * order_id:BIGINT,store_id:BIGINT,amount:BIGINT}) or read from an event's schema envelope, together
 * with {@code --primaryKeys}. Primary-key columns are NOT NULL, the others nullable. The table also
 * gets {@link #SEQUENCE}, its {@code sequence.field}.
 */
final class TableColumns implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The STRING field naming the row kind (+I, -U, +U, -D) of a change row. */
  static final String ROW_KIND = "_row_kind";

  /**
   * The STRING column holding each change's {@link EventPosition}: the table's {@code
   * sequence.field}, so a key's changes merge in source order whatever order they arrive in.
   */
  static final String SEQUENCE = "_sequence";

  /**
   * With {@code --schemaEvolution}, the {@link DynamicColumns} field of a change row: the values of
   * columns the template was not built with (added at the source since) and of columns whose type
   * the source widened, which the write adds or widens in the table while the pipeline runs. A Beam
   * schema is fixed when the pipeline is built, so the columns that appear later travel in this
   * map, each with its type, rather than as fields.
   */
  static final String DYNAMIC = "_dynamic_columns";

  /**
   * From Kafka, the {@link io.changelake.beam.SourcePosition} field of a change row: its record's
   * topic-partition and offset, no column, which the write settles once the table holds the row.
   */
  static final String SOURCE = "_source";

  /**
   * In the database mode ({@link SourceTables}), the STRING field of a change row naming the
   * changelake table ({@code database.table}) it goes to: no column.
   */
  static final String DESTINATION = "_destination";

  /** One column: its name, type and whether it belongs to the primary key. */
  record Column(String name, ColumnType type, boolean key) implements Serializable {}

  private final List<Column> columns;
  private final boolean evolving;
  private final Set<String> fixedTypes;

  private TableColumns(List<Column> columns, boolean evolving, Set<String> fixedTypes) {
    this.columns = List.copyOf(columns);
    this.evolving = evolving;
    this.fixedTypes = Set.copyOf(fixedTypes);
  }

  /**
   * Parses {@code name:TYPE,...} and the primary-key column names.
   *
   * @throws IllegalArgumentException saying which part of the text is wrong
   */
  static TableColumns parse(String spec, List<String> primaryKeys) {
    List<Column> columns = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    // A comma inside parentheses belongs to the type: amount:DECIMAL(10,2).
    for (String part : spec.split(",(?![^(]*\\))", 0)) {
      String[] nameAndType = part.split(":", -1);
      if (nameAndType.length != 2 || nameAndType[0].isBlank() || nameAndType[1].isBlank()) {
        throw new IllegalArgumentException(
            "'" + part.trim() + "' is not name:TYPE (for example amount:BIGINT)");
      }
      String name = nameAndType[0].trim();
      if (!names.add(name)) {
        throw new IllegalArgumentException("column '" + name + "' is declared twice");
      }
      columns.add(new Column(name, ColumnType.named(nameAndType[1]), primaryKeys.contains(name)));
    }
    return of(columns, primaryKeys);
  }

  /**
   * Columns with the primary-key column names.
   *
   * @throws IllegalArgumentException for a reserved name or a key that is no column
   */
  static TableColumns of(List<Column> columns, List<String> primaryKeys) {
    Set<String> names = new LinkedHashSet<>();
    for (Column c : columns) {
      if (reserved(c.name())) {
        throw new IllegalArgumentException("'" + c.name() + "' is reserved for the template");
      }
      names.add(c.name());
    }
    for (String key : primaryKeys) {
      if (!names.contains(key)) {
        throw new IllegalArgumentException(
            "primary key '" + key + "' is not among the columns " + names);
      }
    }
    return new TableColumns(columns, false, Set.of());
  }

  /** Whether the template keeps {@code name} for itself. */
  static boolean reserved(String name) {
    return name.equals(ROW_KIND)
        || name.equals(SEQUENCE)
        || name.equals(DYNAMIC)
        || name.equals(SOURCE)
        || name.equals(DESTINATION);
  }

  /** These columns, whose change rows carry {@link #DYNAMIC} for the columns that appear later. */
  TableColumns evolving() {
    return new TableColumns(columns, true, fixedTypes);
  }

  /**
   * These columns, with {@code names} kept at their types while the others evolve: the columns a
   * later stage reads with the types the pipeline was built with (the aggregate's group and value).
   */
  TableColumns withFixedTypes(Set<String> names) {
    return new TableColumns(columns, evolving, names);
  }

  /** Whether the column's type may not change (a key's never may). */
  boolean typeFixed(Column column) {
    return column.key() || fixedTypes.contains(column.name());
  }

  /** Whether the change rows carry {@link #DYNAMIC}. */
  boolean isEvolving() {
    return evolving;
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

  /**
   * The Beam schema of a change row: every column, {@link #SEQUENCE}, {@link #ROW_KIND}, and, if
   * {@link #evolving()}, {@link #DYNAMIC}.
   */
  Schema changeSchema() {
    Schema.Builder builder = Schema.builder();
    for (Column c : columns) {
      builder.addField(Schema.Field.of(c.name(), c.type().fieldType()).withNullable(!c.key()));
    }
    builder.addStringField(SEQUENCE).addStringField(ROW_KIND);
    if (evolving) {
      builder.addField(Schema.Field.of(DYNAMIC, DynamicColumns.FIELD_TYPE));
    }
    return builder.build();
  }

  /** The columns as {@code --columns} would give them, for messages and logs. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Column c : columns) {
      parts.add(c.name() + ":" + c.type());
    }
    return String.join(",", parts);
  }
}
