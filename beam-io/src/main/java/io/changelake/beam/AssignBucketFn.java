package io.changelake.beam;

import io.changelake.table.BucketAssigner;
import io.changelake.table.HashBucketAssigner;
import io.changelake.table.Table;
import java.util.List;
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
 * assigner, for {@link AssignHashBucketFn} to give it its bucket.
 *
 * <p>Opens (and, if asked, creates) the table once per DoFn instance, for its schema; a write that
 * names sequence fields fails there if the table orders its keys' versions by other ones, and a
 * write built for the other bucket mode than the table's fails there too.
 */
final class AssignBucketFn extends DoFn<Row, KV<String, KindedRow>> {
  private static final long serialVersionUID = 1L;

  private final TableReference target;
  private final Schema input;
  private final String rowKindField;
  private final List<String> sequenceFields;
  private final Coder<Row> rowCoder;
  private final TupleTag<KV<String, KindedRow>> rowsTag;
  private final TupleTag<BadRecord> deadLetterTag;
  private final boolean dynamicBuckets;

  private transient TableReference.Opened opened;
  private transient RowMapping mapping;
  private transient BucketAssigner assigner;
  private transient HashBucketAssigner hashAssigner;

  AssignBucketFn(
      TableReference target,
      Schema input,
      String rowKindField,
      List<String> sequenceFields,
      Coder<Row> rowCoder,
      TupleTag<KV<String, KindedRow>> rowsTag,
      TupleTag<BadRecord> deadLetterTag,
      boolean dynamicBuckets) {
    this.target = target;
    this.input = input;
    this.rowKindField = rowKindField;
    this.sequenceFields = sequenceFields;
    this.rowCoder = rowCoder;
    this.rowsTag = rowsTag;
    this.deadLetterTag = deadLetterTag;
    this.dynamicBuckets = dynamicBuckets;
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
    mapping = RowMapping.of(input, rowKindField, table.schema().rowType(), table.location());
    if (table.options().dynamicBucket() != dynamicBuckets) {
      throw new IllegalStateException(
          "ChangelakeIO.write(): table "
              + target.location()
              + " has 'bucket' = "
              + table.options().bucket()
              + " but the pipeline was built for "
              + (dynamicBuckets ? "dynamic bucket mode" : "a fixed bucket count")
              + " (built before the table existed, or where it could not be read): build the"
              + " pipeline again where the table can be read");
    }
    if (dynamicBuckets) {
      hashAssigner = table.newHashBucketAssigner(0);
    } else {
      assigner = new BucketAssigner(table.schema(), table.location());
    }
  }

  @ProcessElement
  public void process(@Element Row row, MultiOutputReceiver out) throws Exception {
    String key;
    KindedRow kinded;
    try {
      kinded = mapping.map(row);
      key =
          dynamicBuckets
              ? AssignHashBucketFn.keyOf(hashAssigner.assignerOf(kinded.values()))
              : assigner.assign(kinded.values()).id();
    } catch (IllegalArgumentException e) {
      WriteMetrics.DEAD_LETTERS.inc();
      out.get(deadLetterTag)
          .output(BadRecord.fromExceptionInformation(row, rowCoder, e, e.getMessage()));
      return;
    }
    out.get(rowsTag).output(KV.of(key, kinded));
  }

  @Teardown
  public void teardown() throws Exception {
    if (opened != null) {
      opened.close();
      opened = null;
    }
  }
}
