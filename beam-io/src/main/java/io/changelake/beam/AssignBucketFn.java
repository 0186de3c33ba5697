package io.changelake.beam;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The first stage: finds each Beam row's table ({@link Destinations}), turns the row into a table
 * row and keys it by its table and bucket; a row that does not fit (a null primary key, a value of
 * the wrong type, an unknown row kind) becomes a dead letter with the reason.
 *
 * <p>A dynamic-bucket table's row ({@code bucket} = -1) is keyed instead by its key's bucket
 * assigner, for {@link AssignHashBucketFn} to give it its bucket; a cross-partition upsert table's
 * by its key's assigner, for {@link AssignCrossPartitionFn} to place it.
 *
 * <p>Opens each table once per DoFn instance ({@link TableAssigner}): a single table when the DoFn
 * is set up, and a failure there fails the pipeline; a many-table write's tables when their first
 * row comes, creating the table from its definition if it is missing, and a destination that cannot
 * be written (no destination, a failing definition, a table that does not fit) makes its rows dead
 * letters that name the destination, the pipeline going on. A row whose {@link DynamicColumns} do
 * not fit its table's schema makes it look at the table's latest schema and, under {@code
 * withSchemaEvolution()}, alter the table first (counted in {@code schemaChanges}); each row leaves
 * tagged with the schema id it was mapped by.
 */
final class AssignBucketFn extends DoFn<Row, KV<String, KindedRow>> {
  private static final long serialVersionUID = 1L;

  private final Destinations destinations;
  private final String rowKindField;
  private final List<String> sequenceFields;
  private final boolean evolve;
  private final Coder<Row> rowCoder;
  private final TupleTag<KV<String, KindedRow>> rowsTag;
  private final TupleTag<BadRecord> deadLetterTag;
  private final TableReference.BucketMode mode;

  private transient Map<Destination, TableAssigner> tables;

  /** Per destination that cannot be written, why: its rows go to the dead letters. */
  private transient Map<Destination, String> refused;

  AssignBucketFn(
      Destinations destinations,
      String rowKindField,
      List<String> sequenceFields,
      boolean evolve,
      Coder<Row> rowCoder,
      TupleTag<KV<String, KindedRow>> rowsTag,
      TupleTag<BadRecord> deadLetterTag,
      TableReference.BucketMode mode) {
    this.destinations = destinations;
    this.rowKindField = rowKindField;
    this.sequenceFields = sequenceFields;
    this.evolve = evolve;
    this.rowCoder = rowCoder;
    this.rowsTag = rowsTag;
    this.deadLetterTag = deadLetterTag;
    this.mode = mode;
  }

  @Setup
  public void setup() throws Exception {
    tables = new HashMap<>();
    refused = new HashMap<>();
    if (!destinations.isMany()) {
      TableReference table = destinations.single();
      Destination only = new Destination(table.database(), table.table());
      tables.put(only, open(only));
    }
  }

  private TableAssigner open(Destination destination) throws Exception {
    return TableAssigner.open(
        destinations.target(destination),
        rowKindField,
        sequenceFields,
        evolve,
        mode,
        destinations.isMany());
  }

  @ProcessElement
  public void process(@Element Row row, MultiOutputReceiver out) throws Exception {
    Destination destination = null;
    KV<String, KindedRow> assigned;
    try {
      destination = destinations.route(row);
      assigned = tableOf(destination).assign(row);
    } catch (IllegalArgumentException e) {
      deadLetter(row, destinations.isMany() ? about(destination, e.getMessage()) : e, out);
      return;
    } catch (RuntimeException e) {
      if (!destinations.isMany() || destination != null) {
        throw e;
      }
      // The user's router failed on this row.
      deadLetter(row, about(null, "the destination function failed: " + e), out);
      return;
    }
    out.get(rowsTag)
        .output(KV.of(destinations.key(destination, assigned.getKey()), assigned.getValue()));
  }

  /**
   * The destination's table, opened (created if missing) on its first row.
   *
   * @throws IllegalArgumentException if the destination cannot be written, with the reason
   */
  private TableAssigner tableOf(Destination destination) throws Exception {
    TableAssigner table = tables.get(destination);
    if (table != null) {
      return table;
    }
    String reason = refused.get(destination);
    if (reason == null) {
      try {
        table = open(destination);
        tables.put(destination, table);
        return table;
      } catch (IllegalArgumentException | IllegalStateException e) {
        reason = e.getMessage();
        refused.put(destination, reason);
      }
    }
    throw new IllegalArgumentException(reason);
  }

  private static IllegalArgumentException about(Destination destination, String reason) {
    return new IllegalArgumentException(
        "destination " + (destination == null ? "(none)" : destination) + ": " + reason);
  }

  private void deadLetter(Row row, IllegalArgumentException e, MultiOutputReceiver out)
      throws Exception {
    WriteMetrics.DEAD_LETTERS.inc();
    out.get(deadLetterTag)
        .output(BadRecord.fromExceptionInformation(row, rowCoder, e, e.getMessage()));
  }

  @Teardown
  public void teardown() {
    if (tables != null) {
      tables.values().forEach(TableAssigner::close);
      tables = null;
    }
  }
}
