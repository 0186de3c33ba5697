package io.changelake.beam;

import io.changelake.table.CommitMessage;
import java.util.List;

/**
 * What a bucket writer hands the committer for one batch of its bucket.
 *
 * @param bucket the bucket's id ({@code k=v/.../bucket-<n>}), the key of the writer's state
 * @param sequence the batch's number in its bucket, 1, 2, 3, ...: the committer commits a bucket's
 *     batches in this order
 * @param messages what the batch changed in the bucket (one message: one writer per bucket)
 * @param positions the source positions of the batch's rows, summarised ({@link SourcePosition}); a
 *     batch that changed nothing has no messages and sequence 0, and only settles its positions
 * @param moves the ids of the moves between partitions whose halves are among the batch's rows
 *     ({@link KindedRow#move()}): the committer commits this batch in the snapshot of the batches
 *     holding the other halves
 */
record WrittenBatch(
    String bucket,
    long sequence,
    List<CommitMessage> messages,
    List<PositionRange> positions,
    List<Long> moves) {
  WrittenBatch {
    messages = List.copyOf(messages);
    positions = List.copyOf(positions);
    moves = List.copyOf(moves);
  }
}
