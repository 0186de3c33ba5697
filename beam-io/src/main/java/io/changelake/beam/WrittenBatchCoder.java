package io.changelake.beam;

import io.changelake.table.CommitMessage;
import io.changelake.table.CommitMessageSerializer;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * The coder of {@link WrittenBatch}: a version mark ({@value #MARK} as an unsigned short, then the
 * version byte), its bucket and sequence, its commit messages in {@link CommitMessageSerializer}'s
 * versioned form, its position ranges, then its move ids. A pipeline update that changes a form
 * fails loudly instead of misreading state.
 *
 * <p>Version 1, the form before moves had ids, had no mark: it began with the bucket's length,
 * which never reaches {@value #MARK} bytes, and ended after the ranges. It is still read (its
 * batches hold no move), so that state a job kept across an update is not lost.
 */
final class WrittenBatchCoder extends CustomCoder<WrittenBatch> {
  private static final long serialVersionUID = 1L;

  private static final WrittenBatchCoder INSTANCE = new WrittenBatchCoder();

  /** Where version 1 held the bucket id's length in bytes. */
  private static final int MARK = 0xFFFF;

  private static final int VERSION = 2;

  static WrittenBatchCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(WrittenBatch batch, OutputStream stream) throws IOException {
    DataOutputStream out = new DataOutputStream(stream);
    out.writeShort(MARK);
    out.writeByte(VERSION);
    out.writeUTF(batch.bucket());
    out.writeLong(batch.sequence());
    out.writeInt(batch.messages().size());
    for (CommitMessage m : batch.messages()) {
      CommitMessageSerializer.write(m, out);
    }
    out.writeInt(batch.positions().size());
    for (PositionRange r : batch.positions()) {
      out.writeUTF(r.partition());
      out.writeLong(r.first());
      out.writeLong(r.last());
    }
    out.writeInt(batch.moves().size());
    for (long move : batch.moves()) {
      out.writeLong(move);
    }
    out.flush();
  }

  @Override
  public WrittenBatch decode(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    int first = in.readUnsignedShort();
    String bucket;
    int version;
    if (first == MARK) {
      version = in.readUnsignedByte();
      if (version != VERSION) {
        throw new CoderException(
            "a written batch of version " + version + ", this coder reads 1 and " + VERSION);
      }
      bucket = in.readUTF();
    } else {
      version = 1;
      byte[] length = {(byte) (first >>> 8), (byte) first};
      bucket =
          new DataInputStream(new SequenceInputStream(new ByteArrayInputStream(length), stream))
              .readUTF();
    }
    long sequence = in.readLong();
    int n = in.readInt();
    List<CommitMessage> messages = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      messages.add(CommitMessageSerializer.read(in));
    }
    int ranges = in.readInt();
    List<PositionRange> positions = new ArrayList<>(ranges);
    for (int i = 0; i < ranges; i++) {
      positions.add(new PositionRange(in.readUTF(), in.readLong(), in.readLong()));
    }
    List<Long> moves = new ArrayList<>();
    if (version > 1) {
      int count = in.readInt();
      for (int i = 0; i < count; i++) {
        moves.add(in.readLong());
      }
    }
    return new WrittenBatch(bucket, sequence, messages, positions, moves);
  }
}
