package io.changelake.cli;

import io.changelake.store.ForwardingObjectStore;
import io.changelake.store.ObjectStore;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A store that records what a maintenance job deletes, so that {@code expire} and {@code
 * clean-orphans} print exactly what the library removed; in a dry run it deletes and writes
 * nothing, which lets the library's own rules decide what a run would remove instead of a copy of
 * them here.
 */
final class RecordingStore extends ForwardingObjectStore {

  private final boolean dryRun;
  private final List<String> deleted = new ArrayList<>();

  RecordingStore(ObjectStore store, boolean dryRun) {
    super(store);
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
      super.delete(path);
    }
  }

  /** In a dry run the write is dropped: maintenance writes only hints, such as EARLIEST. */
  @Override
  public void write(String path, byte[] data) throws IOException {
    if (!dryRun) {
      super.write(path, data);
    }
  }

  @Override
  public OutputStream create(String path) throws IOException {
    refuseInDryRun(path);
    return super.create(path);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] data) throws IOException {
    refuseInDryRun(path);
    return super.createIfAbsent(path, data);
  }

  private void refuseInDryRun(String path) {
    if (dryRun) {
      throw new IllegalStateException("a dry run creates no file, but was asked for " + path);
    }
  }
}
