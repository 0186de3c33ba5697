package io.changelake.mergetree;

import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableOptions;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.IntPredicate;

/**
 * Carries out the compactions of one bucket as Paimon's compact task and rewriter do: merges or
 * moves the files of a {@link CompactUnit} to its output level, with the changelog the producer
 * owes, and records the result in the levels, the lookup and the pending increment.
 *
 * <table>
 *   <caption>The changelog a compaction owes</caption>
 *   <tr><th>table</th><th>emitted</th></tr>
 *   <tr><td>lookup producer (first-row tables look up too, to drop rows of keys already above)
 *     </td><td>for every key taken from level 0, by the {@link LookupChangelogRule}</td></tr>
 *   <tr><td>full-compaction producer</td><td>when the compaction writes the top level: the
 *     difference between the key's version there and the merged one ({@link ChangelogRule})</td>
 *   </tr>
 *   <tr><td>other</td><td>nothing</td></tr>
 * </table>
 */
final class CompactRewriter {

  /** What a compaction emits besides its files. */
  private enum ChangelogMode {
    NONE,
    LOOKUP,
    FULL_COMPACTION
  }

  private final Levels levels;
  private final BucketFiles files;
  private final LookupLevels lookup;
  private final PendingIncrement increment;
  private final KeyMerge keyMerge;
  private final Comparator<ChangeRow> versionOrder;
  private final RowComparator keyOrder;
  private final ChangelogRule changelogRule;
  private final LookupChangelogRule lookupRule;
  private final ChangelogProducer producer;
  private final boolean forcesUpLevel0;
  private final boolean lastRecordAlone;
  private final boolean newestVersionWins;
  private final long targetFileSize;
  private final int maxLevel;

  /**
   * @param options the table's options
   * @param levels the bucket's levels, updated by each compaction
   * @param files the bucket's files
   * @param lookup the levels' lookup, for lookup-producer and first-row tables; else null
   * @param increment where compactions record what they replaced
   * @param keyMerge the merge of a key's versions
   * @param versionOrder the order of a key's versions
   * @param changelogRule what a change of a key emits
   */
  CompactRewriter(
      TableOptions options,
      Levels levels,
      BucketFiles files,
      LookupLevels lookup,
      PendingIncrement increment,
      KeyMerge keyMerge,
      Comparator<ChangeRow> versionOrder,
      ChangelogRule changelogRule) {
    this.levels = levels;
    this.files = files;
    this.lookup = lookup;
    this.increment = increment;
    this.keyMerge = keyMerge;
    this.versionOrder = versionOrder;
    this.keyOrder = levels.keyOrder();
    this.changelogRule = changelogRule;
    this.producer = options.changelogProducer();
    this.forcesUpLevel0 = MergeTreeWriter.forcesUpLevel0(options);
    this.lookupRule =
        lookup == null
            ? null
            : new LookupChangelogRule(
                keyMerge,
                changelogRule,
                lookup::lookup,
                producer == ChangelogProducer.LOOKUP,
                options.mergeEngine() == MergeEngine.FIRST_ROW);
    // A key's newest record alone is its merged value: deduplicate by arrival order.
    this.lastRecordAlone =
        options.mergeEngine() == MergeEngine.DEDUPLICATE && options.sequenceFields().isEmpty();
    // Under ignore-delete a lone retraction is kept as it is (KeyMerge), which the newest-version
    // merge, passing retractions over, would drop.
    this.newestVersionWins = lastRecordAlone && !options.ignoreDelete();
    this.targetFileSize = options.targetFileSize();
    this.maxLevel = levels.maxLevel();
  }

  /**
   * Carries out a compaction on this thread: {@link #plan}, {@link #rewrite} and each step {@link
   * #apply applied} as it is done.
   */
  void compact(CompactUnit unit) throws IOException {
    rewrite(plan(unit), this::apply);
  }

  /**
   * Plans a compaction on the writer's thread, from the levels as they are now: the unit's files
   * are split into sections of overlapping key ranges; a section of several files is merged; a lone
   * file is merged with its small neighbours (below 70% of {@code target-file-size}) or, if large,
   * or if it is all there is to merge, moved to the output level as it is (with its changelog, if
   * the producer owes one). A file moved to the top level is rewritten instead if it may hold
   * retractions, which the top level drops.
   */
  Plan plan(CompactUnit unit) {
    List<SortedRun> runs = levels.sortedRuns();
    // Deletes can go only when no older run is left outside the merge to be shadowed. Runs flushed
    // while the plan is rewritten are newer than all of it, so they shadow nothing it drops.
    boolean dropDeletes = unit.runs().size() == runs.size();
    List<DataFileMeta> unitFiles = new ArrayList<>();
    for (SortedRun run : unit.runs()) {
      unitFiles.addAll(run.files());
    }
    return new Plan(modeFor(unit), unit.outputLevel(), dropDeletes, runs, sections(unitFiles));
  }

  /**
   * A compaction planned: what to merge or move, and the sorted runs of the levels when it was
   * planned.
   */
  record Plan(
      ChangelogMode mode,
      int outputLevel,
      boolean dropDeletes,
      List<SortedRun> runs,
      List<List<DataFileMeta>> sections) {}

  /**
   * One step of a compaction, done: {@code consumed} replaced by {@code written}, and the changelog
   * written alongside.
   *
   * @param moved whether {@code written} are the {@code consumed} files at another level (no file
   *     was written)
   */
  record Step(
      List<DataFileMeta> consumed,
      List<DataFileMeta> written,
      boolean moved,
      List<DataFileMeta> changelog) {}

  /** Takes each step of a compaction as it is done. */
  interface StepSink {
    void done(Step step) throws IOException;

    /**
     * Whether no more steps are wanted: the rewrite then stops at the next key or section with a
     * {@link CancellationException}, and deletes what it was writing (the steps already done are
     * the sink's).
     */
    default boolean cancelled() {
      return false;
    }
  }

  /**
   * Merges and moves the files a plan names, handing each step done to {@code sink}. Reads the
   * levels only through the plan, and touches neither them nor the increment: a plan that owes no
   * changelog (whose rewrite looks up nothing in the levels) may be rewritten on another thread
   * than the writer's, by a rewriter of its own.
   *
   * @throws CancellationException if the sink is {@link StepSink#cancelled}
   */
  void rewrite(Plan plan, StepSink sink) throws IOException {
    long smallFile = targetFileSize / 10 * 7;
    List<List<DataFileMeta>> pending = new ArrayList<>();
    for (List<DataFileMeta> section : plan.sections()) {
      checkNotCancelled(sink);
      if (section.size() > 1 || section.get(0).fileSize() < smallFile) {
        pending.add(section);
      } else {
        mergePending(plan, pending, sink);
        move(plan, section.get(0), sink);
      }
    }
    mergePending(plan, pending, sink);
  }

  private ChangelogMode modeFor(CompactUnit unit) {
    if (forcesUpLevel0) {
      return ChangelogMode.LOOKUP;
    }
    if (producer == ChangelogProducer.FULL_COMPACTION && unit.outputLevel() == maxLevel) {
      return ChangelogMode.FULL_COMPACTION;
    }
    return ChangelogMode.NONE;
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
  private void mergePending(Plan plan, List<List<DataFileMeta>> pending, StepSink sink)
      throws IOException {
    if (pending.size() == 1 && pending.get(0).size() == 1) {
      move(plan, pending.get(0).get(0), sink);
    } else if (!pending.isEmpty()) {
      List<DataFileMeta> all = new ArrayList<>();
      pending.forEach(all::addAll);
      merge(plan, all, plan.dropDeletes(), true, sink);
    }
    pending.clear();
  }

  /**
   * Moves one file to the output level (Paimon's upgrade): as it is, with the changelog its records
   * owe (a lookup table's level-0 file, or any file reaching the top level of a full-compaction
   * table); rewritten when it goes to the top level and may hold retractions, or when it is a
   * lookup table's level-0 file whose records must merge with the key's current value (every engine
   * but deduplicate without {@code sequence.field}, below the top level).
   */
  private void move(Plan plan, DataFileMeta file, StepSink sink) throws IOException {
    int outputLevel = plan.outputLevel();
    boolean top = outputLevel == maxLevel;
    if (top && (file.deleteRowCount() == null || file.deleteRowCount() > 0)) {
      merge(plan, List.of(file), plan.dropDeletes(), true, sink);
      return;
    }
    if (file.level() == outputLevel) {
      return;
    }
    boolean lookupLevel0 = plan.mode() == ChangelogMode.LOOKUP && file.level() == 0;
    if (lookupLevel0 && !top && !lastRecordAlone) {
      merge(plan, List.of(file), false, true, sink);
    } else if (lookupLevel0 || plan.mode() == ChangelogMode.FULL_COMPACTION) {
      merge(plan, List.of(file), false, false, sink);
    } else {
      sink.done(new Step(List.of(file), List.of(file.upgrade(outputLevel)), true, List.of()));
    }
  }

  /**
   * Merges files into files at the output level, with the mode's changelog; with {@code writeData}
   * false only the changelog is written and the lone file moves up as it is.
   */
  private void merge(
      Plan plan,
      List<DataFileMeta> mergedFiles,
      boolean dropDeletes,
      boolean writeData,
      StepSink sink)
      throws IOException {
    int outputLevel = plan.outputLevel();
    List<SortedRun> runs = runsOf(plan, mergedFiles);
    // Paimon's lookup rewrite takes over only a compaction with a level-0 file; any other one
    // merges with the plain reducer, keeping a lone version as it is.
    ChangelogMode keyMode =
        plan.mode() == ChangelogMode.LOOKUP && mergedFiles.stream().noneMatch(f -> f.level() == 0)
            ? ChangelogMode.NONE
            : plan.mode();
    List<RunCursor> inputs = new ArrayList<>();
    try (RollingFileWriter out = output(outputLevel, false);
        RollingFileWriter changelog = output(outputLevel, true)) {
      int[] runLevels = new int[runs.size()];
      for (int i = 0; i < runs.size(); i++) {
        inputs.add(new RunCursor(runs.get(i).files(), files::open));
        runLevels[i] = runs.get(i).level();
      }
      if (writeData && keyMode == ChangelogMode.NONE && newestVersionWins) {
        writeNewest(inputs, dropDeletes, out, sink);
      } else if (keyMode == ChangelogMode.LOOKUP && newestVersionWins) {
        mergeNewestWithLookup(
            new RunKeys(inputs, runLevels, keyOrder, versionOrder),
            outputLevel,
            writeData ? out : null,
            dropDeletes,
            changelog,
            sink);
      } else if (keyMode == ChangelogMode.FULL_COMPACTION && newestVersionWins) {
        mergeNewestWithChangelog(
            new RunKeys(inputs, runLevels, keyOrder, versionOrder),
            writeData ? out : null,
            dropDeletes,
            changelog,
            sink);
      } else {
        mergeKeys(
            new RunKeys(inputs, runLevels, keyOrder, versionOrder),
            keyMode,
            outputLevel,
            writeData ? out : null,
            dropDeletes,
            changelog,
            sink);
      }
      if (writeData) {
        List<DataFileMeta> written = out.finish();
        sink.done(new Step(mergedFiles, written, false, finishChangelog(changelog, written)));
      } else {
        DataFileMeta file = mergedFiles.get(0);
        sink.done(
            new Step(List.of(file), List.of(file.upgrade(outputLevel)), true, changelog.finish()));
      }
    } finally {
      for (RunCursor input : inputs) {
        input.close();
      }
    }
  }

  /**
   * Writes the newest version of each key of the runs, for a table whose newest version wins and a
   * compaction that owes no changelog: each version as a view of its file's column batch, the
   * versions it supersedes passed over unread ({@link NewestVersionMerge}), so no key, value or
   * {@link KeyValue} is built per row. What {@link #mergeKeys} with {@link KeyMerge} writes for
   * such a table, retractions dropped where {@code dropDeletes}.
   */
  private void writeNewest(
      List<RunCursor> runs, boolean dropDeletes, RollingFileWriter out, StepSink sink)
      throws IOException {
    NewestVersionMerge newest =
        dropDeletes
            ? new NewestVersionMerge(runs, keyOrder, false)
            : NewestVersionMerge.keepingRetractions(runs, keyOrder);
    for (ChangeRow row = newest.nextRow(); row != null; row = newest.nextRow()) {
      checkNotCancelled(sink);
      out.write(row);
    }
  }

  /**
   * A full compaction of a table whose newest version wins: each key's newest version is what it
   * stores, and the changelog the difference between that and the key's version at the top level
   * ({@link ChangelogRule}), both read as views of their files' column batches, the versions
   * between passed over unread: what {@link #mergeKeys} gives such a table, with no key-value built
   * per key. A key the top level alone holds is stored as it is, with no changelog.
   */
  private void mergeNewestWithChangelog(
      RunKeys keys,
      RollingFileWriter out,
      boolean dropDeletes,
      RollingFileWriter changelog,
      StepSink sink)
      throws IOException {
    ChangelogRule.Sink toChangelog = changelog::write;
    while (keys.nextNewest(maxLevel)) {
      checkNotCancelled(sink);
      ChangeRow newest = keys.newest();
      ChangeRow top = keys.atLevel();
      if (top != newest) {
        changelogRule.emit(top, newest, toChangelog);
      }
      store(newest, out, dropDeletes);
    }
  }

  /**
   * A lookup compaction of a table whose newest version wins ({@link
   * LookupChangelogRule#mergeNewest}): each key's versions read as views of their files' column
   * batches, the before-image of a key no run above level 0 holds looked up as a view of its block
   * in the lookup copy: what {@link #mergeKeys} gives such a table, with no key-value built per
   * key.
   */
  private void mergeNewestWithLookup(
      RunKeys keys,
      int outputLevel,
      RollingFileWriter out,
      boolean dropDeletes,
      RollingFileWriter changelog,
      StepSink sink)
      throws IOException {
    ChangelogRule.Sink toChangelog = changelog::write;
    while (keys.nextNewestOverUpper()) {
      checkNotCancelled(sink);
      store(lookupRule.mergeNewest(keys, outputLevel, maxLevel, toChangelog), out, dropDeletes);
    }
  }

  /**
   * Writes a key's merged version to {@code out}, unless only the changelog is written ({@code out}
   * null) or it is a retraction the compaction may drop.
   */
  private static void store(ChangeRow merged, RollingFileWriter out, boolean dropDeletes)
      throws IOException {
    if (out != null && (merged.kind().isAdd() || !dropDeletes)) {
      out.write(merged);
    }
  }

  /**
   * Finishes a merge's changelog output after its data output: if the changelog cannot be finished,
   * the data files just finished, which no step will hand over, are deleted too rather than left
   * for the orphan cleaner.
   */
  private List<DataFileMeta> finishChangelog(RollingFileWriter changelog, List<DataFileMeta> data)
      throws IOException {
    try {
      return changelog.finish();
    } catch (IOException | RuntimeException e) {
      for (DataFileMeta file : data) {
        try {
          files.delete(file);
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /**
   * Merges the keys of the runs one by one, writing each result to {@code out} (null when only the
   * changelog is written). A key's lone version that is stored as it is ({@link #storedAsItIs}) is
   * written as the view it came as; any other key's versions go through the merge as views too.
   *
   * <p>A method of its own rather than a loop in {@link #merge}, for the JIT: with the loop inside,
   * {@code merge} was compiled five times in a new JVM's first lookup write (entries in the middle
   * of the loop, then again each time a plan of another shape reached it), each time with all it
   * inlines. Apart, the first lookup write of 2,000,000 rows spent 1.26 s in C2 against 1.53 s, and
   * wrote 7.5% more rows per CPU-second (medians of 8 new JVMs each, alternated).
   */
  private void mergeKeys(
      RunKeys keys,
      ChangelogMode keyMode,
      int outputLevel,
      RollingFileWriter out,
      boolean dropDeletes,
      RollingFileWriter changelog,
      StepSink sink)
      throws IOException {
    KeyVersions versions = new KeyVersions();
    // One sink for every key: a method reference made per key would be an object per key.
    ChangelogRule.Sink toChangelog = changelog::write;
    IntPredicate storedAsItIs = level -> storedAsItIs(keyMode, level);
    while (keys.next(versions, storedAsItIs)) {
      checkNotCancelled(sink);
      ChangeRow lone = keys.lone();
      if (lone != null) {
        store(lone, out, dropDeletes);
        continue;
      }
      ChangeRow result = mergeWithChangelog(versions, keyMode, outputLevel, toChangelog);
      if (result != null) {
        store(result, out, dropDeletes);
      }
    }
  }

  /**
   * Whether a key's lone version, from a run at {@code level}, is what the compaction stores of it,
   * with no changelog: any lone version where none is owed (a lone version is not merged, {@link
   * KeyMerge#reduce}); one already at the top level of a full-compaction table (its changelog is
   * owed only for keys that change); one above level 0 of a lookup table whose newest version wins
   * (the lookup rule runs the engine over it, which gives it back as it is).
   */
  private boolean storedAsItIs(ChangelogMode keyMode, int level) {
    return switch (keyMode) {
      case NONE -> true;
      case FULL_COMPACTION -> level == maxLevel;
      case LOOKUP -> level > 0 && newestVersionWins;
    };
  }

  private void checkNotCancelled(StepSink sink) {
    if (sink.cancelled()) {
      throw new CancellationException("the compaction of " + files.folder() + " was cancelled");
    }
  }

  private RollingFileWriter output(int level, boolean changelog) {
    return new RollingFileWriter(files, level, changelog, targetFileSize, lookup);
  }

  /**
   * Files as sorted runs, as the plan found them: each level-0 file alone, newest first, then each
   * level's files.
   */
  private static List<SortedRun> runsOf(Plan plan, List<DataFileMeta> someFiles) {
    List<SortedRun> runs = new ArrayList<>();
    for (SortedRun run : plan.runs()) {
      List<DataFileMeta> taken = run.files().stream().filter(someFiles::contains).toList();
      if (!taken.isEmpty()) {
        runs.add(SortedRun.of(run.level(), taken));
      }
    }
    return runs;
  }

  /**
   * Records a step of a compaction, on the writer's thread: its files in the levels, the lookup and
   * the pending increment; and deletes what it consumed before any snapshot named it.
   */
  void apply(Step step) throws IOException {
    levels.update(step.consumed(), step.written());
    if (lookup != null && !step.moved()) {
      for (DataFileMeta f : step.consumed()) {
        lookup.remove(f);
      }
    }
    for (DataFileMeta unreferenced :
        increment.compacted(step.consumed(), step.written(), step.moved())) {
      files.delete(unreferenced);
    }
    increment.compactionChangelog(step.changelog());
  }

  private ChangeRow mergeWithChangelog(
      KeyVersions versions, ChangelogMode mode, int outputLevel, ChangelogRule.Sink changelog)
      throws IOException {
    switch (mode) {
      case LOOKUP:
        return lookupRule.merge(versions, outputLevel, maxLevel, changelog);
      case FULL_COMPACTION:
        ChangeRow top = versions.atLevel(maxLevel);
        ChangeRow merged = keyMerge.reduce(versions);
        if (top == null || versions.size() > 1) {
          changelogRule.emit(top, merged, changelog);
        }
        return merged;
      default:
        return keyMerge.reduce(versions);
    }
  }
}
