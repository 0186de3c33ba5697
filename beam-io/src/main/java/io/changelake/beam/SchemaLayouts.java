package io.changelake.beam;

import io.changelake.format.ColumnMapping;
import io.changelake.schema.TableSchema;
import io.changelake.table.Table;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Brings a row mapped under an older schema of a table ({@link KindedRow#schemaId}) into the layout
 * of the schema a stage opened the table at, column by field id ({@link ColumnMapping}): added
 * columns null, widened ones converted. Rows reach a stage tagged with the schema they were mapped
 * by, which is older than the stage's while a write evolves the table.
 */
final class SchemaLayouts {

  private final Table table;
  private final Map<Long, ColumnMapping> olderSchemas = new HashMap<>();

  SchemaLayouts(Table table) {
    this.table = table;
  }

  /** Whether a row mapped under {@code schemaId} is newer than this layout: reopen the table. */
  boolean isBehind(long schemaId) {
    return schemaId > table.schema().id();
  }

  /** The row's values as the columns of the table's schema; the row's own if it is that one. */
  Object[] valuesOf(KindedRow row) throws IOException {
    TableSchema current = table.schema();
    if (row.schemaId() == current.id()) {
      return row.values();
    }
    ColumnMapping mapping = olderSchemas.get(row.schemaId());
    if (mapping == null) {
      mapping = ColumnMapping.of(table.schemas().read(row.schemaId()).rowType(), current.rowType());
      olderSchemas.put(row.schemaId(), mapping);
    }
    return mapping.map(row.values());
  }
}
