/**
 * Beam transforms of changelake tables; the user manual is {@link io.changelake.beam.ChangelakeIO}.
 * This page is the operator guide of the write.
 *
 * <h2>How the write works</h2>
 *
 * <pre>
 * Rows ─ GlobalWindow ─ AssignBucket ─┬─ GroupByKey (bounded) / GroupIntoBatches (streaming) per bucket
 *                                     │   ─ WriteBuckets (stateful, key = bucket) ─ Commit (stateful, key = table) ─ snapshots
 *                                     └─ dead letters (+ WriteBuckets' refused rows) ─ BadRecord
 * </pre>
 *
 * <ul>
 *   <li><b>AssignBucket</b> maps each Beam row onto the table's columns, checks it and keys it by
 *       {@code <partition path>bucket-<n>} with Paimon's bucket function.
 *   <li>Rows wait for their batch in Beam state (GroupIntoBatches, cut at {@code
 *       withMaxBatchRows} or the commit interval), never only in a DoFn's memory: Beam
 *       acknowledges the input once a bundle commits.
 *   <li><b>WriteBuckets</b> ({@code WriteBucketFn}) hosts one table writer per bucket: writes the
 *       batch, prepares the commit (flush, compaction, changelog) and emits the commit message
 *       with the bucket's batch number. It keeps in state the batch number, a view id and the
 *       batches the table may not hold yet; its writer in memory is used only while the view ids
 *       agree, and is otherwise rebuilt from the latest snapshot plus those batches.
 *   <li><b>Commit</b> ({@code CommitFn}, {@code @RequiresStableInput}) seals the arrived batches
 *       into rounds (per bucket in batch order, at most one batch of a bucket per round) with
 *       increasing identifiers in state, then commits the rounds. In streaming it seals once per
 *       commit interval; for bounded input once, at the end.
 * </ul>
 *
 * <p>State and timer ids are stable ({@code sequence}, {@code view}, {@code uncommitted}, {@code
 * uncommitted-count}; {@code arrived}, {@code sealed}, {@code identifier}, {@code sealed-through},
 * {@code interval-armed}, timers {@code commit-interval}, {@code commit-sealed}, {@code
 * end-of-input}); only value, bag and combining state and timers are used, so the write runs on
 * every portable runner.
 *
 * <h2>Failures and what they leave</h2>
 *
 * <ul>
 *   <li><b>A bucket writer fails after writing files</b> (or after emitting, before its bundle
 *       commits): the runner drops the bundle's outputs and state writes, so nothing refers to the
 *       files: orphans, removed by {@code OrphanFilesClean} after its safety age. The retry
 *       finds the view ids different and rebuilds the writer.
 *   <li><b>The committer fails before the snapshot is created</b>: the retry commits the same
 *       sealed round. <b>After</b>: the retry finds the commit user's identifier already in a
 *       snapshot and skips it; the snapshot rows are output by the retry.
 *   <li><b>Two pipelines write one bucket</b>: the later commit is refused ({@code
 *       CommitConflictException}: overlapping keys at a level, or a file it replaces is gone); the
 *       committer fails its bundle with that message, which retries cannot fix: stop one of the
 *       pipelines. Pipelines on different partitions (or buckets) only race for snapshot ids,
 *       which is retried.
 *   <li><b>A job restarted with empty state under the same commit user</b> continues the
 *       identifiers after the user's newest snapshot. Writers restart from the latest snapshot.
 * </ul>
 *
 * <h2>Metrics</h2>
 *
 * <p>All in namespace {@code changelake.write}.
 *
 * <table>
 *   <caption>Write metrics</caption>
 *   <tr><th>metric</th><th>kind</th><th>meaning</th><th>expect</th></tr>
 *   <tr><td>rowsWritten</td><td>counter</td><td>rows the bucket writers took</td>
 *       <td>the input minus dead letters</td></tr>
 *   <tr><td>deadLetters</td><td>counter</td><td>rows output as dead letters</td>
 *       <td>zero on clean input; else look at the reasons</td></tr>
 *   <tr><td>filesWritten, bytesWritten</td><td>counter</td><td>data and changelog files of the
 *       emitted batches, and their bytes</td><td>files / commits = files per commit: many small
 *       files mean too short a commit interval or too many buckets</td></tr>
 *   <tr><td>changelogRows</td><td>counter</td><td>rows in changelog files (input, lookup,
 *       full-compaction producers)</td><td>zero only with producer none</td></tr>
 *   <tr><td>flushAndCompactionMillis</td><td>distribution</td><td>time a bucket writer spends
 *       preparing a commit: flush, compaction, lookup</td><td>well below the commit interval;
 *       a growing maximum means compaction falls behind</td></tr>
 *   <tr><td>writerRebuilds</td><td>counter</td><td>bucket writers rebuilt from the table because
 *       the one in memory was stale</td><td>after retries, restarts and rebalancing; a steady
 *       rate means keys keep moving between workers (costly with lookup)</td></tr>
 *   <tr><td>commits, snapshots</td><td>counter</td><td>commit rounds made and snapshots
 *       created</td><td>about one commit per interval (one in batch)</td></tr>
 *   <tr><td>commitMillis</td><td>distribution</td><td>time of one commit round</td>
 *       <td>well below the commit interval</td></tr>
 *   <tr><td>conflictsRetried</td><td>counter</td><td>commit attempts that lost a snapshot id to
 *       another committer and were retried</td><td>zero with one writer per table; occasional
 *       with several pipelines on different partitions</td></tr>
 *   <tr><td><b>commitConflicts</b></td><td>counter</td><td>commits refused: two writers on one
 *       bucket, or {@code commit.max-retries} exhausted</td><td><b>must stay zero</b></td></tr>
 *   <tr><td><b>duplicateBatches</b></td><td>counter</td><td>batches that arrived at the
 *       committer a second time and were dropped</td><td><b>must stay zero</b>: nonzero means the
 *       runner delivered an output twice</td></tr>
 *   <tr><td>batchesHeldBack</td><td>counter</td><td>batches that arrived before their
 *       predecessor and waited for it</td><td>rare; nonzero is harmless</td></tr>
 *   <tr><td><b>injectedFaults</b></td><td>counter</td><td>faults injected by tests</td>
 *       <td><b>must stay zero</b> in production</td></tr>
 * </table>
 */
package io.changelake.beam;
