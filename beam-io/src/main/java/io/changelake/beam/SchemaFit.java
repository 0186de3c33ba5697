package io.changelake.beam;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.TableSchema;
import io.changelake.table.SchemaConflictException;
import io.changelake.table.TableNotFoundException;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import io.changelake.types.TypeWidening;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a write's input schema fits an existing table: the schema changes that would let the table
 * take every input field ({@link ChangelakeWrite#withSchemaEvolution()} applies them when the
 * pipeline is built), and the differences no change can bridge.
 *
 * <p>An input field the table lacks becomes a new nullable column, last. An input field whose type
 * the column cannot take, but whose column type widens to it (INT to BIGINT, VARCHAR(10) to
 * VARCHAR(20), ...), widens the column. Refused: a type that would narrow the column or change its
 * kind, a key or partition column the input lacks or would retype, and a NOT NULL column the input
 * lacks.
 *
 * @param changes the changes that make the table take the input, in order; empty if it already does
 * @param refusals what no schema change can fix, one sentence per column; empty if nothing
 */
record SchemaFit(List<SchemaChange> changes, List<String> refusals) {

  private static final Logger LOG = LoggerFactory.getLogger(SchemaFit.class);

  SchemaFit {
    changes = List.copyOf(changes);
    refusals = List.copyOf(refusals);
  }

  /** How {@code input} (without its row-kind field) fits {@code table}. */
  static SchemaFit of(Schema input, String rowKindField, TableSchema table, String tableName) {
    RowType wanted = RowMapping.tableType(input, rowKindField);
    RowType columns = table.rowType();
    List<SchemaChange> changes = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    for (DataField field : wanted.fields()) {
      int at = columns.indexOf(field.name());
      fit(
          "input field",
          field,
          at >= 0
              && RowMapping.fills(
                  columns.field(at), input.getField(field.name()).getType(), tableName),
          table,
          changes,
          refusals);
    }
    for (DataField column : columns.fields()) {
      if (wanted.indexOf(column.name()) < 0) {
        if (table.primaryKeys().contains(column.name())) {
          refusals.add(
              "key column '"
                  + column.name()
                  + "' is missing from the input: a write needs the key");
        } else if (!column.type().nullable()) {
          refusals.add(
              "NOT NULL column '" + column.name() + "' is missing from the input: give the field");
        }
      }
    }
    return new SchemaFit(changes, refusals);
  }

  /**
   * How a row's {@link DynamicColumns} fit {@code table}: an entry fits a column whose type its
   * type widens to (or equals); else the column is added or widened, or the entry refused.
   */
  static SchemaFit ofDynamic(Map<String, Row> dynamic, TableSchema table) {
    RowType columns = table.rowType();
    List<SchemaChange> changes = new ArrayList<>();
    List<String> refusals = new ArrayList<>();
    for (Map.Entry<String, Row> entry : dynamic.entrySet()) {
      DataType declared = DynamicColumns.declaredType(entry.getKey(), entry.getValue());
      int at = columns.indexOf(entry.getKey());
      fit(
          "dynamic column",
          new DataField(0, entry.getKey(), declared),
          at >= 0 && TypeWidening.widens(declared, columns.field(at).type()),
          table,
          changes,
          refusals);
    }
    return new SchemaFit(changes, refusals);
  }

  /**
   * Adds what {@code wanted} needs of the table: nothing if it {@code fits} its column, a new
   * column, a widening, or a refusal.
   */
  private static void fit(
      String what,
      DataField wanted,
      boolean fits,
      TableSchema table,
      List<SchemaChange> changes,
      List<String> refusals) {
    RowType columns = table.rowType();
    int at = columns.indexOf(wanted.name());
    if (at < 0) {
      changes.add(
          new SchemaChange.AddColumn(
              wanted.name(), wanted.type().withNullable(true), null, ColumnPosition.last()));
      return;
    }
    if (fits) {
      return;
    }
    DataField column = columns.field(at);
    boolean key =
        table.primaryKeys().contains(column.name())
            || table.partitionKeys().contains(column.name());
    if (!key && TypeWidening.widens(column.type(), wanted.type())) {
      changes.add(new SchemaChange.UpdateColumnType(column.name(), wanted.type()));
    } else {
      refusals.add(
          what
              + " '"
              + wanted.name()
              + "' is "
              + wanted.type().withNullable(true)
              + " but column '"
              + column.name()
              + "' is "
              + column.type()
              + (key
                  ? ", and a key column's type cannot change"
                  : ", which cannot widen to it: that would narrow the column or change its kind"));
    }
  }

  /**
   * Checks the input against the table if it exists already (a table the write creates fits by
   * construction), and evolves the table under {@link ChangelakeWrite#withSchemaEvolution()}
   * ({@code evolve}). A warehouse the launcher cannot reach is left to the workers, which check
   * again when they open the table.
   *
   * @throws IllegalArgumentException naming what does not fit, or the changes it would need
   */
  static void applyTo(TableReference table, Schema schema, String rowKindField, boolean evolve) {
    if (table.absentLocally()) {
      return;
    }
    for (int attempt = 1; ; attempt++) {
      try (TableReference.Opened opened = table.open()) {
        SchemaFit fit = of(schema, rowKindField, opened.table().schema(), table.location());
        if (!fit.refusals().isEmpty()) {
          throw new IllegalArgumentException(
              "the input does not fit table " + table + ": " + String.join("; ", fit.refusals()));
        }
        if (fit.changes().isEmpty()) {
          return;
        }
        if (!evolve) {
          throw new IllegalArgumentException(
              "the input differs from table "
                  + table
                  + ": it would need "
                  + fit.changes().stream().map(SchemaChange::describe).toList()
                  + "; call withSchemaEvolution() to apply them, or change the input to the"
                  + " table's columns");
        }
        opened.table().alter(fit.changes());
        return;
      } catch (TableNotFoundException absent) {
        return;
      } catch (SchemaConflictException raced) {
        if (attempt >= 3) {
          throw new IllegalArgumentException(
              "the table's schema kept changing while evolving it: " + raced.getMessage());
        }
      } catch (IOException | UncheckedIOException unreachable) {
        LOG.warn(
            "cannot check the input against table {} while building the pipeline: {}",
            table,
            unreachable.getMessage());
        return;
      }
    }
  }
}
