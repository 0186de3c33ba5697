package io.changelake.beam;

import io.changelake.format.SerializedRow;
import io.changelake.table.HashBucketAssigner.Assignment;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/**
 * The coder of a key's {@link Assignment} kept in {@link AssignHashBucketFn}'s state: the
 * partition's bytes with their length, the key hash in four bytes (hashes are spread over every
 * int, so a variable length would not save) and the bucket as a variable-length int: 26 bytes for a
 * partition of one INT column (20 of them the partition's).
 */
final class AssignmentCoder extends CustomCoder<Assignment> {
  private static final long serialVersionUID = 1L;

  private static final AssignmentCoder INSTANCE = new AssignmentCoder();

  static AssignmentCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(Assignment assignment, OutputStream stream) throws IOException {
    byte[] partition = assignment.partition().bytes();
    VarInt.encode(partition.length, stream);
    stream.write(partition);
    DataOutputStream out = new DataOutputStream(stream);
    out.writeInt(assignment.keyHash());
    out.flush();
    VarInt.encode(assignment.bucket(), stream);
  }

  @Override
  public Assignment decode(InputStream stream) throws IOException {
    byte[] partition = new byte[VarInt.decodeInt(stream)];
    DataInputStream in = new DataInputStream(stream);
    in.readFully(partition);
    int keyHash = in.readInt();
    return new Assignment(new SerializedRow(partition), keyHash, VarInt.decodeInt(stream));
  }

  @Override
  public void verifyDeterministic() {}
}
