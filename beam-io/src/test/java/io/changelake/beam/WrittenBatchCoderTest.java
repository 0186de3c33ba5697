package io.changelake.beam;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketIncrement;
import io.changelake.table.CommitMessage;
import io.changelake.table.CommitMessageSerializer;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.IterableCoder;
import org.apache.beam.sdk.util.CoderUtils;
import org.junit.jupiter.api.Test;

/**
 * The written batch's coder: a batch with its move ids comes back as it went, in a bag too; the
 * unmarked form of version 1 (before moves had ids), as state kept across an update holds it, is
 * still read; an unknown version is refused naming it.
 */
class WrittenBatchCoderTest {

  private static final CommitMessage MESSAGE =
      new CommitMessage(
          new SerializedRow(new byte[] {1, 2, 3}),
          2,
          -1,
          new BucketIncrement(List.of(), List.of(), List.of(), List.of(), List.of()));

  private static final WrittenBatch BATCH =
      new WrittenBatch(
          "day=3/bucket-2",
          7,
          List.of(MESSAGE),
          List.of(new PositionRange("orders-1", 10, 19)),
          List.of(5L, (3L << 40) | 1));

  @Test
  void aBatchWithItsMovesComesBackAsItWentAloneAndInABag() throws Exception {
    assertEquals(
        BATCH,
        CoderUtils.decodeFromByteArray(
            WrittenBatchCoder.of(), CoderUtils.encodeToByteArray(WrittenBatchCoder.of(), BATCH)));
    IterableCoder<WrittenBatch> bag = IterableCoder.of(WrittenBatchCoder.of());
    WrittenBatch withoutMessages =
        new WrittenBatch("day=1/bucket-0", 0, List.of(), List.of(), List.of(5L));
    assertEquals(
        List.of(BATCH, withoutMessages),
        CoderUtils.decodeFromByteArray(
            bag, CoderUtils.encodeToByteArray(bag, List.of(BATCH, withoutMessages))));
  }

  @Test
  void theUnmarkedFormOfVersionOneIsStillReadWithoutMoves() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeUTF(BATCH.bucket());
    out.writeLong(BATCH.sequence());
    out.writeInt(1);
    CommitMessageSerializer.write(MESSAGE, out);
    out.writeInt(1);
    out.writeUTF("orders-1");
    out.writeLong(10);
    out.writeLong(19);
    out.flush();
    WrittenBatch read = CoderUtils.decodeFromByteArray(WrittenBatchCoder.of(), bytes.toByteArray());
    assertEquals(
        new WrittenBatch(BATCH.bucket(), 7, BATCH.messages(), BATCH.positions(), List.of()), read);
  }

  @Test
  void anUnknownVersionIsRefusedNamingIt() throws Exception {
    byte[] encoded = CoderUtils.encodeToByteArray(WrittenBatchCoder.of(), BATCH);
    encoded[2] = 9;
    CoderException refused =
        assertThrows(
            CoderException.class,
            () -> CoderUtils.decodeFromByteArray(WrittenBatchCoder.of(), encoded));
    assertEquals("a written batch of version 9, this coder reads 1 and 2", refused.getMessage());
  }
}
