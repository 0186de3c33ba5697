package io.changelake.beam;

import io.changelake.format.SerializedRow;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/**
 * The coder of a {@link KeyPlacement} in {@link AssignCrossPartitionFn}'s state: the key's length
 * as a variable-length int and its bytes, the key hash in four bytes, the partition number and the
 * bucket as variable-length ints. A BIGINT key (a 16-byte BinaryRow) takes 23 bytes while the
 * assigner has seen fewer than 128 partitions and opened fewer than 128 buckets in each.
 */
final class KeyPlacementCoder extends CustomCoder<KeyPlacement> {
  private static final long serialVersionUID = 1L;

  private static final KeyPlacementCoder INSTANCE = new KeyPlacementCoder();

  static KeyPlacementCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(KeyPlacement placement, OutputStream stream) throws IOException {
    byte[] key = placement.key().bytes();
    VarInt.encode(key.length, stream);
    stream.write(key);
    DataOutputStream out = new DataOutputStream(stream);
    out.writeInt(placement.keyHash());
    out.flush();
    VarInt.encode(placement.partition(), stream);
    VarInt.encode(placement.bucket(), stream);
  }

  @Override
  public KeyPlacement decode(InputStream stream) throws IOException {
    DataInputStream in = new DataInputStream(stream);
    byte[] key = new byte[VarInt.decodeInt(stream)];
    in.readFully(key);
    int keyHash = in.readInt();
    int partition = VarInt.decodeInt(stream);
    return new KeyPlacement(new SerializedRow(key), keyHash, partition, VarInt.decodeInt(stream));
  }

  @Override
  public void verifyDeterministic() {}
}
