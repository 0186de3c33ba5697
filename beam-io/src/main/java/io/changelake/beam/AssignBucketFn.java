package io.changelake.beam;

import io.changelake.schema.SchemaChange;
import io.changelake.table.BucketAssigner;
import io.changelake.table.CrossPartitionUpsert;
import io.changelake.table.HashBucketAssigner;
import io.changelake.table.SchemaConflictException;
import io.changelake.table.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The first stage: turns each Beam row into a table row and keys it by its bucket; a row that does
 * not fit (a null primary key, a value of the wrong type, an unknown row kind) becomes a dead
 * letter with the reason.
 *
 * <p>A dynamic-bucket table's row ({@code bucket} = -1) is keyed instead by its key's bucket
 * assigner, for {@link AssignHashBucketFn} to give it its bucket; a cross-partition upsert table's
 * by its key's assigner, for {@link AssignCrossPartitionFn} to place it.
 *
 * <p>Opens (and, if asked, creates) the table once per DoFn instance, for its schema; a write that
 * names sequence fields fails there if the table orders its keys' versions by other ones, and a
 * write built for the other bucket mode than the table's fails there too. A row whose {@link
 * DynamicColumns} do not fit that schema makes it look at the table's latest schema and, under
 * {@code withSchemaEvolution()}, alter the table first (counted in {@code schemaChanges}); each row
 * leaves tagged with the schema id it was mapped by.
 */
final class AssignBucketFn extends DoFn<Row, KV<String, KindedRow>> {
  private static final long serialVersionUID = 1L;

  private final TableReference target;
  private final Schema input;
  private final String rowKindField;
  private final List<String> sequenceFields;
  private final boolean evolve;
  private final Coder<Row> rowCoder;
  private final TupleTag<KV<String, KindedRow>> rowsTag;
  private final TupleTag<BadRecord> deadLetterTag;
  private final TableReference.BucketMode mode;

  /** Alters lost to other workers' before this one gives up; each loss means the schema moved. */
  private static final int MAX_ALTER_ATTEMPTS = 20;

  private transient TableReference.Opened opened;
  private transient RowMapping mapping;
  private transient BucketAssigner assigner;
  private transient HashBucketAssigner hashAssigner;
  private transient CrossPartitionUpsert keyAssigners;

  AssignBucketFn(
      TableReference target,
      Schema input,
      String rowKindField,
      List<String> sequenceFields,
      boolean evolve,
      Coder<Row> rowCoder,
      TupleTag<KV<String, KindedRow>> rowsTag,
      TupleTag<BadRecord> deadLetterTag,
      TableReference.BucketMode mode) {
    this.target = target;
    this.input = input;
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
    opened = target.open();
    Table table = opened.table();
    List<String> tableSequence = table.schema().options().sequenceFields();
    if (sequenceFields != null && !sequenceFields.equals(tableSequence)) {
      throw new IllegalStateException(
          "ChangelakeIO.write().withSequenceField("
              + String.join(",", sequenceFields)
              + "): table "
              + target.location()
              + " orders its keys' versions by sequence.field "
              + (tableSequence.isEmpty() ? "(none)" : String.join(",", tableSequence))
              + "; name the table's own sequence fields, or write a table that has these");
    }
    TableReference.BucketMode tableMode = target.bucketMode(table.schema());
    if (tableMode != mode) {
      throw new IllegalStateException(
          "ChangelakeIO.write(): table "
              + target.location()
              + " has 'bucket' = "
              + table.options().bucket()
              + " ("
              + tableMode
              + ") but the pipeline was built for "
              + mode
              + " (built before the table existed, or where it could not be read): build the"
              + " pipeline again where the table can be read");
    }
    useSchema(table);
  }

  private void useSchema(Table table) {
    mapping =
        RowMapping.of(
            input, rowKindField, table.schema().rowType(), table.schema().id(), table.location());
    switch (mode) {
      case FIXED -> assigner = new BucketAssigner(table.schema(), table.location());
      case DYNAMIC -> hashAssigner = table.newHashBucketAssigner(0);
      case CROSS_PARTITION ->
          // Only its assignerOf is used, which reads nothing: the folder is never created.
          keyAssigners =
              table.newCrossPartitionUpsert(
                  0, Path.of(System.getProperty("java.io.tmpdir"), "unused-" + UUID.randomUUID()));
    }
  }

  /**
   * Brings the mapping to a schema the row's dynamic columns fit: the table's latest, altered first
   * under {@code withSchemaEvolution()}. Another worker's alter landing first is no error: the
   * changes are worked out again on its schema.
   *
   * @throws IllegalArgumentException naming what does not fit, which makes the row a dead letter
   */
  private void fitDynamicColumns(Row row) throws IOException {
    Map<String, Row> dynamic = mapping.dynamicColumns(row);
    if (dynamic.isEmpty() || fit(dynamic, opened.table()).changes().isEmpty()) {
      return;
    }
    for (int attempt = 1; ; attempt++) {
      Table latest = Table.open(opened.store(), opened.table().path());
      SchemaFit fit = fit(dynamic, latest);
      if (!fit.changes().isEmpty()) {
        if (!evolve) {
          throw new IllegalArgumentException(
              "the row's dynamic columns would need "
                  + fit.changes().stream().map(SchemaChange::describe).toList()
                  + ": write with withSchemaEvolution() to apply them");
        }
        try {
          latest = latest.alter(fit.changes());
          WriteMetrics.SCHEMA_CHANGES.inc();
        } catch (SchemaConflictException raced) {
          if (attempt >= MAX_ALTER_ATTEMPTS) {
            throw new IllegalStateException(
                "table " + target + " kept changing its schema while evolving it", raced);
          }
          continue;
        }
      }
      opened = new TableReference.Opened(opened.store(), latest);
      useSchema(latest);
      return;
    }
  }

  /**
   * How the dynamic columns fit the table; a refusal (a kind change, a key column's type) stands on
   * every later schema too, since no alter changes a column's kind.
   */
  private static SchemaFit fit(Map<String, Row> dynamic, Table table) {
    SchemaFit fit = SchemaFit.ofDynamic(dynamic, table.schema());
    if (!fit.refusals().isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", fit.refusals()));
    }
    return fit;
  }

  @ProcessElement
  public void process(@Element Row row, MultiOutputReceiver out) throws Exception {
    String key;
    KindedRow kinded;
    try {
      fitDynamicColumns(row);
      kinded = mapping.map(row);
      key =
          switch (mode) {
            case FIXED -> assigner.assign(kinded.values()).id();
            case DYNAMIC -> AssignHashBucketFn.keyOf(hashAssigner.assignerOf(kinded.values()));
            case CROSS_PARTITION ->
                AssignCrossPartitionFn.keyOf(keyAssigners.assignerOf(kinded.values()));
          };
    } catch (IllegalArgumentException e) {
      WriteMetrics.DEAD_LETTERS.inc();
      out.get(deadLetterTag)
          .output(BadRecord.fromExceptionInformation(row, rowCoder, e, e.getMessage()));
      return;
    }
    out.get(rowsTag).output(KV.of(key, kinded));
  }

  @Teardown
  public void teardown() {
    Release.quietly("AssignBucketFn: key assigners", keyAssigners);
    keyAssigners = null;
    Release.quietly("AssignBucketFn: table", opened);
    opened = null;
  }
}
