package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileSource;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.KeyValueFileWriter;
import io.changelake.format.SerializedRow;
import io.changelake.table.BucketFiles;
import io.changelake.schema.ChangelogProducer;
import io.changelake.table.CommitMessage;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
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
 * changelog as the table's producer says. Every commit first flushes the buffer to level 0 (one
 * record per key, the merge engine over that flush's records), then compacts as Paimon's writer
 * does (the rules are in the package documentation):
 *
 * <table>
 *   <caption>What a commit does after the flush</caption>
 *   <tr><th>table</th><th>compaction at each commit</th></tr>
 *   <tr><td>none, input (input also writes every input record to a changelog file beside the
 *     level-0 file)</td><td>a universal pick, which does nothing below the sorted-run
 *     trigger</td></tr>
 *   <tr><td>lookup producer, first-row engine</td><td>lift every level-0 file above level 0;
 *     lookup tables emit -U/+U from the key's current value; with {@code lookup-wait=false} the
 *     files flushed now are lifted at the next commit</td></tr>
 *   <tr><td>{@code full-compaction.delta-commits} = N (1 for the full-compaction producer)</td>
 *     <td>at a commit whose identifier is a multiple of N, if the bucket was written since the
 *     last one, a full compaction into the top level; the full-compaction producer emits the
 *     difference from the previous top level</td></tr>
 * </table>
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
    /**
     * The compaction the table's strategy picks now (Paimon's {@code compact(full=false)}): the
     * universal pick, or for lookup and first-row tables the lift of level 0; never a
     * delta-commits full compaction.
     */
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
  private final boolean forcesUpLevel0;
  private long nextSequence;
  private boolean writtenSinceFullCompaction;

  private final List<DataFileMeta> newFiles = new ArrayList<>();
  private final List<DataFileMeta> newChangelog = new ArrayList<>();
  private final List<DataFileMeta> compactBefore = new ArrayList<>();
  private final List<DataFileMeta> compactAfter = new ArrayList<>();
  private final List<DataFileMeta> compactChangelog = new ArrayList<>();
  /** Names of the files compactions wrote since the last commit: in no snapshot yet. */
  private final Set<String> writtenThisCommit = new HashSet<>();

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
    this.forcesUpLevel0 = forcesUpLevel0(options);
    this.nextSequence = restored.maxSequenceNumber() + 1;
    this.writtenSinceFullCompaction = !restored.level0().isEmpty();
    if (forcesUpLevel0 && lookup == null) {
      throw new IllegalArgumentException(
          "the lookup producer and the first-row engine need a lookup of the levels");
    }
  }

  /**
   * Whether every commit lifts the level-0 files above level 0 (Paimon's "needs lookup" tables):
   * the lookup producer, whose changelog comes from that compaction, and the first-row engine,
   * whose readers skip level 0.
   */
  public static boolean forcesUpLevel0(TableOptions options) {
    return options.changelogProducer() == ChangelogProducer.LOOKUP
        || options.mergeEngine() == MergeEngine.FIRST_ROW;
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
    boolean full =
        request == CompactionRequest.FULL
            || (request == CompactionRequest.AUTO
                && fullCompactionDeltaCommits != null
                && commitIdentifier % fullCompactionDeltaCommits == 0
                && writtenSinceFullCompaction);
    if (options.writeOnly() && request == CompactionRequest.AUTO) {
      flushToLevel0();
    } else if (full) {
      flushToLevel0();
      compaction
          .full(levels.maxLevel(), levels.sortedRuns())
          .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      writtenSinceFullCompaction = false;
    } else if (forcesUpLevel0 && !options.lookupWait()) {
      // The level-0 files flushed at the previous commit are lifted (with their changelog) now,
      // this commit's at the next one, unless a compaction is asked for, which lifts them too.
      compaction
          .pickForcingUpLevel0(levels.maxLevel(), levels.sortedRuns())
          .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      flushToLevel0();
      if (request == CompactionRequest.NORMAL) {
        compaction
            .pickForcingUpLevel0(levels.maxLevel(), levels.sortedRuns())
            .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
      }
    } else {
      flushToLevel0();
      List<SortedRun> runs = levels.sortedRuns();
      (forcesUpLevel0
              ? compaction.pickForcingUpLevel0(levels.maxLevel(), runs)
              : compaction.pick(levels.maxLevel(), runs))
          .ifPresent(unit -> compactUnchecked(unit, modeFor(unit)));
    }
    return drainMessage();
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
    writtenThisCommit.clear();
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
    if (forcesUpLevel0) {
      // Lookup tables emit; first-row tables look up too, to drop rows of keys already above.
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

  /**
   * Carries out a compaction as Paimon's compact task does: the unit's files are split into
   * sections of overlapping key ranges; a section of several files is merged; a lone file is
   * merged with its small neighbours (below 70% of {@code target-file-size}) or, if large, or if
   * it is all there is to merge, moved to the output level as it is (with its changelog, if the
   * producer owes one). A file moved to the top level is rewritten instead if it may hold
   * retractions, which the top level drops.
   */
  private void compact(CompactUnit unit, ChangelogMode mode) throws IOException {
    int outputLevel = unit.outputLevel();
    // Deletes can go only when no older run is left outside the merge to be shadowed.
    boolean dropDeletes = unit.runs().size() == levels.sortedRuns().size();
    List<DataFileMeta> unitFiles = new ArrayList<>();
    for (SortedRun run : unit.runs()) {
      unitFiles.addAll(run.files());
    }
    long smallFile = options.targetFileSize() / 10 * 7;
    List<List<DataFileMeta>> pending = new ArrayList<>();
    for (List<DataFileMeta> section : sections(unitFiles)) {
      if (section.size() > 1 || section.get(0).fileSize() < smallFile) {
        pending.add(section);
      } else {
        mergePending(pending, outputLevel, dropDeletes, mode);
        move(section.get(0), outputLevel, dropDeletes, mode);
      }
    }
    mergePending(pending, outputLevel, dropDeletes, mode);
  }

  /** The files grouped into runs of key-overlapping files, in key order (Paimon's sections). */
  private List<List<DataFileMeta>> sections(List<DataFileMeta> unitFiles) {
    List<DataFileMeta> sorted = new ArrayList<>(unitFiles);
    sorted.sort(
        (a, b) -> {
          int byMin = keyOrder.compare(levels.minKey(a), levels.minKey(b));
          return byMin != 0 ? byMin : keyOrder.compare(levels.maxKey(a), levels.maxKey(b));
        });
    List<List<DataFileMeta>> sections = new ArrayList<>();
    Object[] bound = null;
    for (DataFileMeta f : sorted) {
      if (bound == null || keyOrder.compare(levels.minKey(f), bound) > 0) {
        sections.add(new ArrayList<>());
        bound = null;
      }
      sections.get(sections.size() - 1).add(f);
      if (bound == null || keyOrder.compare(levels.maxKey(f), bound) > 0) {
        bound = levels.maxKey(f);
      }
    }
    return sections;
  }

  /** Merges the sections gathered so far; a lone file among them is moved instead. */
  private void mergePending(
      List<List<DataFileMeta>> pending, int outputLevel, boolean dropDeletes, ChangelogMode mode)
      throws IOException {
    if (pending.size() == 1 && pending.get(0).size() == 1) {
      move(pending.get(0).get(0), outputLevel, dropDeletes, mode);
    } else if (!pending.isEmpty()) {
      List<DataFileMeta> all = new ArrayList<>();
      pending.forEach(all::addAll);
      merge(all, outputLevel, dropDeletes, mode, true);
    }
    pending.clear();
  }

  /**
   * Moves one file to the output level (Paimon's upgrade): as it is, with the changelog its
   * records owe (a lookup table's level-0 file, or any file reaching the top level of a
   * full-compaction table); rewritten when it goes to the top level and may hold retractions, or
   * when it is a lookup table's level-0 file whose records must merge with the key's current value
   * (every engine but deduplicate without {@code sequence.field}, below the top level).
   */
  private void move(DataFileMeta file, int outputLevel, boolean dropDeletes, ChangelogMode mode)
      throws IOException {
    boolean top = outputLevel == levels.maxLevel();
    if (top && (file.deleteRowCount() == null || file.deleteRowCount() > 0)) {
      merge(List.of(file), outputLevel, dropDeletes, mode, true);
      return;
    }
    if (file.level() == outputLevel) {
      return;
    }
    boolean lookupLevel0 = mode == ChangelogMode.LOOKUP && file.level() == 0;
    if (lookupLevel0 && !top && !lastRecordAlone()) {
      merge(List.of(file), outputLevel, false, mode, true);
    } else if (lookupLevel0 || mode == ChangelogMode.FULL_COMPACTION) {
      merge(List.of(file), outputLevel, false, mode, false);
    } else {
      record(List.of(file), List.of(file.upgrade(outputLevel)), true);
    }
  }

  /** Whether the streaming read of this table reads changelog files only, never data files. */
  private boolean producerStreamsChangelogFilesOnly() {
    return producer == ChangelogProducer.LOOKUP || producer == ChangelogProducer.FULL_COMPACTION;
  }

  /** Whether a key's newest record alone is its merged value: deduplicate by arrival order. */
  private boolean lastRecordAlone() {
    return options.mergeEngine() == MergeEngine.DEDUPLICATE && options.sequenceFields().isEmpty();
  }

  /**
   * Merges files into files at the output level, with the mode's changelog; with {@code
   * writeData} false only the changelog is written and the lone file moves up as it is.
   */
  private void merge(
      List<DataFileMeta> mergedFiles,
      int outputLevel,
      boolean dropDeletes,
      ChangelogMode mode,
      boolean writeData)
      throws IOException {
    List<Iterator<KeyValue>> inputs = new ArrayList<>();
    List<Integer> inputLevels = new ArrayList<>();
    List<KeyValueFileReader> readers = new ArrayList<>();
    try {
      for (SortedRun run : runsOf(mergedFiles)) {
        inputs.add(new RunReader(run.files(), readers));
        inputLevels.add(run.level());
      }
      SortMergeReader merged = new SortMergeReader(inputs, keyOrder, versionOrder);
      int[] runLevels = inputLevels.stream().mapToInt(Integer::intValue).toArray();
      KeyVersions versions = new KeyVersions(keyOrder);
      try (RollingOutput out = new RollingOutput(outputLevel, false);
          RollingOutput changelog = new RollingOutput(outputLevel, true)) {
        while (versions.fill(merged, runLevels)) {
          KeyValue result = mergeWithChangelog(versions, mode, outputLevel, changelog);
          if (writeData && result != null && (result.kind().isAdd() || !dropDeletes)) {
            out.write(result);
          }
        }
        if (writeData) {
          record(mergedFiles, out.finish(), false);
        } else {
          DataFileMeta file = mergedFiles.get(0);
          record(List.of(file), List.of(file.upgrade(outputLevel)), true);
        }
        compactChangelog.addAll(changelog.finish());
      }
    } finally {
      for (KeyValueFileReader r : readers) {
        r.close();
      }
    }
  }

  /** Files as sorted runs: each level-0 file alone, newest first, then each level's files. */
  private List<SortedRun> runsOf(List<DataFileMeta> someFiles) {
    List<SortedRun> runs = new ArrayList<>();
    for (SortedRun run : levels.sortedRuns()) {
      List<DataFileMeta> taken = run.files().stream().filter(someFiles::contains).toList();
      if (!taken.isEmpty()) {
        runs.add(SortedRun.of(run.level(), taken));
      }
    }
    return runs;
  }

  /**
   * Records a compaction's files in the levels and in the pending commit.
   *
   * @param moved whether {@code written} are the {@code consumed} files at another level
   */
  private void record(List<DataFileMeta> consumed, List<DataFileMeta> written, boolean moved)
      throws IOException {
    levels.update(consumed, written);
    if (lookup != null && !moved) {
      for (DataFileMeta f : consumed) {
        lookup.remove(f);
      }
    }
    for (DataFileMeta f : consumed) {
      boolean unpublished;
      if (producerStreamsChangelogFilesOnly() && newFiles.remove(f)) {
        // Flushed and lifted by this commit, and no reader of this producer's stream reads
        // level-0 data: one COMPACT snapshot carries the files and the changelog, and a second
        // writer of the bucket is refused as a whole (its compaction conflicts), not after its
        // flush has landed.
        unpublished = true;
      } else if (compactAfter.remove(f)) {
        // Not in any snapshot at this level: written by this commit, or moved here by it (then
        // compactBefore already holds it as the last snapshot has it).
        unpublished = writtenThisCommit.contains(f.fileName());
      } else {
        compactBefore.add(f);
        continue;
      }
      if (unpublished && moved) {
        writtenThisCommit.add(f.fileName());
      } else if (unpublished) {
        // Written and consumed before any snapshot named it: nobody will ever read it.
        files.delete(f);
      }
    }
    if (!moved) {
      for (DataFileMeta f : written) {
        writtenThisCommit.add(f.fileName());
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
        if (lookedUp != null && options.mergeEngine() == MergeEngine.FIRST_ROW) {
          // The key's first row is in a level above: the newer rows are dropped, not written
          // below it (Paimon's FirstRowMergeFunctionWrapper), as its readers do not merge
          // levels of first-row tables.
          return null;
        }
        KeyValue after = keyMerge.merge(versions, lookedUp);
        if (producer == ChangelogProducer.LOOKUP) {
          changelogRule.emit(before, after, changelog::write);
        }
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
