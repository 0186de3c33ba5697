package io.changelake.beam;

import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.DataField;
import io.changelake.types.RowType;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * The Rows a read emits: the chosen table columns in the chosen order, then, when asked for, the
 * row kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}), the snapshot id and the sequence
 * number. Built at pipeline construction from the table's schema, whose Beam schema is then fixed.
 *
 * <p>When the table's schema changes under a running pipeline, each reader {@link #follow follows}
 * the construction-time columns by field id into the new schema: a renamed column is still emitted
 * under the name it had, a widened one as it was if its Beam type holds the new type's values
 * (DECIMAL precision up, a longer CHAR, VARCHAR, BINARY or VARBINARY), and an added one is not
 * emitted (the gauge {@code columnsNotEmitted} counts them). A column the pipeline emits that was
 * dropped, or widened beyond its Beam type (INT to BIGINT, FLOAT to DOUBLE), fails the read with a
 * message naming it: rebuild the pipeline, which then sees the new schema.
 */
final class OutputShape implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int[] tableIds;
  private final int[] columnIds;
  private final List<String> columns;
  private final String kindField;
  private final String snapshotField;
  private final String sequenceField;

  /** The emitted Rows, of the schema fixed at construction. */
  private final RowAssembly rows;

  private transient int[] positions;

  /**
   * @param columns the table columns to emit, in order; empty for all
   * @param kindField the name of the row-kind field, or null for none
   * @param snapshotField the name of the snapshot-id field, or null for none
   * @param sequenceField the name of the sequence-number field, or null for none
   * @throws IllegalArgumentException naming a column that does not exist or a field name that is
   *     taken
   */
  OutputShape(
      RowType tableType,
      List<String> columns,
      String kindField,
      String snapshotField,
      String sequenceField) {
    Schema tableSchema = BeamSchemaMapping.schemaOf(tableType);
    this.tableIds = tableType.fields().stream().mapToInt(DataField::id).toArray();
    this.columns = columns.isEmpty() ? tableType.names() : List.copyOf(columns);
    this.kindField = kindField;
    this.snapshotField = snapshotField;
    this.sequenceField = sequenceField;
    Schema.Builder builder = Schema.builder();
    for (String column : this.columns) {
      if (!tableSchema.hasField(column)) {
        throw new IllegalArgumentException(
            "column '" + column + "' is not in the table: its columns are " + tableType.names());
      }
      builder.addField(tableSchema.getField(column));
    }
    this.columnIds =
        this.columns.stream().mapToInt(c -> tableType.field(tableType.indexOf(c)).id()).toArray();
    addMetadataField(builder, tableType, kindField, FieldType.STRING);
    addMetadataField(builder, tableType, snapshotField, FieldType.INT64);
    addMetadataField(builder, tableType, sequenceField, FieldType.INT64);
    this.rows = new RowAssembly(builder.build());
  }

  private static void addMetadataField(
      Schema.Builder builder, RowType tableType, String name, FieldType type) {
    if (name == null) {
      return;
    }
    if (tableType.indexOf(name) >= 0) {
      throw new IllegalArgumentException(
          "the output field '"
              + name
              + "' clashes with a table column of that name: choose"
              + " another name for it");
    }
    builder.addField(name, type);
  }

  /** The schema of the emitted Rows. */
  Schema schema() {
    return rows.schema();
  }

  List<String> columns() {
    return columns;
  }

  /**
   * Reads the records of {@code table}'s current schema from now on: finds each emitted column by
   * its field id.
   *
   * @throws IllegalStateException naming the column, if an emitted column was dropped or widened
   *     beyond its Beam type
   */
  void follow(TableSchema table, String tableName) {
    RowType current = table.rowType();
    int[] found = new int[columnIds.length];
    for (int i = 0; i < columnIds.length; i++) {
      String column = columns.get(i);
      found[i] = indexOfId(current, columnIds[i]);
      if (found[i] < 0) {
        throw new IllegalStateException(
            "column '"
                + column
                + "', which this pipeline reads, was dropped from "
                + tableName
                + " (schema "
                + table.id()
                + ", columns "
                + current.names()
                + "): rebuild the pipeline, which reads the new columns");
      }
      FieldType was = schema().getField(i).getType().withNullable(true);
      FieldType now = BeamSchemaMapping.fieldType(current.type(found[i])).withNullable(true);
      if (!was.equals(now)) {
        throw new IllegalStateException(
            "column '"
                + column
                + "' of "
                + tableName
                + " is now "
                + current.field(found[i]).name()
                + " "
                + current.type(found[i])
                + " (schema "
                + table.id()
                + "), which the Beam field this pipeline emits it as ("
                + was.getTypeName()
                + ") cannot hold: rebuild the pipeline, which reads the new type");
      }
    }
    int added = 0;
    for (DataField f : current.fields()) {
      if (Arrays.stream(tableIds).noneMatch(id -> id == f.id())) {
        added++;
      }
    }
    ReadMetrics.COLUMNS_NOT_EMITTED.set(added);
    positions = found;
  }

  private static int indexOfId(RowType type, int id) {
    for (int i = 0; i < type.size(); i++) {
      if (type.field(i).id() == id) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The positions, in the schema last {@link #follow followed}, of the table columns emitted, in
   * order: the columns a reader reads ({@link io.changelake.table.ChangelogScan#withColumns}), and
   * no others.
   */
  int[] columnsRead() {
    return positions.clone();
  }

  /**
   * The emitted Row of one record of snapshot {@code snapshotId}, whose value holds the {@link
   * #columnsRead} of the schema last {@link #follow followed}, in order.
   *
   * @throws IllegalStateException naming the column, if a column emitted NOT NULL holds a null (the
   *     table made it nullable since the pipeline was built)
   */
  Row toRow(ChangeRow record, long snapshotId) {
    Object[] values = new Object[schema().getFieldCount()];
    for (int i = 0; i < positions.length; i++) {
      Object value = record.get(i);
      if (value == null && !schema().getField(i).getType().getNullable()) {
        throw new IllegalStateException(
            "column '"
                + columns.get(i)
                + "' holds a null, but this pipeline emits it NOT NULL: the table made it nullable"
                + " since the pipeline was built; rebuild the pipeline");
      }
      values[i] = value;
    }
    int next = positions.length;
    if (kindField != null) {
      values[next++] = record.kind().shortString();
    }
    if (snapshotField != null) {
      values[next++] = snapshotId;
    }
    if (sequenceField != null) {
      values[next] = record.sequenceNumber();
    }
    return rows.of(Arrays.asList(values));
  }
}
