package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.mergetree.lookup.LookupFileBuilder;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes records, in key order, as data or changelog files of one level: a new file each time one
 * reaches {@code target-file-size}. Data files above level 0 of a lookup table also feed the lookup
 * cache as they are written, so the next commit's lookups need not read them back.
 *
 * <p>Encoding Parquet (and the lookup copy) takes a third of a commit's time, so it runs on an
 * encoder of its own, a single-thread executor fed batches of records, at most four unfinished,
 * while the caller goes on merging and looking up: on two cores a commit takes about two thirds as
 * long. The executor is started at the first batch and stopped by {@link #finish} or {@link
 * #close}. Every file writer is touched on the encoder only; lookup copies are registered with the
 * cache in {@link #finish}, on the caller's thread, since registering must not overlap a lookup.
 *
 * <p>Use: {@link #write} the records, then {@link #finish} for the files; {@link #close} after
 * {@link #finish} does nothing, and without it abandons the output (the open file is dropped and
 * stays an orphan for the cleaner). One caller thread.
 */
final class RollingFileWriter implements Closeable {

  private static final int BATCH = 1024;
  private static final int BATCHES_UNFINISHED = 4;

  /** Rows between two checks of an output file's size against {@code target-file-size}. */
  private static final int SIZE_CHECK_ROWS = 1024;

  private final BucketFiles files;
  private final int level;
  private final boolean changelog;
  private final long targetSize;
  private final LookupLevels lookup;
  private final ArrayDeque<Future<?>> batches = new ArrayDeque<>();
  private List<KeyValue> batch = new ArrayList<>(BATCH);
  private ExecutorService encoder;

  // Encoder state: touched by tasks on the encoder, or by the caller before the encoder starts.
  private final List<DataFileMeta> written = new ArrayList<>();
  private final List<LookupFileBuilder> lookupCopies = new ArrayList<>();
  private KeyValueFileWriter current;
  private LookupFileBuilder currentLookup;
  private int rowsSinceSizeCheck;
  private boolean failed;

  /**
   * @param files the bucket's files
   * @param level the level the files are written at
   * @param changelog whether these are changelog files (never fed to the lookup)
   * @param targetSize option {@code target-file-size}
   * @param lookup the bucket's lookup, fed with data files above level 0; null for none
   */
  RollingFileWriter(
      BucketFiles files, int level, boolean changelog, long targetSize, LookupLevels lookup) {
    this.files = files;
    this.level = level;
    this.changelog = changelog;
    this.targetSize = targetSize;
    this.lookup = !changelog && level > 0 ? lookup : null;
  }

  /** Takes the next record, in key order. */
  void write(KeyValue kv) throws IOException {
    batch.add(kv);
    if (batch.size() == BATCH) {
      List<KeyValue> full = batch;
      batch = new ArrayList<>(BATCH);
      submit(() -> encode(full));
    }
  }

  /** Writes what is left, waits for the encoder, registers the lookup copies: the files written. */
  List<DataFileMeta> finish() throws IOException {
    if (encoder == null && batch.isEmpty()) {
      return List.of();
    }
    List<KeyValue> last = batch;
    batch = new ArrayList<>();
    submit(
        () -> {
          encode(last);
          if (!failed && current != null) {
            roll();
          }
        });
    while (!batches.isEmpty()) {
      await(batches.removeFirst());
    }
    encoder.shutdown();
    encoder = null;
    for (int i = 0; i < lookupCopies.size(); i++) {
      lookupCopies.get(i).finish(written.get(i));
    }
    lookupCopies.clear();
    return List.copyOf(written);
  }

  /** Abandons an unfinished output: batches not started are dropped, the open file too. */
  @Override
  public void close() throws IOException {
    if (encoder != null) {
      for (Future<?> waiting : batches) {
        waiting.cancel(false);
      }
      batches.clear();
      Future<?> abandoned = encoder.submit(this::abandonCurrent);
      encoder.shutdown();
      encoder = null;
      // Past the wait the encoder is done with the copies (if interrupted, the writer's scratch
      // folder goes with its close).
      await(abandoned);
      closeLookupCopies();
    } else {
      abandonCurrent();
      closeLookupCopies();
    }
  }

  /** A task of the encoder. */
  @FunctionalInterface
  private interface Encoding {
    void run() throws IOException;
  }

  private void submit(Encoding task) throws IOException {
    if (encoder == null) {
      encoder = Executors.newSingleThreadExecutor(this::encoderThread);
    }
    // Report a failed batch early, and hand no more batches than the encoder may hold unfinished.
    while (!batches.isEmpty()
        && (batches.size() >= BATCHES_UNFINISHED || batches.peekFirst().isDone())) {
      await(batches.removeFirst());
    }
    batches.addLast(
        encoder.submit(
            () -> {
              task.run();
              return null;
            }));
  }

  private Thread encoderThread(Runnable r) {
    Thread t = new Thread(r, "changelake-output-" + files.folder());
    t.setDaemon(true);
    return t;
  }

  private void await(Future<?> task) throws IOException {
    try {
      task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing " + files.folder());
    } catch (ExecutionException e) {
      Throwable t = e.getCause();
      if (t instanceof IOException io) {
        throw new IOException(io.getMessage(), io);
      }
      throw new IOException("writing a file in " + files.folder() + " failed: " + t, t);
    }
  }

  /** On the encoder: writes a batch; after a failure the batches still waiting do nothing. */
  private void encode(List<KeyValue> records) throws IOException {
    if (failed) {
      return;
    }
    try {
      for (KeyValue kv : records) {
        encodeOne(kv);
      }
    } catch (IOException | RuntimeException | Error e) {
      failed = true;
      abandonCurrent();
      throw e;
    }
  }

  private void encodeOne(KeyValue kv) throws IOException {
    if (current == null) {
      current = changelog ? files.newChangelogFile() : files.newDataFile();
      currentLookup = lookup != null ? lookup.newFile() : null;
    }
    current.write(kv);
    if (currentLookup != null) {
      currentLookup.add(kv);
    }
    // Parquet sums every column's buffers to estimate a size: ask every so many rows only.
    if (++rowsSinceSizeCheck >= SIZE_CHECK_ROWS) {
      rowsSinceSizeCheck = 0;
      if (current.estimatedSize() >= targetSize) {
        roll();
      }
    }
  }

  private void roll() throws IOException {
    FileSource source = changelog || level == 0 ? FileSource.APPEND : FileSource.COMPACT;
    DataFileMeta file = files.finish(current, level, source);
    current = null;
    if (currentLookup != null) {
      lookupCopies.add(currentLookup);
      currentLookup = null;
    }
    written.add(file);
  }

  private void abandonCurrent() {
    try {
      if (currentLookup != null) {
        currentLookup.close();
      }
      if (current != null) {
        current.close();
      }
    } catch (IOException | RuntimeException suppressed) {
      // The output is abandoned: what could not be closed stays an orphan for the cleaner.
    }
    currentLookup = null;
    current = null;
  }

  private void closeLookupCopies() throws IOException {
    for (LookupFileBuilder copy : lookupCopies) {
      copy.close();
    }
    lookupCopies.clear();
  }
}
