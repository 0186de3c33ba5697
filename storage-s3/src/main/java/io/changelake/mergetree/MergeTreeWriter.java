package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.SerializedRow;
import io.changelake.table.BucketFiles;
import io.changelake.table.ChangelogProducer;
import io.changelake.table.CommitMessage;
import io.changelake.table.TableOptions;
import io.changelake.table.TableSchema;
import io.changelake.mergetree.lookup.LookupFileBuilder;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.Set;

/**
 * The LSM tree of one bucket: takes records, and at each commit turns them into files and a
 * changelog as the table's producer says.
 *
 * <table>
 *   <caption>What a commit does, by producer</caption>
 *   <tr><th>producer</th><th>at each commit</th></tr>
 *   <tr><td>none</td><td>flush the buffer to level 0 (merged per key); compact when the sorted
 *     runs exceed the trigger</td></tr>
 *   <tr><td>input</td><td>the same, and write every input record to a changelog file beside the
 *     level-0 file</td></tr>
 *   <tr><td>lookup</td><td>merge the buffer (and any level-0 files) straight into a level above 0,
 *     looking up each key's current value to emit -U/+U; with {@code lookup-wait=false}, flush to
 *     level 0 now and do that merge at the next commit</td></tr>
 *   <tr><td>full-compaction</td><td>every {@code full-compaction.delta-commits} commits, merge the
 *     buffer and every run into the top level, emitting the difference from the previous top
 *     level; flush to level 0 in between</td></tr>
 * </table>
 *
 * <p>Merging the buffer straight into a compaction (lookup, full compaction) skips writing and
 * reading back a level-0 file; the changelog is the same as Paimon's, and Paimon reads the table,
 * since the files and levels it leaves are a valid LSM tree. A commit then yields one COMPACT
 * snapshot instead of an APPEND and a COMPACT.
 *
 * <p>With {@code write-only}, a commit only flushes: several writers may then append to one
 * bucket, and a separate job compacts (and produces the lookup or full-compaction changelog) by
 * asking for {@link CompactionRequest#NORMAL} or {@link CompactionRequest#FULL}.
 *
 * <p>Not thread-safe: one writer per bucket, used by one thread.
 */
public final class MergeTreeWriter implements Closeable {

  /** A compaction the caller asks for on top of what the producer does anyway. */
  public enum CompactionRequest {
    /** Only what the producer and the triggers call for. */
    AUTO,
    /** A universal compaction pick, even below the sorted-run trigger. */
    NORMAL,
    /** Everything into the top level. */
    FULL
  }

  /** What a compaction emits besides its files. */
  private enum ChangelogMode {
    NONE,
    LOOKUP,
    FULL_COMPACTION
  }

  private final TableOptions options;
  private final ChangelogProducer producer;
  private final BucketFiles files;
  private final SerializedRow partition;
  private final int bucket;
  private final int totalBuckets;
  private final Levels levels;
  private final MergeFunction mergeFunction;
  private final KeyMerge keyMerge;
  private final Comparator<KeyValue> versionOrder;
  private final RowComparator keyOrder;
  private final WriteBuffer buffer;
  private final UniversalCompaction compaction;
  private final LookupLevels lookup;
  private final ChangelogRule changelogRule;
  private final Integer fullCompactionDeltaCommits;
  private long nextSequence;
  private boolean writtenSinceFullCompaction;

  private final List<DataFileMeta> newFiles = new ArrayList<>();
  private final List<DataFileMeta> newChangelog = new ArrayList<>();
  private final List<DataFileMeta> compactBefore = new ArrayList<>();
  private final List<DataFileMeta> compactAfter = new ArrayList<>();
  private final List<DataFileMeta> compactChangelog = new ArrayList<>();

  /**
   * @param schema the table schema
   * @param files the bucket's files
   * @param partition the partition, serialized
   * @param bucket the bucket
   * @param totalBuckets the table's bucket count
   * @param restored the bucket's live files in the latest snapshot
   * @param mergeFunction the merge engine's rule
   * @param sequenceOrder the order of versions of one key when {@code sequence.field} is set, or
   *     null for arrival order
   * @param lookup where the lookup producer finds current values (null for other producers)
   * @param spillFolder a local folder for spilled buffer runs
   */
  public MergeTreeWriter(
      TableSchema schema,
      BucketFiles files,
      SerializedRow partition,
      int bucket,
      int totalBuckets,
      Levels restored,
      MergeFunction mergeFunction,
      Comparator<KeyValue> sequenceOrder,
      LookupLevels lookup,
      Path spillFolder) {
    this.options = schema.options();
    this.producer = options.changelogProducer();
    this.files = files;
    this.partition = partition;
    this.bucket = bucket;
    this.totalBuckets = totalBuckets;
    this.levels = restored;
    this.mergeFunction = mergeFunction;
    this.keyOrder = restored.keyOrder();
    this.versionOrder =
        sequenceOrder != null ? sequenceOrder : Comparator.comparingLong(KeyValue::sequenceNumber);
    this.keyMerge =
        new KeyMerge(mergeFunction, versionOrder, producer == ChangelogProducer.LOOKUP);
    // Records arrive in sequence order and the buffer's sort is stable, so without a
    // sequence.field the buffer sorts by key alone.
    Comparator<KeyValue> byKey = (a, b) -> keyOrder.compare(a.key(), b.key());
    Comparator<KeyValue> recordOrder =
        sequenceOrder == null ? byKey : byKey.thenComparing(sequenceOrder);
    this.buffer =
        new WriteBuffer(
            schema.keyType(),
            schema.rowType(),
            recordOrder,
            sequenceOrder == null,
            options.writeBufferSize(),
            options.writeBufferSpillable(),
            spillFolder);
    this.compaction =
        new UniversalCompaction(
            options.maxSizeAmplificationPercent(),
            options.sizeRatio(),
            options.sortedRunCompactionTrigger());
    this.lookup = lookup;
    this.changelogRule = new ChangelogRule(options, schema.rowType());
    this.fullCompactionDeltaCommits = options.fullCompactionDeltaCommits();
    this.nextSequence = restored.maxSequenceNumber() + 1;
    this.writtenSinceFullCompaction = !restored.level0().isEmpty();
    if (producer == ChangelogProducer.LOOKUP && lookup == null) {
      throw new IllegalArgumentException("the lookup producer needs a before-image lookup");
    }
  }

  /** The bucket's levels as this writer sees them. */
  public Levels levels() {
    return levels;
  }

  /**
   * Takes one record; it gets the bucket's next sequence number.
   *
   * @param key the trimmed primary key
   * @param kind the row kind
   * @param row the whole row
   * @throws MergeException if the merge engine cannot take it (a retraction it cannot undo); the
   *     record is not kept
   */
  public void write(Object[] key, RowKind kind, Object[] row)
      throws IOException {
    if (!kind.isAdd() && options.ignoreDelete()) {
      // ignore-delete drops retractions before any merge, whatever the engine, as Paimon does.
      return;
    }
    KeyValue kv = new KeyValue(key, nextSequence, kind, row);
    if (!kind.isAdd()) {
      // Refuse now what the merge engine would refuse at the commit, while the rest of the
      // buffer is still good: the same rule, run on the record alone.
      mergeFunction.reset();
      mergeFunction.add(kv);
    }
    nextSequence++;
    writtenSinceFullCompaction = true;
    if (buffer.add(kv)) {
      flushToLevel0();
      int stop = options.sortedRunStopTrigger();
      if (!options.writeOnly() && levels.sortedRuns().size() > stop) {
        // The write stall: compaction must catch up before more runs pile up.
        compaction
            .pick(levels.maxLevel(), levels.sortedRuns())
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      }
    }
  }

  /** Whether anything awaits a commit: buffered records or files written since the last one. */
  public boolean hasPendingChanges() {
    return !buffer.isEmpty()
        || !newFiles.isEmpty()
        || !compactAfter.isEmpty()
        || !compactBefore.isEmpty();
  }

  /**
   * Writes what the commit needs and returns it as a message (empty if nothing changed).
   *
   * @param request a compaction asked for besides the producer's own
   * @param commitIdentifier the commit's identifier: with {@code full-compaction.delta-commits} =
   *     N, a full compaction runs when it is a multiple of N and the bucket was written since the
   *     last one
   */
  public CommitMessage prepareCommit(CompactionRequest request, long commitIdentifier)
      throws IOException {
    if (options.writeOnly() && request == CompactionRequest.AUTO) {
      flushToLevel0();
      return drainMessage();
    }
    boolean full =
        request == CompactionRequest.FULL
            || (fullCompactionDeltaCommits != null
                && commitIdentifier % fullCompactionDeltaCommits == 0
                && (writtenSinceFullCompaction || !buffer.isEmpty()));
    boolean mergeBufferDirectly =
        producer == ChangelogProducer.FULL_COMPACTION
            || (producer == ChangelogProducer.LOOKUP && options.lookupWait());

    if (full) {
      List<SortedRun> runs = runs(mergeBufferDirectly);
      if (!mergeBufferDirectly) {
        flushToLevel0();
        runs = runs(false);
      }
      if (!runs.isEmpty()) {
        CompactUnit unit = compaction.full(levels.maxLevel(), runs);
        compact(unit, modeFor(unit));
      }
      writtenSinceFullCompaction = false;
    } else if (producer == ChangelogProducer.LOOKUP) {
      if (!options.lookupWait()) {
        // The changelog of the files flushed at the previous commit lands now.
        compaction
            .pickForcingUpLevel0(levels.maxLevel(), runs(false))
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
        flushToLevel0();
      } else {
        compaction
            .pickForcingUpLevel0(levels.maxLevel(), runs(true))
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      }
      if (request == CompactionRequest.NORMAL) {
        compaction
            .pick(levels.maxLevel(), runs(false))
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      }
    } else {
      flushToLevel0();
      List<SortedRun> runs = runs(false);
      if (request == CompactionRequest.NORMAL || runs.size() > options.sortedRunCompactionTrigger()) {
        compaction
            .pick(levels.maxLevel(), runs)
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      }
    }
    return drainMessage();
  }

  private List<SortedRun> runs(boolean withBuffer) {
    List<SortedRun> runs = new ArrayList<>();
    if (withBuffer && !buffer.isEmpty()) {
      runs.add(SortedRun.buffer(bufferSizeEstimate()));
    }
    runs.addAll(levels.sortedRuns());
    return runs;
  }

  /** The bytes the buffer would take as a file, from the bucket's bytes per record so far. */
  private long bufferSizeEstimate() {
    long bytes = 0;
    long rows = 0;
    for (DataFileMeta f : levels.allFiles()) {
      bytes += f.fileSize();
      rows += f.rowCount();
    }
    long perRow = rows == 0 ? 16 : Math.max(1, bytes / rows);
    return buffer.size() * perRow;
  }

  private CommitMessage drainMessage() {
    CommitMessage message =
        new CommitMessage(
            partition, bucket, totalBuckets, newFiles, newChangelog, compactBefore, compactAfter,
            compactChangelog);
    newFiles.clear();
    newChangelog.clear();
    compactBefore.clear();
    compactAfter.clear();
    compactChangelog.clear();
    return message;
  }

  /** Writes the buffer as level-0 files, one version per key (and the input changelog). */
  private void flushToLevel0() throws IOException {
    if (buffer.isEmpty()) {
      return;
    }
    boolean inputChangelog = producer == ChangelogProducer.INPUT;
    try (RollingOutput out = new RollingOutput(0, false);
        RollingOutput changelog = new RollingOutput(0, true)) {
      List<Iterator<KeyValue>> runs = buffer.sortedRuns();
      SortMergeReader merged = new SortMergeReader(runs, keyOrder, versionOrder);
      int[] runLevels = new int[runs.size()];
      KeyVersions versions = new KeyVersions(keyOrder);
      while (versions.fill(merged, runLevels)) {
        if (inputChangelog) {
          // The input producer's changelog is every record as given, in the same pass.
          for (int i = 0; i < versions.size(); i++) {
            changelog.write(versions.record(i));
          }
        }
        KeyValue result = keyMerge.reduce(versions);
        if (result != null) {
          out.write(result);
        }
      }
      List<DataFileMeta> written = out.finish();
      newFiles.addAll(written);
      newChangelog.addAll(changelog.finish());
      levels.update(List.of(), written);
    }
    buffer.clear();
  }

  /**
   * The changelog a compaction owes: lookup tables emit for every level-0 record a compaction
   * lifts; full-compaction tables emit when a compaction writes the top level.
   */
  private ChangelogMode modeFor(CompactUnit unit) {
    if (producer == ChangelogProducer.LOOKUP) {
      return ChangelogMode.LOOKUP;
    }
    if (producer == ChangelogProducer.FULL_COMPACTION && unit.outputLevel() == levels.maxLevel()) {
      return ChangelogMode.FULL_COMPACTION;
    }
    return ChangelogMode.NONE;
  }

  private void compactUnchecked(CompactUnit unit, ChangelogMode mode) {
    try {
      compact(unit, mode);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Merges a unit's runs (and the buffer, if it takes it) into files at its output level. */
  private void compact(CompactUnit unit, ChangelogMode mode) throws IOException {
    List<Iterator<KeyValue>> inputs = new ArrayList<>();
    List<Integer> inputLevels = new ArrayList<>();
    List<KeyValueFileReader> readers = new ArrayList<>();
    List<DataFileMeta> consumed = new ArrayList<>();
    int outputLevel = unit.outputLevel();
    // Deletes can go only when no older run is left outside the merge to be shadowed.
    boolean dropDeletes = unit.runs().size() == levels.sortedRuns().size();
    try {
      if (unit.includesBuffer()) {
        for (Iterator<KeyValue> run : buffer.sortedRuns()) {
          inputs.add(run);
          inputLevels.add(SortedRun.BUFFER_LEVEL);
        }
      }
      for (SortedRun run : unit.runs()) {
        inputs.add(new RunReader(run.files(), readers));
        inputLevels.add(run.level());
        consumed.addAll(run.files());
      }
      SortMergeReader merged = new SortMergeReader(inputs, keyOrder, versionOrder);
      int[] runLevels = inputLevels.stream().mapToInt(Integer::intValue).toArray();
      KeyVersions versions = new KeyVersions(keyOrder);
      try (RollingOutput out = new RollingOutput(outputLevel, false);
          RollingOutput changelog = new RollingOutput(outputLevel, true)) {
        while (versions.fill(merged, runLevels)) {
          KeyValue result = mergeWithChangelog(versions, mode, outputLevel, changelog);
          if (result != null && (result.kind().isAdd() || !dropDeletes)) {
            out.write(result);
          }
        }
        List<DataFileMeta> written = out.finish();
        record(consumed, written);
        compactChangelog.addAll(changelog.finish());
      }
    } finally {
      for (KeyValueFileReader r : readers) {
        r.close();
      }
    }
    if (unit.includesBuffer()) {
      buffer.clear();
    }
  }

  /** Records a compaction's files in the levels and in the pending commit. */
  private void record(List<DataFileMeta> consumed, List<DataFileMeta> written) throws IOException {
    levels.update(consumed, written);
    if (lookup != null) {
      for (DataFileMeta f : consumed) {
        lookup.remove(f);
      }
    }
    Set<String> writtenThisCommit = new HashSet<>();
    for (DataFileMeta f : compactAfter) {
      writtenThisCommit.add(f.fileName());
    }
    for (DataFileMeta f : consumed) {
      if (writtenThisCommit.contains(f.fileName())) {
        // Written and consumed before any snapshot named it: nobody will ever read it.
        compactAfter.removeIf(a -> a.fileName().equals(f.fileName()));
        files.delete(f);
      } else {
        compactBefore.add(f);
      }
    }
    compactAfter.addAll(written);
  }

  private KeyValue mergeWithChangelog(
      KeyVersions versions, ChangelogMode mode, int outputLevel, RollingOutput changelog)
      throws IOException {
    switch (mode) {
      case LOOKUP:
        if (versions.minLevel() > 0) {
          return keyMerge.reduce(versions);
        }
        KeyValue before = versions.newestUpperLevel();
        KeyValue lookedUp = null;
        if (before == null && outputLevel < levels.maxLevel()) {
          lookedUp = lookup.lookup(versions.key(), outputLevel + 1);
          before = lookedUp;
        }
        KeyValue after = keyMerge.merge(versions, lookedUp);
        changelogRule.emit(before, after, changelog::write);
        return after;
      case FULL_COMPACTION:
        KeyValue top = versions.atLevel(levels.maxLevel());
        KeyValue merged = keyMerge.reduce(versions);
        if (top == null || versions.size() > 1) {
          changelogRule.emit(top, merged, changelog::write);
        }
        return merged;
      default:
        return keyMerge.reduce(versions);
    }
  }

  @Override
  public void close() throws IOException {
    buffer.close();
  }

  /** The files of a sorted run read one after another, in key order. */
  private final class RunReader implements Iterator<KeyValue> {
    private final Iterator<DataFileMeta> remaining;
    private final List<KeyValueFileReader> opened;
    private KeyValueFileReader current;

    RunReader(List<DataFileMeta> runFiles, List<KeyValueFileReader> opened) {
      this.remaining = runFiles.iterator();
      this.opened = opened;
    }

    @Override
    public boolean hasNext() {
      try {
        while (current == null || !current.hasNext()) {
          if (current != null) {
            current.close();
            current = null;
          }
          if (!remaining.hasNext()) {
            return false;
          }
          current = files.open(remaining.next());
          opened.add(current);
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public KeyValue next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next();
    }
  }

  /**
   * Data or changelog files at one level, a new file each time one reaches the target size. Data
   * files above level 0 of a lookup table also feed the lookup cache as they are written, so the
   * next commit's lookups need not read them back.
   *
   * <p>Encoding Parquet (and the lookup copy) takes a third of a commit's time, so it runs on a
   * thread of its own, fed batches of records through a short queue, while the caller goes on
   * merging and looking up: on two cores a commit takes about two thirds as long. Lookup copies
   * are registered with the cache only in {@link #finish}, on the caller's thread, since
   * registering must not overlap a lookup.
   */
  private final class RollingOutput implements Closeable {
    private static final int BATCH = 1024;
    private final int level;
    private final boolean changelog;
    private final boolean feedsLookup;
    private final long targetSize = options.targetFileSize();
    private final List<DataFileMeta> written = new ArrayList<>();
    private final List<LookupFileBuilder> lookupCopies = new ArrayList<>();
    private final BlockingQueue<List<KeyValue>> queue = new ArrayBlockingQueue<>(4);
    private List<KeyValue> batch = new ArrayList<>(BATCH);
    private Thread encoder;
    private volatile Throwable failure;
    private KeyValueFileWriter current;
    private LookupFileBuilder currentLookup;
    private int rowsSinceSizeCheck;

    RollingOutput(int level, boolean changelog) {
      this.level = level;
      this.changelog = changelog;
      this.feedsLookup = lookup != null && !changelog && level > 0;
    }

    void write(KeyValue kv) throws IOException {
      batch.add(kv);
      if (batch.size() == BATCH) {
        hand(batch);
        batch = new ArrayList<>(BATCH);
      }
    }

    private void hand(List<KeyValue> records) throws IOException {
      if (encoder == null) {
        encoder = new Thread(this::encode, "changelake-output-" + bucket);
        encoder.setDaemon(true);
        encoder.start();
      }
      checkFailure();
      try {
        while (!queue.offer(records, 100, TimeUnit.MILLISECONDS)) {
          checkFailure();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while writing bucket " + bucket);
      }
    }

    private void checkFailure() throws IOException {
      Throwable t = failure;
      if (t instanceof IOException io) {
        throw new IOException(io.getMessage(), io);
      }
      if (t != null) {
        throw new IOException("writing a file of bucket " + bucket + " failed: " + t, t);
      }
    }

    /** The encoder thread: writes batches until an empty one says the output is complete. */
    private void encode() {
      try {
        while (true) {
          List<KeyValue> records = queue.take();
          if (records.isEmpty()) {
            if (current != null) {
              roll();
            }
            return;
          }
          for (KeyValue kv : records) {
            encodeOne(kv);
          }
        }
      } catch (Throwable t) {
        failure = t;
        abandonCurrent();
      }
    }

    private void encodeOne(KeyValue kv) throws IOException {
      if (current == null) {
        current = changelog ? files.newChangelogFile() : files.newDataFile();
        currentLookup = feedsLookup ? lookup.newFile() : null;
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
      DataFileMeta file =
          files.finish(current, level, changelog ? FileSource.APPEND : sourceOf(level));
      current = null;
      if (currentLookup != null) {
        lookupCopies.add(currentLookup);
        currentLookup = null;
      }
      written.add(file);
    }

    /** Waits for the encoder, registers the lookup copies and returns the files written. */
    List<DataFileMeta> finish() throws IOException {
      if (encoder == null && batch.isEmpty()) {
        return written;
      }
      if (!batch.isEmpty()) {
        hand(batch);
      }
      hand(List.of());
      batch = new ArrayList<>();
      join();
      checkFailure();
      for (int i = 0; i < lookupCopies.size(); i++) {
        lookupCopies.get(i).finish(written.get(i));
      }
      lookupCopies.clear();
      return written;
    }

    private void join() throws IOException {
      try {
        encoder.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while writing bucket " + bucket);
      }
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

    /** Abandons an unfinished output: the encoder stops and the open file is dropped. */
    @Override
    public void close() throws IOException {
      if (encoder != null && encoder.isAlive()) {
        encoder.interrupt();
        join();
      }
      for (LookupFileBuilder copy : lookupCopies) {
        copy.close();
      }
      lookupCopies.clear();
      if (encoder == null) {
        abandonCurrent();
      }
    }
  }

  /** Rows between two checks of an output file's size against {@code target-file-size}. */
  private static final int SIZE_CHECK_ROWS = 1024;

  private static FileSource sourceOf(int level) {
    return level == 0 ? FileSource.APPEND : FileSource.COMPACT;
  }

}
