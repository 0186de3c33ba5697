package io.changelake.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The stream behind {@link S3ObjectStore#create}: bytes gather in memory; a small object becomes
 * one PutObject on close, a large one a multipart upload that starts when the first part is full
 * and completes on close. Nothing is visible under the key before close returns.
 *
 * <p>A part is sent only once it is full and more bytes arrive, so the last part is never empty and
 * every part but the last has exactly the part size, as S3 requires.
 */
final class S3UploadStream extends OutputStream {

  /** Exposes the buffer so that a part goes to the SDK without another copy. */
  private static final class PartBuffer extends ByteArrayOutputStream {
    PartBuffer() {
      super(64 << 10);
    }

    byte[] bytes() {
      return buf;
    }
  }

  private final S3ObjectStore store;
  private final String key;
  private final int partSize;
  private final PartBuffer buffer = new PartBuffer();
  private final List<CompletedPart> parts = new ArrayList<>();
  private String uploadId;
  private boolean closed;
  private IOException failure;

  S3UploadStream(S3ObjectStore store, String key, int partSize) {
    this.store = store;
    this.key = key;
    this.partSize = partSize;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    checkUsable();
    while (len > 0) {
      if (buffer.size() == partSize) {
        sendPart();
      }
      int n = Math.min(len, partSize - buffer.size());
      buffer.write(b, off, n);
      off += n;
      len -= n;
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    checkUsable();
    closed = true;
    if (uploadId == null) {
      store.putObject(key, buffer.bytes(), buffer.size());
      return;
    }
    sendPart();
    try {
      store
          .client()
          .completeMultipartUpload(
              b ->
                  b.bucket(store.bucket())
                      .key(key)
                      .uploadId(uploadId)
                      .multipartUpload(u -> u.parts(parts)));
    } catch (SdkException e) {
      throw abort(store.failure("complete multipart upload", key, e));
    }
  }

  private void checkUsable() throws IOException {
    if (failure != null) {
      throw new IOException(
          "nothing was written to " + address() + ": an earlier part failed", failure);
    }
    if (closed) {
      throw new IOException("the stream to " + address() + " is closed");
    }
  }

  private void sendPart() throws IOException {
    try {
      if (uploadId == null) {
        uploadId =
            store.client().createMultipartUpload(b -> b.bucket(store.bucket()).key(key)).uploadId();
      }
      int partNumber = parts.size() + 1;
      String etag =
          store
              .client()
              .uploadPart(
                  b -> b.bucket(store.bucket()).key(key).uploadId(uploadId).partNumber(partNumber),
                  S3ObjectStore.body(buffer.bytes(), buffer.size()))
              .eTag();
      parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
      buffer.reset();
    } catch (SdkException e) {
      throw abort(store.failure("multipart upload", key, e));
    }
  }

  private String address() {
    return "s3://" + store.bucket() + "/" + key;
  }

  /** Aborts the upload (if one started) so that its parts stop costing; returns the failure. */
  private IOException abort(IOException cause) {
    failure = cause;
    if (uploadId != null) {
      try {
        store
            .client()
            .abortMultipartUpload(b -> b.bucket(store.bucket()).key(key).uploadId(uploadId));
      } catch (SdkException e) {
        cause.addSuppressed(store.failure("abort multipart upload " + uploadId, key, e));
      }
    }
    return cause;
  }
}
