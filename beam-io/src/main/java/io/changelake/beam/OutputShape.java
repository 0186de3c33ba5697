package io.changelake.beam;

import io.changelake.types.KeyValue;
import io.changelake.types.RowType;
import java.io.Serializable;
import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.Schema.FieldType;
import org.apache.beam.sdk.values.Row;

/**
 * The Rows a read emits: the chosen table columns in the chosen order, then, when asked for, the
 * row kind ({@code +I}, {@code -U}, {@code +U}, {@code -D}), the snapshot id and the sequence
 * number. Built at pipeline construction from the table's schema, which every reader checks again
 * when it opens the table.
 */
final class OutputShape implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Schema tableSchema;
  private final List<String> columns;
  private final String kindField;
  private final String snapshotField;
  private final String sequenceField;
  private final Schema schema;
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
    this.tableSchema = BeamSchemaMapping.schemaOf(tableType);
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
    addMetadataField(builder, tableType, kindField, FieldType.STRING);
    addMetadataField(builder, tableType, snapshotField, FieldType.INT64);
    addMetadataField(builder, tableType, sequenceField, FieldType.INT64);
    this.schema = builder.build();
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
    return schema;
  }

  /** The Beam schema of every table column, to detect a table changed since construction. */
  Schema tableSchema() {
    return tableSchema;
  }

  List<String> columns() {
    return columns;
  }

  /** The emitted Row of one record of snapshot {@code snapshotId}. */
  Row toRow(KeyValue record, long snapshotId) {
    if (positions == null) {
      positions = columns.stream().mapToInt(tableSchema::indexOf).toArray();
    }
    Object[] row = record.value();
    Row.Builder out = Row.withSchema(schema);
    for (int p : positions) {
      out.addValue(row[p]);
    }
    if (kindField != null) {
      out.addValue(record.kind().shortString());
    }
    if (snapshotField != null) {
      out.addValue(snapshotId);
    }
    if (sequenceField != null) {
      out.addValue(record.sequenceNumber());
    }
    return out.build();
  }
}
