package io.changelake.cli;

import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A store that records what a maintenance job deletes, so that {@code expire} and {@code
 * clean-orphans} print exactly what the library removed; in a dry run it deletes and writes
 * nothing, which lets the library's own rules decide what a run would remove instead of a copy of
 * them here.
 */
final class RecordingStore implements ObjectStore {

  private final ObjectStore store;
  private final boolean dryRun;
  private final List<String> deleted = new ArrayList<>();

  RecordingStore(ObjectStore store, boolean dryRun) {
    this.store = store;
    this.dryRun = dryRun;
  }

  /** The paths deleted (or, in a dry run, that would have been), in order. */
  List<String> deleted() {
    return List.copyOf(deleted);
  }

  @Override
  public void delete(String path) throws IOException {
    deleted.add(path);
    if (!dryRun) {
      store.delete(path);
    }
  }

  /** In a dry run the write is dropped: maintenance writes only hints, such as EARLIEST. */
  @Override
  public void write(String path, byte[] data) throws IOException {
    if (!dryRun) {
      store.write(path, data);
    }
  }

  @Override
  public OutputStream create(String path) throws IOException {
    refuseInDryRun(path);
    return store.create(path);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    refuseInDryRun(path);
    return store.createIfAbsent(path, data);
  }

  private void refuseInDryRun(String path) {
    if (dryRun) {
      throw new IllegalStateException("a dry run creates no file, but was asked for " + path);
    }
  }

  @Override
  public String root() {
    return store.root();
  }

  @Override
  public byte[] read(String path) throws IOException {
    return store.read(path);
  }

  @Override
  public byte[] readRange(String path, long offset, int length) throws IOException {
    return store.readRange(path, offset, length);
  }

  @Override
  public Optional<ObjectInfo> stat(String path) throws IOException {
    return store.stat(path);
  }

  @Override
  public List<ObjectInfo> list(String prefix) throws IOException {
    return store.list(prefix);
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
