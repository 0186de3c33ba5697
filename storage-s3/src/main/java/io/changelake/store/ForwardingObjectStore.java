package io.changelake.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * A store that passes every call to another: the base of a store that watches, changes or refuses
 * some calls and overrides only those, such as the command line's store that records what a
 * maintenance job deletes, or a test's store that fails or delays writes.
 */
public abstract class ForwardingObjectStore implements ObjectStore {

  private final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
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
    delegate.write(path, data);
  }

  @Override
  public OutputStream create(String path) throws IOException {
    return delegate.create(path);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
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
