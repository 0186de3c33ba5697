package io.changelake.beam;

import io.changelake.table.ChangelogTask;
import io.changelake.table.ChangelogTaskSerializer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.CustomCoder;

/**
 * The coder of read tasks between the planning and the reading stages: storage-s3's versioned
 * {@link ChangelogTaskSerializer}, so the wire form is owned, and tested, next to the record.
 */
final class ChangelogTaskCoder extends CustomCoder<ChangelogTask> {
  private static final long serialVersionUID = 1L;
  private static final ChangelogTaskCoder INSTANCE = new ChangelogTaskCoder();

  private ChangelogTaskCoder() {}

  static ChangelogTaskCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(ChangelogTask task, OutputStream out) throws IOException {
    // Not closed: the stream belongs to the caller.
    DataOutputStream data = new DataOutputStream(out);
    ChangelogTaskSerializer.write(task, data);
    data.flush();
  }

  @Override
  public ChangelogTask decode(InputStream in) throws IOException {
    return ChangelogTaskSerializer.read(new DataInputStream(in));
  }

  @Override
  public void verifyDeterministic() {
    // The same task always encodes to the same bytes: fixed field order, no maps.
  }
}
