package io.changelake.beam;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;
import org.apache.beam.sdk.util.VarInt;

/**
 * The coder of a {@link PendingKey} in {@link AssignHashBucketFn}'s state: the partition number and
 * the bucket as variable-length ints, the key hash in four bytes (hashes spread over every int, so
 * a variable length would not save): 6 bytes a key while the assigner has seen fewer than 128
 * partitions and opened fewer than 128 buckets.
 */
final class PendingKeyCoder extends CustomCoder<PendingKey> {
  private static final long serialVersionUID = 1L;

  private static final PendingKeyCoder INSTANCE = new PendingKeyCoder();

  static PendingKeyCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(PendingKey key, OutputStream stream) throws IOException {
    VarInt.encode(key.partition(), stream);
    DataOutputStream out = new DataOutputStream(stream);
    out.writeInt(key.keyHash());
    out.flush();
    VarInt.encode(key.bucket(), stream);
  }

  @Override
  public PendingKey decode(InputStream stream) throws IOException {
    int partition = VarInt.decodeInt(stream);
    int keyHash = new DataInputStream(stream).readInt();
    return new PendingKey(partition, keyHash, VarInt.decodeInt(stream));
  }

  @Override
  public void verifyDeterministic() {}
}
