package io.changelake.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test fixture: a store that counts range requests, as S3 would bill them, and records the paths it
 * is asked to stat, in order: a reader stats a data file when it opens it.
 */
public final class RecordingObjectStore implements ObjectStore {

  private final ObjectStore delegate;
  private final AtomicInteger rangeRequests = new AtomicInteger();
  private final List<String> stats = new CopyOnWriteArrayList<>();

  public RecordingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** The range requests made so far. */
  public int rangeRequests() {
    return rangeRequests.get();
  }

  /** The paths stat'ed so far, in order, once per request. */
  public List<String> stats() {
    return List.copyOf(stats);
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
    rangeRequests.incrementAndGet();
    return delegate.readRange(path, offset, length);
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    stats.add(path);
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
