package io.changelake.beam;

import java.util.Map;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PInput;
import org.apache.beam.sdk.values.POutput;
import org.apache.beam.sdk.values.PValue;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;

/**
 * What {@link ChangelakeIO#write()} returns: the snapshots it committed, the rows it could not
 * write, and the source positions it is done with.
 */
public final class WriteResult implements POutput {

  private static final TupleTag<Row> SNAPSHOTS = new TupleTag<>("snapshots");
  private static final TupleTag<BadRecord> DEAD_LETTERS = new TupleTag<>("deadLetters");
  private static final TupleTag<Row> SETTLED = new TupleTag<>("settledPositions");

  private final Pipeline pipeline;
  private final PCollection<Row> snapshots;
  private final PCollection<BadRecord> deadLetters;
  private final PCollection<Row> settledPositions;

  WriteResult(
      Pipeline pipeline,
      PCollection<Row> snapshots,
      PCollection<BadRecord> deadLetters,
      PCollection<Row> settledPositions) {
    this.pipeline = pipeline;
    this.snapshots = snapshots;
    this.deadLetters = deadLetters;
    this.settledPositions = settledPositions;
  }

  /**
   * One row per snapshot created: {@code table} (location), {@code snapshot_id}, {@code
   * commit_kind} (APPEND or COMPACT), {@code commit_time}, {@code commit_identifier}, {@code
   * commit_user}. In streaming, they arrive once per commit interval; in batch, at the end.
   */
  public PCollection<Row> getSnapshots() {
    return snapshots;
  }

  /**
   * Rows that could not be written, as Beam's {@link BadRecord}s: the row (human-readable and
   * encoded) and the reason (a null primary key, a value its column cannot take, an unknown row
   * kind, a record the merge engine refuses). Hand them to an {@code ErrorHandler} with {@link
   * ChangelakeWrite#withBadRecordErrorHandler}, or consume them here.
   */
  public PCollection<BadRecord> getDeadLetters() {
    return deadLetters;
  }

  /**
   * The {@link SourcePosition}s of the input rows the write is done with, as ranges of {@link
   * SourcePosition#SETTLED_SCHEMA}: a range with a {@code commit_identifier} is in the table's
   * snapshot of that commit, emitted only after the commit succeeded; one without it holds rows
   * that went to the dead letters or changed nothing. Empty unless the input has a position field.
   * A range may come again after a failure is retried (at least once), and ranges come in no
   * particular order.
   */
  public PCollection<Row> getSettledPositions() {
    return settledPositions;
  }

  @Override
  public Pipeline getPipeline() {
    return pipeline;
  }

  @Override
  public Map<TupleTag<?>, PValue> expand() {
    return Map.of(SNAPSHOTS, snapshots, DEAD_LETTERS, deadLetters, SETTLED, settledPositions);
  }

  @Override
  public void finishSpecifyingOutput(
      String transformName, PInput input, PTransform<?, ?> transform) {}
}
