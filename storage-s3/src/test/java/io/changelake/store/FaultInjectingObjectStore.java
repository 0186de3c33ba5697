package io.changelake.store;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Predicate;

/**
 * Test fixture: an object store that crashes once, on the first write, create or create-if-absent
 * of a path that matches, before that operation takes effect, as if the process died there; or,
 * built by {@link #failingUploadOf}, whose first upload of a matching path fails at its end.
 */
public final class FaultInjectingObjectStore extends ForwardingObjectStore {

  /** The simulated death of the process. */
  public static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String path) {
      super("simulated crash before writing " + path);
    }
  }

  private final Predicate<String> crashBefore;
  private final Predicate<String> failUploadOf;
  private boolean uploadFailing;
  private boolean crashed;

  public FaultInjectingObjectStore(ObjectStore delegate, Predicate<String> crashBefore) {
    this(delegate, crashBefore, path -> false);
  }

  private FaultInjectingObjectStore(
      ObjectStore delegate, Predicate<String> crashBefore, Predicate<String> failUploadOf) {
    super(delegate);
    this.crashBefore = crashBefore;
    this.failUploadOf = failUploadOf;
  }

  /**
   * A store whose first stream created for a path that matches takes every byte, then fails with an
   * {@link IOException} when closed, its object never published: an upload refused at its end (S3
   * failing to complete a multipart upload).
   */
  public static FaultInjectingObjectStore failingUploadOf(
      ObjectStore delegate, Predicate<String> path) {
    return new FaultInjectingObjectStore(delegate, p -> false, path);
  }

  /** Whether the crash has happened. */
  public boolean crashed() {
    return crashed;
  }

  private void maybeCrash(String path) {
    if (!crashed && crashBefore.test(path)) {
      crashed = true;
      throw new SimulatedCrash(path);
    }
  }

  @Override
  public void write(String path, byte[] data) throws IOException {
    maybeCrash(path);
    super.write(path, data);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    maybeCrash(path);
    OutputStream out = super.create(path);
    if (uploadFailing || !failUploadOf.test(path)) {
      return out;
    }
    uploadFailing = true;
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        crashed = true;
        throw new IOException("simulated failure to complete the upload of " + path);
      }
    };
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    maybeCrash(path);
    return super.createIfAbsent(path, data);
  }
}
