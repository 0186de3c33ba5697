package io.changelake.beam;

import io.changelake.table.CommitMessage;
import io.changelake.table.CommitMessageSerializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * The coder of {@link WrittenBatch}; its commit messages in {@link CommitMessageSerializer}'s
 * versioned form, then its position ranges, so a pipeline update that changes the form fails loudly
 * instead of misreading state.
 */
final class WrittenBatchCoder extends CustomCoder<WrittenBatch> {
  private static final long serialVersionUID = 1L;

  private static final WrittenBatchCoder INSTANCE = new WrittenBatchCoder();

  static WrittenBatchCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(WrittenBatch batch, OutputStream stream) throws IOException {
    DataOutputStream out = new DataOutputStream(stream);
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
    out.flush();
  }

  @Override
  public WrittenBatch decode(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    String bucket = in.readUTF();
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
    return new WrittenBatch(bucket, sequence, messages, positions);
  }
}
