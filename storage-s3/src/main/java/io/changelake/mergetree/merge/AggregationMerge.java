package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.List;

/**
 * merge-engine {@code aggregation}: each column folds its versions with its aggregate function; an
 * add (+I, +U) aggregates, a retraction (-U, -D) retracts. The result is +I with the sequence
 * number of the last version, even when every version was a retraction. With {@code
 * aggregation.remove-record-on-delete} a -D instead empties the row (only NOT NULL columns kept),
 * and a result that ends on it is a -D; later versions aggregate on the emptied row. Paimon 1.3:
 * {@code AggregateMergeFunction}.
 *
 * <p>{@code ignore-delete} does not act here, as in Paimon: its writer drops retractions before
 * they reach the merge tree.
 */
final class AggregationMerge implements MergeFunction {

  private final FieldAggregator[] aggregators;
  private final NotNullColumns notNull;
  private final boolean removeRecordOnDelete;

  /** The key's row, and the result: rewritten key after key. */
  private final MergedRow row;

  private boolean empty;
  private long latestSequenceNumber;
  private boolean deleteRow;

  private AggregationMerge(
      MergedRow row,
      FieldAggregator[] aggregators,
      NotNullColumns notNull,
      boolean removeRecordOnDelete) {
    this.row = row;
    this.aggregators = aggregators;
    this.notNull = notNull;
    this.removeRecordOnDelete = removeRecordOnDelete;
  }

  /**
   * The engine of a table: primary-key columns keep the record's value, {@code sequence.field}
   * columns take the last value, others {@code fields.<f>.aggregate-function}, else {@code
   * fields.default-aggregate-function}, else last_non_null_value.
   */
  static AggregationMerge of(TableSchema schema) {
    RowType rowType = schema.rowType();
    TableOptions options = schema.options();
    List<String> sequenceFields = options.sequenceFields();
    FieldAggregator[] aggregators = new FieldAggregator[rowType.size()];
    for (int i = 0; i < aggregators.length; i++) {
      String column = rowType.field(i).name();
      String function;
      if (sequenceFields.contains(column)) {
        function = "last_value";
      } else if (schema.primaryKeys().contains(column)) {
        function = FieldAggregator.PRIMARY_KEY;
      } else {
        function = options.aggregateFunction(column);
      }
      aggregators[i] = FieldAggregator.create(rowType, i, function, options);
    }
    return new AggregationMerge(
        new MergedRow(schema),
        aggregators,
        new NotNullColumns(rowType),
        options.aggregationRemoveRecordOnDelete());
  }

  @Override
  public void reset() {
    empty = true;
    row.clear();
    deleteRow = false;
    for (FieldAggregator aggregator : aggregators) {
      aggregator.reset();
    }
  }

  @Override
  public void add(ChangeRow version) {
    empty = false;
    latestSequenceNumber = version.sequenceNumber();
    deleteRow = removeRecordOnDelete && version.kind() == RowKind.DELETE;
    if (deleteRow) {
      notNull.reset(version, row);
      return;
    }
    if (version.kind().isAdd()) {
      for (FieldAggregator aggregator : aggregators) {
        aggregator.agg(row, version);
      }
    } else {
      for (FieldAggregator aggregator : aggregators) {
        aggregator.retract(row, version);
      }
    }
  }

  /** The key's row, valid until the next {@link #reset()}; null if no version was added. */
  @Override
  public ChangeRow result() {
    if (empty) {
      return null;
    }
    row.stamp(deleteRow ? RowKind.DELETE : RowKind.INSERT, latestSequenceNumber);
    return row;
  }
}
