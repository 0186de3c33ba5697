package io.changelake.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Test fixture: an object store that crashes once, on the first write, create or create-if-absent
 * of a path that matches, before that operation takes effect, as if the process died there.
 */
public final class FaultInjectingObjectStore implements ObjectStore {

  /** The simulated death of the process. */
  public static final class SimulatedCrash extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SimulatedCrash(String path) {
      super("simulated crash before writing " + path);
    }
  }

  private final ObjectStore delegate;
  private final Predicate<String> crashBefore;
  private boolean crashed;

  public FaultInjectingObjectStore(ObjectStore delegate, Predicate<String> crashBefore) {
    this.delegate = delegate;
    this.crashBefore = crashBefore;
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
  public String root() {
    return delegate.root();
  }

  @Override
  public byte[] read(String path) throws IOException {
    return delegate.read(path);
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    return delegate.readRange(path, offset, length);
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    return delegate.stat(path);
  }

  @Override
  public void write(String path, byte[] data) throws IOException {
    maybeCrash(path);
    delegate.write(path, data);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    maybeCrash(path);
    return delegate.create(path);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    maybeCrash(path);
    return delegate.createIfAbsent(path, data);
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return delegate.list(prefix);
  }

  @Override
  public void delete(String path) throws IOException {
    delegate.delete(path);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
