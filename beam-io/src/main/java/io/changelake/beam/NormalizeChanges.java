package io.changelake.beam;

import io.changelake.types.RowKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.util.CoderUtils;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * Rebuilds a complete changelog from the rows of a {@code changelog-producer=none} table, which
 * carry the newest version of a key per flush but never the version it replaced: keyed by primary
 * key, it keeps the last row of every key in Beam state and emits {@code +I} for a new key, {@code
 * -U} (the kept row) and {@code +U} for a changed one, {@code -D} (the kept row) for a removed one,
 * and nothing when a version repeats the kept row exactly.
 *
 * <p>Rows reach it out of order (a reshuffle sits before it), so each row's (snapshot id, sequence
 * number) is compared with the kept row's and an older version is dropped: the emitted changes then
 * add up to the newest version, which is what a downstream aggregate needs. A removed key stays in
 * state as a tombstone, so a late older version cannot bring it back.
 *
 * <p>Cost: one state cell per key ever seen (the whole row), read and written for every change.
 * That is the cost the lookup and full-compaction producers pay once, in the writer, instead of in
 * every reading pipeline.
 */
final class NormalizeChanges extends PTransform<PCollection<Row>, PCollection<Row>> {
  private static final long serialVersionUID = 1L;

  private final List<String> keyColumns;
  private final List<String> valueColumns;
  private final String kindField;
  private final String snapshotField;
  private final String sequenceField;

  /**
   * @param keyColumns the primary-key columns
   * @param valueColumns the table columns compared to detect a repeated version
   */
  NormalizeChanges(
      List<String> keyColumns,
      List<String> valueColumns,
      String kindField,
      String snapshotField,
      String sequenceField) {
    this.keyColumns = List.copyOf(keyColumns);
    this.valueColumns = List.copyOf(valueColumns);
    this.kindField = kindField;
    this.snapshotField = snapshotField;
    this.sequenceField = sequenceField;
  }

  @Override
  public PCollection<Row> expand(PCollection<Row> rows) {
    Schema schema = rows.getSchema();
    return rows.apply("KeyByPrimaryKey", ParDo.of(new KeyByPrimaryKeyFn(schema, keyColumns)))
        .setCoder(KvCoder.of(ByteArrayCoder.of(), RowCoder.of(schema)))
        .apply(
            "KeepLastRowPerKey",
            ParDo.of(new LastRowFn(schema, valueColumns, kindField, snapshotField, sequenceField)))
        .setRowSchema(schema);
  }

  /**
   * Keys a row by its primary-key values encoded with a Row coder: byte arrays are a deterministic
   * state key whatever the column types.
   */
  private static final class KeyByPrimaryKeyFn extends DoFn<Row, KV<byte[], Row>> {
    private static final long serialVersionUID = 1L;

    private final Schema keySchema;
    private final RowCoder keyCoder;

    KeyByPrimaryKeyFn(Schema schema, List<String> keyColumns) {
      Schema.Builder key = Schema.builder();
      keyColumns.forEach(c -> key.addField(schema.getField(c)));
      this.keySchema = key.build();
      this.keyCoder = RowCoder.of(keySchema);
    }

    @ProcessElement
    public void processElement(@Element Row row, OutputReceiver<KV<byte[], Row>> out)
        throws CoderException {
      List<Object> values = new ArrayList<>(keySchema.getFieldCount());
      for (Schema.Field f : keySchema.getFields()) {
        values.add(row.getValue(f.getName()));
      }
      // The values come from a built Row of the same field types: attached, not checked again.
      Row key = Row.withSchema(keySchema).attachValues(values);
      out.output(KV.of(CoderUtils.encodeToByteArray(keyCoder, key), row));
    }
  }

  /** The state machine per key; the state id is part of a pipeline's update contract. */
  private static final class LastRowFn extends DoFn<KV<byte[], Row>, Row> {
    private static final long serialVersionUID = 1L;

    @StateId("lastRow")
    private final StateSpec<ValueState<Row>> lastRowSpec;

    private final List<String> valueColumns;
    private final String kindField;
    private final String snapshotField;
    private final String sequenceField;

    LastRowFn(
        Schema schema,
        List<String> valueColumns,
        String kindField,
        String snapshotField,
        String sequenceField) {
      this.lastRowSpec = StateSpecs.value(RowCoder.of(schema));
      this.valueColumns = valueColumns;
      this.kindField = kindField;
      this.snapshotField = snapshotField;
      this.sequenceField = sequenceField;
    }

    @ProcessElement
    public void processElement(
        @Element KV<byte[], Row> element,
        @StateId("lastRow") ValueState<Row> lastRow,
        OutputReceiver<Row> out) {
      Row row = element.getValue();
      Row kept = lastRow.read();
      if (kept != null && !isNewer(row, kept)) {
        return;
      }
      lastRow.write(row);
      boolean keptAdds = kept != null && kind(kept).isAdd();
      if (kind(row).isAdd()) {
        if (!keptAdds) {
          out.output(withKind(row, RowKind.INSERT));
        } else if (!sameValues(kept, row)) {
          out.output(withKind(kept, RowKind.UPDATE_BEFORE));
          out.output(withKind(row, RowKind.UPDATE_AFTER));
        }
      } else if (keptAdds) {
        out.output(withKind(kept, RowKind.DELETE));
      }
    }

    private boolean isNewer(Row row, Row kept) {
      int bySnapshot = Long.compare(row.getInt64(snapshotField), kept.getInt64(snapshotField));
      return bySnapshot > 0
          || (bySnapshot == 0 && row.getInt64(sequenceField) > kept.getInt64(sequenceField));
    }

    private RowKind kind(Row row) {
      return RowKind.fromShortString(row.getString(kindField));
    }

    private Row withKind(Row row, RowKind kind) {
      return Row.fromRow(row).withFieldValue(kindField, kind.shortString()).build();
    }

    private boolean sameValues(Row a, Row b) {
      for (String column : valueColumns) {
        if (!Objects.deepEquals(a.getValue(column), b.getValue(column))) {
          return false;
        }
      }
      return true;
    }
  }
}
