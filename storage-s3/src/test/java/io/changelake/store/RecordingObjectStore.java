package io.changelake.store;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test fixture: a store that counts range requests, as S3 would bill them, and the bytes its reads
 * return, and records the paths it is asked to stat, in order: a reader stats a data file when it
 * opens it.
 */
public final class RecordingObjectStore extends ForwardingObjectStore {

  private final AtomicInteger rangeRequests = new AtomicInteger();
  private final AtomicLong bytesRead = new AtomicLong();
  private final List<String> stats = new CopyOnWriteArrayList<>();

  public RecordingObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** The range requests made so far. */
  public int rangeRequests() {
    return rangeRequests.get();
  }

  /** The bytes whole and range reads have returned so far. */
  public long bytesRead() {
    return bytesRead.get();
  }

  /** The paths stat'ed so far, in order, once per request. */
  public List<String> stats() {
    return List.copyOf(stats);
  }

  @Override
  public byte[] read(String path) throws IOException {
    byte[] bytes = super.read(path);
    bytesRead.addAndGet(bytes.length);
    return bytes;
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    rangeRequests.incrementAndGet();
    byte[] bytes = super.readRange(path, offset, length);
    bytesRead.addAndGet(bytes.length);
    return bytes;
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    stats.add(path);
    return super.stat(path);
  }
}
