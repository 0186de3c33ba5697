package io.changelake.mergetree.merge;

import io.changelake.mergetree.MergeFunction;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import java.util.Comparator;
import java.util.List;

/**
 * The merge function of a table ({@code merge-engine}) and the order its versions are merged in
 * ({@code sequence.field}): Apache Paimon 1.3's engines, so a table written by changelake merges to
 * the rows Paimon would merge it to, with the same row kinds and sequence numbers.
 *
 * <table>
 *   <caption>Merge engines</caption>
 *   <tr><th>merge-engine</th><th>result</th><th>retraction (-U, -D)</th></tr>
 *   <tr><td>deduplicate (default)</td><td>the last version as it is, kind and sequence number
 *       included: a last -U/-D deletes the key</td><td>taken; dropped with ignore-delete</td></tr>
 *   <tr><td>partial-update</td><td>+I of the row where each version's non-null columns overwrote
 *       the older values; sequence number of the last version</td><td>fails, unless ignore-delete
 *       (dropped), partial-update.remove-record-on-delete (a -D empties the row, result -D), or
 *       sequence groups (a newer retraction nulls the group's columns)</td></tr>
 *   <tr><td>aggregation</td><td>+I of the row where each column folded with its aggregate
 *       function; sequence number of the last version</td><td>retracted per column: sum
 *       subtracts, product divides, last_value and last_non_null_value null the column, the
 *       others fail unless fields.&lt;f&gt;.ignore-retract; with
 *       aggregation.remove-record-on-delete a -D empties the row (result -D)</td></tr>
 *   <tr><td>first-row</td><td>the first version as it is, with its own sequence number</td>
 *       <td>fails, unless ignore-delete (dropped)</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Options the engines read</caption>
 *   <tr><th>option</th><th>default</th><th>engines</th><th>meaning</th></tr>
 *   <tr><td>ignore-delete (fallbacks first-row.ignore-delete, deduplicate.ignore-delete,
 *       partial-update.ignore-delete)</td><td>false</td><td>deduplicate, partial-update,
 *       first-row</td><td>drop retractions; a key with only retractions merges to nothing
 *       (partial-update: a -D with sequence number 0, as Paimon)</td></tr>
 *   <tr><td>partial-update.remove-record-on-delete</td><td>false</td><td>partial-update</td>
 *       <td>a -D removes the row; not with ignore-delete or sequence groups</td></tr>
 *   <tr><td>fields.&lt;s&gt;.sequence-group</td><td></td><td>partial-update</td><td>columns
 *       updated only by versions whose sequence field(s) s order at or after the row's</td></tr>
 *   <tr><td>partial-update.remove-record-on-sequence-group</td><td></td><td>partial-update</td>
 *       <td>sequence fields whose group's newer -D removes the row</td></tr>
 *   <tr><td>fields.&lt;f&gt;.aggregate-function</td><td>last_non_null_value</td><td>aggregation;
 *       partial-update inside a sequence group</td><td>sum, product, min, max, last_value,
 *       last_non_null_value, first_value, first_non_null_value, listagg, bool_and,
 *       bool_or</td></tr>
 *   <tr><td>fields.default-aggregate-function</td><td>last_non_null_value</td><td>aggregation,
 *       partial-update</td><td>function of columns without their own</td></tr>
 *   <tr><td>fields.&lt;f&gt;.ignore-retract</td><td>false</td><td>aggregation, partial-update
 *       </td><td>column f keeps its value on a retraction</td></tr>
 *   <tr><td>fields.&lt;f&gt;.list-agg-delimiter</td><td>,</td><td>listagg</td><td>separator</td>
 *   </tr>
 *   <tr><td>aggregation.remove-record-on-delete</td><td>false</td><td>aggregation</td><td>a -D
 *       removes the row; not with fields.&lt;f&gt;.ignore-retract</td></tr>
 *   <tr><td>sequence.field</td><td></td><td>all but first-row</td><td>columns ordering the
 *       versions of a key before the sequence number ({@link #sequenceOrder}); aggregation
 *       keeps their last value</td></tr>
 * </table>
 *
 * <table>
 *   <caption>Aggregate functions and column types</caption>
 *   <tr><th>function</th><th>types</th><th>fold</th></tr>
 *   <tr><td>sum, product</td><td>TINYINT to DOUBLE, DECIMAL</td><td>integers wrap in their
 *       width; a DECIMAL product wider than its precision is null, a sum only once its unscaled
 *       value leaves a long (precision up to 18) or the precision (above)</td></tr>
 *   <tr><td>min, max</td><td>all but BOOLEAN</td><td>strings by code point, bytes unsigned</td>
 *   </tr>
 *   <tr><td>listagg</td><td>VARCHAR, STRING</td><td>non-null values joined, oldest first</td></tr>
 *   <tr><td>bool_and, bool_or</td><td>BOOLEAN</td><td></td></tr>
 *   <tr><td>last_value, last_non_null_value, first_value, first_non_null_value</td><td>all</td>
 *       <td>first_value is the first version's value, null included</td></tr>
 * </table>
 *
 * <p>Paimon 1.3 has no {@code count}: write 1 in a column and use {@code sum}.
 */
public final class MergeFunctions {

  private MergeFunctions() {}

  /**
   * A new merge function for the table's {@code merge-engine}; one per thread.
   *
   * @throws IllegalArgumentException naming the option and the fix if the options cannot work
   *     together (an unknown aggregate function, one that does not fit its column type, conflicting
   *     delete rules, a sequence.field with first-row or with its own aggregate function)
   */
  public static MergeFunction create(TableSchema schema) {
    TableOptions options = schema.options();
    for (String field : options.sequenceFields()) {
      if (options.get("fields." + field + ".aggregate-function") != null) {
        throw new IllegalArgumentException(
            "column '"
                + field
                + "' is a 'sequence.field' and has an aggregate function: remove"
                + " 'fields."
                + field
                + ".aggregate-function', a sequence field keeps its last"
                + " value");
      }
    }
    return switch (options.mergeEngine()) {
      case DEDUPLICATE -> new DeduplicateMerge(options.ignoreDelete());
      case PARTIAL_UPDATE -> PartialUpdateMerge.of(schema);
      case AGGREGATION -> AggregationMerge.of(schema);
      case FIRST_ROW -> {
        if (!options.sequenceFields().isEmpty()) {
          throw new IllegalArgumentException(
              "table option 'sequence.field' cannot be used with merge-engine 'first-row', which"
                  + " keeps the first version by arrival: remove it, or use another engine");
        }
        yield new FirstRowMerge(options.ignoreDelete());
      }
    };
  }

  /**
   * The order in which versions of one key are merged when the table has a {@code sequence.field}:
   * by those columns of the row, one after another, nulls first, then by sequence number, as Paimon
   * 1.3 sorts them ({@code UserDefinedSeqComparator}). Null when the table has no sequence.field:
   * versions then merge in sequence-number order.
   *
   * @throws IllegalArgumentException if sequence.field names no column
   */
  public static Comparator<ChangeRow> sequenceOrder(TableSchema schema) {
    List<String> fields = schema.options().sequenceFields();
    if (fields.isEmpty()) {
      return null;
    }
    FieldsOrder order = FieldsOrder.of(schema.rowType(), fields, "sequence.field");
    return (a, b) -> {
      int c = order.compare(a, b);
      return c != 0 ? c : Long.compare(a.sequenceNumber(), b.sequenceNumber());
    };
  }
}
