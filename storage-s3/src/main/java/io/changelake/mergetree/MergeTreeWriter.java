package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

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
 *     files flushed now are lifted at the next commit, and before a full compaction (whose
 *     changelog then follows the lift's, as in Paimon)</td></tr>
 *   <tr><td>{@code full-compaction.delta-commits} = N (1 for the full-compaction producer)</td>
 *     <td>at a commit whose identifier is a multiple of N, if the bucket was written since the
 *     last one, a full compaction into the top level; the full-compaction producer emits the
 *     difference from the previous top level</td></tr>
 * </table>
 *
 * <p>With {@code write-only}, a commit only flushes: several writers may then append to one bucket,
 * and a separate job compacts (and produces the lookup or full-compaction changelog) by asking for
 * {@link CompactionRequest#NORMAL} or {@link CompactionRequest#FULL}.
 *
 * <p>A commit that does not wait for compaction ({@link #prepareCommit(CompactionRequest, long,
 * boolean)}), as Paimon's writer does not for these tables, hands the universal pick of a none or
 * input table (no full compactions by {@code full-compaction.delta-commits}, not {@code
 * write-only}) to a {@linkplain BackgroundCompaction thread beside the writer} and goes on; the
 * first commit that finds it done records it. Such a compaction writes no changelog, so it changes
 * where rows are stored and when, never what is read. A bucket has one compaction running at most.
 * A flush that finds more than {@code num-sorted-run.stop-trigger} sorted runs waits for it, and so
 * does a commit that leaves more than one run past that, as in Paimon: however slow compaction is,
 * the runs a read merges stay near the trigger. A commit that waits and a requested compaction wait
 * for it too; {@link #close} cancels it.
 *
 * <p>The work is shared out as Paimon's writer shares it: a {@code RollingFileWriter} writes the
 * files, a {@code CompactRewriter} carries out each compaction the {@link UniversalCompaction}
 * picks, and a {@code PendingIncrement} gathers what the next commit records; this class holds the
 * policy of when to flush and what to compact.
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
     * universal pick, or for lookup and first-row tables the lift of level 0; never a delta-commits
     * full compaction.
     */
    NORMAL,
    /** Everything into the top level. */
    FULL
  }

  private final TableOptions options;
  private final ChangelogProducer producer;
  private final BucketFiles files;
  private final Levels levels;
  private final LookupLevels lookup;
  private final MergeFunction mergeFunction;
  private final KeyMerge keyMerge;
  private final Comparator<ChangeRow> versionOrder;

  /** Whether a key's versions arrive in version order: no {@code sequence.field}. */
  private final boolean arrivalOrder;

  /** Whether a key's newest version is its merged value: deduplicate in arrival order. */
  private final boolean newestRecordWins;

  private final WriteBuffer buffer;
  private final UniversalCompaction compaction;
  private final PendingIncrement increment;
  private final CompactRewriter rewriter;

  /** The bucket's compaction beside the writer; null if its compactions owe a changelog. */
  private final BackgroundCompaction background;

  private final Integer fullCompactionDeltaCommits;
  private final boolean forcesUpLevel0;
  private long nextSequence;
  private boolean writtenSinceFullCompaction;

  /**
   * @param schema the table schema
   * @param files the bucket's files
   * @param restored the bucket's live files in the latest snapshot
   * @param mergeFunctions makes the merge engine's rule: one for the writer's thread, one for its
   *     background compactions
   * @param sequenceOrder the order of versions of one key when {@code sequence.field} is set, or
   *     null for arrival order
   * @param lookup where the lookup producer finds current values (null for other producers)
   * @param spillFolder a local folder for spilled buffer runs
   */
  public MergeTreeWriter(
      TableSchema schema,
      BucketFiles files,
      Levels restored,
      Supplier<MergeFunction> mergeFunctions,
      Comparator<ChangeRow> sequenceOrder,
      LookupLevels lookup,
      Path spillFolder) {
    this.options = schema.options();
    this.producer = options.changelogProducer();
    this.files = files;
    this.levels = restored;
    this.lookup = lookup;
    this.mergeFunction = mergeFunctions.get();
    this.versionOrder =
        sequenceOrder != null ? sequenceOrder : Comparator.comparingLong(ChangeRow::sequenceNumber);
    this.arrivalOrder = sequenceOrder == null;
    this.newestRecordWins = arrivalOrder && options.mergeEngine() == MergeEngine.DEDUPLICATE;
    this.keyMerge = new KeyMerge(mergeFunction, versionOrder, producer == ChangelogProducer.LOOKUP);
    // Records arrive in sequence order and the buffer's sort is stable, so it sorts by key alone
    // and orders a key's versions by a sequence.field only when it reads them as key-values.
    this.buffer =
        new WriteBuffer(
            schema.keyType(),
            schema.rowType(),
            sequenceOrder,
            options.writeBufferSize(),
            options.pageSize(),
            options.writeBufferSpillable(),
            spillFolder);
    this.compaction =
        new UniversalCompaction(
            options.maxSizeAmplificationPercent(),
            options.sizeRatio(),
            options.sortedRunCompactionTrigger());
    this.forcesUpLevel0 = forcesUpLevel0(options);
    if (forcesUpLevel0 && lookup == null) {
      throw new IllegalArgumentException(
          "the lookup producer and the first-row engine need a lookup of the levels");
    }
    // No reader of the lookup or full-compaction stream reads level-0 data files.
    this.increment =
        new PendingIncrement(
            producer == ChangelogProducer.LOOKUP || producer == ChangelogProducer.FULL_COMPACTION);
    ChangelogRule changelogRule = new ChangelogRule(options, schema.rowType());
    this.rewriter =
        new CompactRewriter(
            options, restored, files, lookup, increment, keyMerge, versionOrder, changelogRule);
    this.fullCompactionDeltaCommits = options.fullCompactionDeltaCommits();
    this.background =
        !forcesUpLevel0
                && !options.writeOnly()
                && fullCompactionDeltaCommits == null
                && (producer == ChangelogProducer.NONE || producer == ChangelogProducer.INPUT)
            ? new BackgroundCompaction(
                new CompactRewriter(
                    options,
                    restored,
                    files,
                    null,
                    increment,
                    new KeyMerge(mergeFunctions.get(), versionOrder, false),
                    versionOrder,
                    changelogRule),
                files)
            : null;
    this.nextSequence = restored.maxSequenceNumber() + 1;
    this.writtenSinceFullCompaction = !restored.level0().isEmpty();
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
   * @param row the whole row; it is serialized now, so neither array is kept
   * @throws MergeException if the merge engine cannot take it (a retraction it cannot undo); the
   *     record is not kept
   * @throws IllegalArgumentException naming the column if a value is not of its column's type; the
   *     record is not kept
   */
  public void write(Object[] key, RowKind kind, Object[] row) throws IOException {
    if (!kind.isAdd() && options.ignoreDelete()) {
      // ignore-delete drops retractions before any merge, whatever the engine, as Paimon does.
      return;
    }
    if (!kind.isAdd()) {
      // Refuse now what the merge engine would refuse at the commit, while the rest of the
      // buffer is still good: the same rule, run on the record alone.
      mergeFunction.reset();
      mergeFunction.add(new KeyValue(key, nextSequence, kind, row));
    }
    boolean full = buffer.add(key, nextSequence, kind, row);
    nextSequence++;
    writtenSinceFullCompaction = true;
    if (full) {
      if (background != null) {
        flushBesideCompaction();
      } else {
        flushToLevel0();
        if (!options.writeOnly() && tooManyRuns(0)) {
          // The write stall: compaction must catch up before more runs pile up.
          compact(compaction.pick(levels.maxLevel(), levels.sortedRuns()));
        }
      }
    }
  }

  /**
   * Writes what the commit needs and returns the bucket's increment (empty if nothing changed),
   * with every compaction done.
   *
   * @param request a compaction asked for besides the producer's own
   * @param commitIdentifier the commit's identifier: with {@code full-compaction.delta-commits} =
   *     N, a full compaction runs when it is a multiple of N and the bucket was written since the
   *     last one
   */
  public BucketIncrement prepareCommit(CompactionRequest request, long commitIdentifier)
      throws IOException {
    return prepareCommit(request, commitIdentifier, true);
  }

  /**
   * Writes what the commit needs and returns the bucket's increment (empty if nothing changed).
   *
   * @param request a compaction asked for besides the producer's own
   * @param commitIdentifier the commit's identifier: with {@code full-compaction.delta-commits} =
   *     N, a full compaction runs when it is a multiple of N and the bucket was written since the
   *     last one
   * @param waitCompaction false to let a none or input table compact in the background (see the
   *     class documentation): the increment then holds the compactions finished so far; true to
   *     finish every compaction first
   */
  public BucketIncrement prepareCommit(
      CompactionRequest request, long commitIdentifier, boolean waitCompaction) throws IOException {
    if (!waitCompaction && request == CompactionRequest.AUTO && background != null) {
      flushBesideCompaction();
      if (tooManyRuns(1)) {
        // Commits must not outrun compaction either: a bucket flushed at every commit while one
        // long compaction runs would gather level-0 files without bound, and every read would
        // merge them all. Paimon's writer waits at the commit past one run more than the stall.
        awaitBackgroundCompaction();
      }
      return increment.drain();
    }
    awaitBackgroundCompaction();
    boolean full =
        request == CompactionRequest.FULL
            || (request == CompactionRequest.AUTO
                && fullCompactionDeltaCommits != null
                && commitIdentifier % fullCompactionDeltaCommits == 0
                && writtenSinceFullCompaction);
    if (options.writeOnly() && request == CompactionRequest.AUTO) {
      flushToLevel0();
    } else if (full) {
      if (forcesUpLevel0 && !options.lookupWait()) {
        // Paimon collects the lift the previous commit started before it compacts fully, so the
        // lift's changelog comes first and the full compaction's follows it.
        compact(compaction.pickForcingUpLevel0(levels.maxLevel(), levels.sortedRuns()));
      }
      flushToLevel0();
      compact(compaction.full(levels.maxLevel(), levels.sortedRuns()));
      writtenSinceFullCompaction = false;
    } else if (forcesUpLevel0 && !options.lookupWait()) {
      // The level-0 files flushed at the previous commit are lifted (with their changelog) now,
      // this commit's at the next one, unless a compaction is asked for, which lifts them too.
      compact(compaction.pickForcingUpLevel0(levels.maxLevel(), levels.sortedRuns()));
      flushToLevel0();
      if (request == CompactionRequest.NORMAL) {
        compact(compaction.pickForcingUpLevel0(levels.maxLevel(), levels.sortedRuns()));
      }
    } else {
      flushToLevel0();
      List<SortedRun> runs = levels.sortedRuns();
      compact(
          forcesUpLevel0
              ? compaction.pickForcingUpLevel0(levels.maxLevel(), runs)
              : compaction.pick(levels.maxLevel(), runs));
    }
    return increment.drain();
  }

  /**
   * Flushes the buffer as level-0 files and keeps the bucket's compaction going beside the writer:
   * records a compaction that has finished, and starts the next pick when none runs. When the
   * bucket held more than {@code num-sorted-run.stop-trigger} sorted runs before the flush, it
   * waits for the running compaction before starting the next (the write stall), as Paimon's writer
   * does; the runs then stay within a few of the trigger however slow compaction is.
   */
  private void flushBesideCompaction() throws IOException {
    boolean stall = tooManyRuns(0);
    flushToLevel0();
    if (stall || background.done()) {
      awaitBackgroundCompaction();
    }
    if (!background.running()) {
      compaction.pick(levels.maxLevel(), levels.sortedRuns()).ifPresent(background::start);
    }
  }

  /**
   * Whether the bucket holds more than {@code num-sorted-run.stop-trigger} + {@code extra} runs.
   */
  private boolean tooManyRuns(int extra) {
    return levels.sortedRuns().size() > options.sortedRunStopTrigger() + extra;
  }

  /** Waits for the background compaction, if one runs, and records what it did. */
  private void awaitBackgroundCompaction() throws IOException {
    if (background != null) {
      for (CompactRewriter.Step step : background.finish()) {
        rewriter.apply(step);
      }
    }
  }

  /** Carries out the compaction picked, if any. */
  private void compact(Optional<CompactUnit> picked) throws IOException {
    if (picked.isPresent()) {
      rewriter.compact(picked.get());
    }
  }

  /** Writes the buffer as level-0 files, one version per key (and the input changelog). */
  private void flushToLevel0() throws IOException {
    if (buffer.isEmpty()) {
      return;
    }
    long targetSize = options.targetFileSize();
    try (RollingFileWriter out = new RollingFileWriter(files, 0, false, targetSize, lookup);
        RollingFileWriter changelog = new RollingFileWriter(files, 0, true, targetSize, lookup)) {
      mergeKeys(buffer.keys(), out, changelog);
      List<DataFileMeta> written = out.finish();
      increment.flushed(written, changelog.finish());
      levels.update(List.of(), written);
    }
    buffer.clear();
  }

  /**
   * Merges the buffer's keys, each version read as a view of its row. Written as they are: every
   * version of a key whose versions arrive in version order, for the input changelog; a key's lone
   * version, which no engine merges ({@link KeyMerge#reduce}); a deduplicate table's newest
   * version. Any other key's versions go through the merge engine.
   */
  private void mergeKeys(BufferedKeys keys, RollingFileWriter out, RollingFileWriter changelog)
      throws IOException {
    boolean inputChangelog = producer == ChangelogProducer.INPUT;
    KeyVersions versions = new KeyVersions();
    while (keys.next()) {
      int count = keys.versions();
      boolean inVersionOrder = arrivalOrder || count == 1;
      if (inputChangelog && inVersionOrder) {
        // The input producer's changelog is every record as given, in the same pass.
        for (int i = 0; i < count; i++) {
          changelog.write(keys.view(i));
        }
      }
      if (count == 1 || newestRecordWins) {
        out.write(keys.view(count - 1));
        continue;
      }
      versions.clear();
      keys.addVersions(versions);
      if (inputChangelog && !inVersionOrder) {
        for (int i = 0; i < count; i++) {
          changelog.write(versions.record(i));
        }
      }
      ChangeRow result = keyMerge.reduce(versions);
      if (result != null) {
        out.write(result);
      }
    }
  }

  /**
   * Releases the buffer, and cancels a background compaction still running ({@link
   * BackgroundCompaction#drop}), deleting what it wrote: no commit will record it.
   */
  @Override
  public void close() throws IOException {
    try {
      if (background != null) {
        background.drop();
      }
    } finally {
      buffer.close();
    }
  }
}
