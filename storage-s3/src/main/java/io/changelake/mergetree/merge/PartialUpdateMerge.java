package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeException;
import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * merge-engine {@code partial-update}: non-null columns of a version overwrite, nulls keep the old
 * value. Paimon 1.3: {@code PartialUpdateMergeFunction}, rule for rule.
 *
 * <p>A retraction (-U, -D) needs a rule: {@code ignore-delete} skips it; {@code
 * partial-update.remove-record-on-delete} makes a -D empty the row (a -U only advances the sequence
 * number); sequence groups retract per group (below). Without a rule it fails.
 *
 * <p>Sequence groups ({@code fields.<s>.sequence-group = <columns>}, {@code <s>} one column or
 * several comma-separated): a version updates a group's columns only if its sequence fields order
 * at or after the row's (nulls first), and skips the group if its sequence fields are all null.
 * Within a group, a column with an aggregate function folds instead ({@code aggReversed} for an
 * older version). A retraction newer than the group nulls its columns (or retracts their
 * aggregates) and takes its sequence fields; an older one only retracts aggregates. Columns outside
 * any group ignore retractions. With {@code partial-update.remove-record-on-sequence-group} naming
 * a sequence field, a newer -D of that group empties the row.
 *
 * <p>The result is +I unless the last version emptied the row by a rule above, or no add was seen
 * at all (only retractions): then -D holding only the NOT NULL columns. Its sequence number is that
 * of the last version taken (0 if every version was a skipped retraction).
 */
final class PartialUpdateMerge implements MergeFunction {

  private static final byte SKIP = 0;
  private static final byte NEWER = 1;
  private static final byte OLDER = 2;

  /** A sequence group: its order, and whether a newer -D of it removes the row. */
  private record SequenceGroup(FieldsOrder order, boolean removesRowOnDelete) {}

  /** The key's row, and the result: rewritten key after key. */
  private final MergedRow row;

  private final int arity;
  private final NotNullColumns notNull;
  private final boolean ignoreDelete;
  private final boolean removeRecordOnDelete;
  private final SequenceGroup[] groups;

  /** Per column: its group in {@link #groups}, or -1. */
  private final int[] groupOf;

  /** Per column: whether it is a sequence field of its group. */
  private final boolean[] sequenceField;

  /** Per column: its aggregator, or null; only used with sequence groups, as in Paimon. */
  private final FieldAggregator[] aggregators;

  /** Per group, for the version being added: SKIP, NEWER or OLDER; reused to spare allocation. */
  private final byte[] verdicts;

  private boolean empty;
  private long latestSequenceNumber;
  private boolean deleteRow;
  private boolean notNullFilled;
  private boolean meetInsert;

  private PartialUpdateMerge(
      MergedRow row,
      RowType rowType,
      boolean ignoreDelete,
      boolean removeRecordOnDelete,
      SequenceGroup[] groups,
      int[] groupOf,
      boolean[] sequenceField,
      FieldAggregator[] aggregators) {
    this.row = row;
    this.arity = rowType.size();
    this.notNull = new NotNullColumns(rowType);
    this.ignoreDelete = ignoreDelete;
    this.removeRecordOnDelete = removeRecordOnDelete;
    this.groups = groups;
    this.groupOf = groupOf;
    this.sequenceField = sequenceField;
    this.aggregators = aggregators;
    this.verdicts = new byte[groups.length];
  }

  /**
   * The engine of a table.
   *
   * @throws IllegalArgumentException naming the options when they conflict or name no column
   */
  static PartialUpdateMerge of(TableSchema schema) {
    RowType rowType = schema.rowType();
    TableOptions options = schema.options();
    boolean ignoreDelete = options.ignoreDelete();
    boolean removeRecordOnDelete = options.partialUpdateRemoveRecordOnDelete();
    List<String> removeOnGroup = options.partialUpdateRemoveRecordOnSequenceGroup();
    Map<List<String>, List<String>> groupOptions = options.sequenceGroups();
    if (ignoreDelete && removeRecordOnDelete) {
      throw conflict("ignore-delete", "partial-update.remove-record-on-delete");
    }
    if (ignoreDelete && !removeOnGroup.isEmpty()) {
      throw conflict("ignore-delete", "partial-update.remove-record-on-sequence-group");
    }
    if (removeRecordOnDelete && !groupOptions.isEmpty()) {
      throw conflict("fields.<f>.sequence-group", "partial-update.remove-record-on-delete");
    }

    int[] groupOf = new int[rowType.size()];
    Arrays.fill(groupOf, -1);
    boolean[] sequenceField = new boolean[rowType.size()];
    List<SequenceGroup> groups = new ArrayList<>();
    List<String> allSequenceFields = new ArrayList<>();
    List<String> protectedColumns = new ArrayList<>();
    for (Map.Entry<List<String>, List<String>> group : groupOptions.entrySet()) {
      String option = "fields." + String.join(",", group.getKey()) + ".sequence-group";
      FieldsOrder order = FieldsOrder.of(rowType, group.getKey(), option);
      int g = groups.size();
      groups.add(
          new SequenceGroup(order, group.getKey().stream().anyMatch(removeOnGroup::contains)));
      for (int column : FieldsOrder.of(rowType, group.getValue(), option).fields()) {
        claim(groupOf, column, g, rowType, option);
        protectedColumns.add(rowType.field(column).name());
      }
      for (int column : order.fields()) {
        if (groupOf[column] != g) {
          claim(groupOf, column, g, rowType, option);
        }
        sequenceField[column] = true;
        allSequenceFields.add(rowType.field(column).name());
      }
    }
    for (String field : removeOnGroup) {
      if (!allSequenceFields.contains(field)) {
        throw new IllegalArgumentException(
            "table option 'partial-update.remove-record-on-sequence-group' names '"
                + field
                + "', which is no sequence field of a 'fields.<f>.sequence-group': name one of "
                + allSequenceFields);
      }
    }

    FieldAggregator[] aggregators = new FieldAggregator[rowType.size()];
    for (int i = 0; i < aggregators.length; i++) {
      String column = rowType.field(i).name();
      String function = aggregateFunction(schema, column, allSequenceFields, protectedColumns);
      aggregators[i] =
          function == null ? null : FieldAggregator.create(rowType, i, function, options);
    }
    return new PartialUpdateMerge(
        new MergedRow(schema),
        rowType,
        ignoreDelete,
        removeRecordOnDelete,
        groups.toArray(new SequenceGroup[0]),
        groupOf,
        sequenceField,
        aggregators);
  }

  /** Paimon's choice for partial-update: none for sequence fields, set ones need a group. */
  private static String aggregateFunction(
      TableSchema schema,
      String column,
      List<String> sequenceFields,
      List<String> protectedColumns) {
    if (sequenceFields.contains(column)) {
      return null;
    }
    if (schema.primaryKeys().contains(column)) {
      return FieldAggregator.PRIMARY_KEY;
    }
    TableOptions options = schema.options();
    String function = options.get("fields." + column + ".aggregate-function");
    if (function == null) {
      function = options.get("fields.default-aggregate-function");
    }
    if (function != null
        && !function.equals("last_non_null_value")
        && !protectedColumns.contains(column)) {
      throw new IllegalArgumentException(
          "partial-update column '"
              + column
              + "' has aggregate function '"
              + function
              + "' but no sequence group: add it to a 'fields.<s>.sequence-group', or remove"
              + " its aggregate function");
    }
    return function;
  }

  private static void claim(int[] groupOf, int column, int g, RowType rowType, String option) {
    if (groupOf[column] >= 0) {
      throw new IllegalArgumentException(
          "column '"
              + rowType.field(column).name()
              + "' is in two sequence groups (again in '"
              + option
              + "'): a column may belong to one group only");
    }
    groupOf[column] = g;
  }

  private static IllegalArgumentException conflict(String a, String b) {
    return new IllegalArgumentException(
        "table options '"
            + a
            + "' and '"
            + b
            + "' conflict: they treat retractions differently;"
            + " use one of them");
  }

  @Override
  public void reset() {
    empty = true;
    meetInsert = false;
    notNullFilled = false;
    deleteRow = false;
    row.clear();
    latestSequenceNumber = 0;
    for (FieldAggregator aggregator : aggregators) {
      if (aggregator != null) {
        aggregator.reset();
      }
    }
  }

  @Override
  public void add(ChangeRow version) {
    empty = false;
    deleteRow = false;
    RowKind kind = version.kind();
    if (!kind.isAdd()) {
      if (!notNullFilled) {
        notNull.copy(version, row);
        notNullFilled = true;
      }
      // Tables written before ignore-delete was applied on write may hold retractions.
      if (ignoreDelete) {
        return;
      }
      latestSequenceNumber = version.sequenceNumber();
      if (groups.length > 0) {
        retractWithSequenceGroups(kind, version);
      } else if (removeRecordOnDelete) {
        if (kind == RowKind.DELETE) {
          deleteRow = true;
          notNull.reset(version, row);
        }
      } else {
        throw new MergeException(
            "merge-engine 'partial-update' cannot take the retraction "
                + kind.shortString()
                + " of key "
                + Arrays.toString(version.toKeyValue().key())
                + " without a rule for it; set one of:"
                + " 'ignore-delete' = 'true' (drop retractions),"
                + " 'partial-update.remove-record-on-delete' = 'true' (a -D removes the row),"
                + " or 'fields.<s>.sequence-group' (a retraction nulls the group's columns; add"
                + " 'partial-update.remove-record-on-sequence-group' = '<s>' to remove the row on"
                + " a -D of that group)");
      }
      return;
    }
    latestSequenceNumber = version.sequenceNumber();
    if (groups.length == 0) {
      updateNonNullFields(version);
    } else {
      updateWithSequenceGroups(version);
    }
    meetInsert = true;
    notNullFilled = true;
  }

  private void updateNonNullFields(ChangeRow version) {
    for (int i = 0; i < arity; i++) {
      if (!version.isNullAt(i)) {
        row.copyValue(i, version);
      } else if (notNull.contains(i)) {
        notNull.require(version, i);
      }
    }
  }

  /**
   * Decides, before touching the row, how the version relates to each group. Paimon compares column
   * by column while it updates the row, but a group's sequence fields change only when the version
   * is at or after them, after which it compares equal: the same decisions.
   */
  private void judge(ChangeRow version) {
    for (int g = 0; g < groups.length; g++) {
      FieldsOrder order = groups[g].order();
      if (order.allNull(version)) {
        verdicts[g] = SKIP;
      } else {
        verdicts[g] = order.compare(version, row) >= 0 ? NEWER : OLDER;
      }
    }
  }

  private void updateWithSequenceGroups(ChangeRow version) {
    judge(version);
    for (int i = 0; i < arity; i++) {
      FieldAggregator aggregator = aggregators[i];
      int g = groupOf[i];
      if (g < 0) {
        if (aggregator != null) {
          aggregator.agg(row, version);
        } else if (!version.isNullAt(i)) {
          row.copyValue(i, version);
        }
      } else if (verdicts[g] == NEWER) {
        if (sequenceField[i] || aggregator == null) {
          row.copy(i, version);
        } else {
          aggregator.agg(row, version);
        }
      } else if (verdicts[g] == OLDER && aggregator != null) {
        aggregator.aggReversed(row, version);
      }
    }
  }

  private void retractWithSequenceGroups(RowKind kind, ChangeRow version) {
    judge(version);
    if (kind == RowKind.DELETE) {
      for (int g = 0; g < groups.length; g++) {
        if (verdicts[g] == NEWER && groups[g].removesRowOnDelete()) {
          deleteRow = true;
          notNull.reset(version, row);
          return;
        }
      }
    }
    for (int i = 0; i < arity; i++) {
      int g = groupOf[i];
      if (g < 0 || verdicts[g] == SKIP) {
        continue;
      }
      FieldAggregator aggregator = aggregators[i];
      if (verdicts[g] == NEWER && sequenceField[i]) {
        row.copy(i, version);
      } else if (aggregator != null) {
        aggregator.retract(row, version);
      } else if (verdicts[g] == NEWER) {
        row.setNull(i);
      }
    }
  }

  /** The key's row, valid until the next {@link #reset()}; null if no version was added. */
  @Override
  public ChangeRow result() {
    if (empty) {
      return null;
    }
    RowKind kind = deleteRow || !meetInsert ? RowKind.DELETE : RowKind.INSERT;
    row.stamp(kind, latestSequenceNumber);
    return row;
  }
}
