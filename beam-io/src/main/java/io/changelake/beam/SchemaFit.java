package io.changelake.beam;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.TableSchema;
import io.changelake.types.DataField;
import io.changelake.types.RowType;
import io.changelake.types.TypeWidening;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;

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
      if (at < 0) {
        changes.add(
            new SchemaChange.AddColumn(
                field.name(), field.type().withNullable(true), null, ColumnPosition.last()));
        continue;
      }
      DataField column = columns.field(at);
      if (RowMapping.fills(column, input.getField(field.name()).getType(), tableName)) {
        continue;
      }
      boolean key =
          table.primaryKeys().contains(column.name())
              || table.partitionKeys().contains(column.name());
      if (!key && TypeWidening.widens(column.type(), field.type())) {
        changes.add(new SchemaChange.UpdateColumnType(column.name(), field.type()));
      } else {
        refusals.add(
            "input field '"
                + field.name()
                + "' is "
                + field.type().withNullable(true)
                + " but column '"
                + column.name()
                + "' is "
                + column.type()
                + (key
                    ? ", and a key column's type cannot change"
                    : ", which cannot widen to it: that would narrow the column or change its kind"));
      }
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
}
