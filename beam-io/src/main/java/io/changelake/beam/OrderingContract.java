package io.changelake.beam;

import java.util.List;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;

/**
 * The ordering contract of {@link ChangelakeWrite}, checked when the pipeline is built: Beam
 * promises no order, so the changes of one key are ordered by the sequence fields the write names
 * (the table's {@code sequence.field}), and an unbounded write without them is refused unless its
 * user states that the source and runner keep each key's order, or its table merges a key's rows to
 * the same result in any order.
 */
final class OrderingContract {

  private OrderingContract() {}

  /** Checks the sequence fields a write names (none: nothing to check) against its input. */
  static void checkSequenceFields(Schema schema, List<String> sequenceFields, String rowKindField) {
    if (sequenceFields == null) {
      return;
    }
    if (sequenceFields.isEmpty()) {
      throw new IllegalArgumentException("withSequenceField(): name at least one field");
    }
    for (String field : sequenceFields) {
      if (!schema.hasField(field) || field.equals(rowKindField)) {
        throw new IllegalArgumentException(
            "withSequenceField('"
                + field
                + "'): the input has no such column (fields "
                + schema.getFieldNames()
                + ", the row-kind field excluded)");
      }
    }
  }

  /**
   * Refuses an unbounded write whose result would depend on the order rows arrive in, unless it has
   * a sequence ({@link ChangelakeWrite#withSequenceField}), the user states that arrival order is
   * the change order ({@link ChangelakeWrite#withArrivalOrder}), or it creates a table whose merge
   * ignores order ({@link TableReference.Creation#orderFree}).
   */
  static void checkOrdered(
      PCollection<Row> input,
      List<String> sequenceFields,
      boolean arrivalOrder,
      TableReference.Creation creation) {
    if (input.isBounded() == PCollection.IsBounded.BOUNDED
        || arrivalOrder
        || sequenceFields != null
        || (creation != null && creation.orderFree())) {
      return;
    }
    throw new IllegalArgumentException(
        "an unbounded write of updates or deletes needs the order of each key's changes, and a"
            + " runner such as Dataflow or Flink delivers rows in any order: call"
            + " withSequenceField(<a column that grows with each change of a key, such as a log"
            + " position>), or withArrivalOrder() if the source and the runner keep each key's"
            + " order");
  }

  /**
   * Refuses what cannot order the changes of a cross-partition upsert table's keys. Paimon 1.3.1
   * refuses a {@code sequence.field} on such a table ("You can not use sequence.field in cross
   * partition update case"), so the write names none, and an unbounded write must state {@link
   * ChangelakeWrite#withArrivalOrder}: which partition keeps a key (its last under deduplicate, its
   * first under partial-update and aggregation) and which row first-row keeps are those of the
   * order the rows arrive in, whatever the merge.
   */
  static void checkCrossPartition(
      PCollection<Row> input, List<String> sequenceFields, boolean arrivalOrder, String table) {
    String what =
        "table "
            + table
            + " is a cross-partition upsert table (its primary key lacks a partition column), which"
            + " cannot have a sequence.field, as in Paimon: ";
    if (sequenceFields != null) {
      throw new IllegalArgumentException(
          what
              + "drop withSequenceField("
              + String.join(",", sequenceFields)
              + "); a bounded write then takes each key's rows as they come, and an unbounded one"
              + " needs withArrivalOrder() (the source and the runner keep each key's order)");
    }
    if (input.isBounded() == PCollection.IsBounded.UNBOUNDED && !arrivalOrder) {
      throw new IllegalArgumentException(
          what
              + "an unbounded write needs withArrivalOrder(), stating that the source and the runner"
              + " keep each key's order, since the partition a key moves to is decided by it");
    }
  }
}
