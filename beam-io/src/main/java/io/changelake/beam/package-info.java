/**
 * Beam transforms of changelake tables; the user manual is {@link io.changelake.beam.ChangelakeIO}.
 * This page is the operator guide: the write first, then the reads.
 *
 * <h2>How the write works</h2>
 *
 * <pre>
 * Rows ─ GlobalWindow ─ AssignBucket ─┬─ [AssignDynamicBucket (stateful, key = assigner): bucket = -1 only]
 *                                     │   [AssignCrossPartition (stateful, key = assigner): cross-partition upsert tables only]
 *                                     │   ─ GroupByKey (bounded) / GroupIntoBatches (streaming) per bucket
 *                                     │   ─ WriteBuckets (stateful, key = bucket) ─ Commit (stateful, key = table) ─ snapshots
 *                                     └─ dead letters (+ WriteBuckets' refused rows) ─ BadRecord
 * </pre>
 *
 * <ul>
 *   <li><b>AssignBucket</b> maps each Beam row onto the table's columns, checks it and keys it by
 *       {@code <partition path>bucket-<n>} with Paimon's bucket function; in a dynamic-bucket table
 *       ({@code bucket} = -1) by the key's assigner, {@code assigner-<a>}, instead; in a
 *       cross-partition upsert table by the key's hash modulo {@code
 *       dynamic-bucket.initial-buckets}, {@code cross-assigner-<a>}. A many-table write ({@code
 *       toDestinations}) first finds the row's table, opening (creating) it on its first row, and
 *       keys the row {@code <database>/<table>/<bucket>}, so every later stage, the committer
 *       included, keeps each table apart: one committer and one commit user per table.
 *   <li><b>AssignDynamicBucket</b> ({@code AssignHashBucketFn}, dynamic-bucket tables only) gives
 *       each key its bucket from the table's hash index as Paimon's {@code HashBucketAssigner}
 *       does, and keys the row by that bucket. It keeps in state a view id and the assignments no
 *       committed index holds yet, forgotten once one does; a rebuilt assigner loads the latest
 *       index plus those. The bucket's writer adds new keys to the bucket's index file, which its
 *       commit message carries.
 *   <li><b>AssignCrossPartition</b> ({@code AssignCrossPartitionFn}, cross-partition upsert tables
 *       only) keeps each key's (partition, bucket) in a key index on local disk, bootstrapped from
 *       the latest snapshot, and routes each row by Paimon's rule for its merge engine (a move
 *       under deduplicate is a -D in the old partition and the row in the new one, both carrying
 *       the move's id, so that the committer puts them in one snapshot). It keeps in state a view
 *       id, every placement it made and its count of moves; a rebuilt assigner bootstraps again and
 *       applies the placements over what it reads.
 *   <li>Rows wait for their batch in Beam state (GroupIntoBatches, cut at {@code withMaxBatchRows}
 *       or the commit interval), never only in a DoFn's memory: Beam acknowledges the input once a
 *       bundle commits.
 *   <li><b>WriteBuckets</b> ({@code WriteBucketFn}) hosts one table writer per bucket: writes the
 *       batch, prepares the commit (flush, compaction, changelog) and emits the commit message with
 *       the bucket's batch number. It keeps in state the batch number, a view id and the batches
 *       the table may not hold yet; its writer in memory is used only while the view ids agree, and
 *       is otherwise rebuilt from the latest snapshot plus those batches.
 *   <li><b>Commit</b> ({@code CommitFn}, {@code @RequiresStableInput}) seals the arrived batches
 *       into rounds ({@code CommitRounds}: per bucket in batch order, at most one message of a
 *       bucket per round, the two batches of a move's halves in one round) with increasing
 *       identifiers in state, then commits the rounds. In streaming it seals once per commit
 *       interval; for bounded input once, at the end.
 * </ul>
 *
 * <p>State and timer ids are stable ({@code sequence}, {@code view}, {@code uncommitted}, {@code
 * uncommitted-count}; assigner {@code view}, {@code pending}, {@code pending-count}; key-index
 * assigner {@code view}, {@code partitions}, {@code placements}, {@code moves}; {@code arrived},
 * {@code sealed}, {@code identifier}, {@code sealed-through}, {@code interval-armed}, timers {@code
 * commit-interval}, {@code commit-sealed}, {@code end-of-input}); only value, bag and combining
 * state and timers are used, so the write runs on every portable runner.
 *
 * <h2>Ordering: the contract</h2>
 *
 * <p>Beam keeps no order: neither within a bundle nor across bundles, and Dataflow, Flink and Spark
 * reorder elements after every shuffle (the write's own GroupByKey / GroupIntoBatches is one). So
 * the write never uses arrival order to decide which of a key's versions is newest when the table
 * has a {@code sequence.field} ({@code withSequenceField}, or the existing table's own): the writer
 * sorts each batch by key, then sequence, then arrival, and compactions and reads merge across
 * batches, files and levels in sequence order. What that guarantees:
 *
 * <ul>
 *   <li><b>Within one batch</b> (one commit interval of a bucket, or the whole bounded input) any
 *       order gives the same table and the same changelog, for every merge engine and producer.
 *   <li><b>Across batches</b>, a change that arrives in a later batch than a newer change of its
 *       key still merges below it: the table is the same; lookup and full-compaction changelogs
 *       replay to the same rows (an extra -U/+U of the same value may appear); an input changelog
 *       holds the same rows (so any sum of signed deltas agrees), and a consumer of an input or
 *       none changelog who keeps, per key, the change with the highest sequence gets the same rows.
 *       Two exceptions, both Paimon's rules too: no change may arrive in a later batch than a newer
 *       <i>delete</i> of its key (a delete compacted into the last level is dropped, after which
 *       the older change brings the key back); and a partial-update table keeps one sequence per
 *       row, so across batches it needs a sequence group per column group ({@code
 *       fields.<seq>.sequence-group}) rather than one {@code sequence.field}. A source whose
 *       retries stay within a commit interval, as Kafka partitions read in order do, meets both.
 *   <li><b>Without a sequence</b> a key's versions apply in arrival order. An unbounded write whose
 *       result depends on order (anything but an aggregation table of plain rows with sum, count,
 *       min, max, product, bool_and or bool_or columns) is refused when applied, unless {@code
 *       withArrivalOrder()} states that source and runner keep each key's order (true for the
 *       DirectRunner with an ordered source, or TestStream). A bounded write is not refused, but
 *       its single GroupByKey gives no order either on a distributed runner: give it a sequence
 *       too.
 *   <li>first-row takes no sequence field: the first version to arrive wins, so its result is
 *       order-free only when a key's versions are equal (redeliveries of the same row).
 * </ul>
 *
 * <h2>Failures and what they leave</h2>
 *
 * <ul>
 *   <li><b>A bucket writer fails after writing files</b>, or after emitting its commit messages but
 *       before its bundle commits: the runner drops the bundle's outputs and state writes, so
 *       nothing refers to the files: orphans, removed by {@code OrphanFilesClean} after its safety
 *       age. The retry rebuilds the writer, since its view id no longer equals the state's: the
 *       attempt cleared it before writing and, once done, set it to a fresh one that only the
 *       committed bundle records.
 *   <li><b>The committer fails before the snapshot is created</b>: the retry commits the same
 *       sealed round. <b>After</b>: the retry finds the commit user's identifier already in a
 *       snapshot and skips it; the snapshot rows are output by the retry.
 *   <li><b>Two pipelines write one bucket</b>: the later commit is refused ({@code
 *       CommitConflictException}: overlapping keys at a level, or a file it replaces is gone); the
 *       committer fails its bundle with that message, which retries cannot fix: stop one of the
 *       pipelines. Pipelines on different partitions (or buckets) only race for snapshot ids, which
 *       is retried.
 *   <li><b>A job restarted with empty state under the same commit user</b> continues the
 *       identifiers after the user's newest snapshot. Writers restart from the latest snapshot.
 * </ul>
 *
 * <h2>Metrics</h2>
 *
 * <p>All in namespace {@code changelake.write}; the reads' are in {@code changelake.read}. Names
 * are camelCase, as Beam's own IOs name theirs.
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
 *       rate means keys keep moving between workers (costly with lookup), or writers idle
 *       longer than 10 minutes between batches (closed, then rebuilt)</td></tr>
 *   <tr><td>schemaChanges</td><td>counter</td><td>alters of the table a write made while running,
 *       for rows whose {@link io.changelake.beam.DynamicColumns} the table could not take</td>
 *       <td>one per source schema change (a worker whose alter lost to another's does not
 *       count)</td></tr>
 *   <tr><td>bucketsAssigned</td><td>counter</td><td>dynamic-bucket tables: new keys the
 *       assigners gave a bucket, each kept in assigner state until a commit holds it;
 *       cross-partition upsert tables: new and moved keys the key-index assigners placed, each kept
 *       in their state</td><td>the
 *       new keys, plus repeats after retries</td></tr>
 *   <tr><td>assignmentsForgotten</td><td>counter</td><td>kept assignments dropped from assigner
 *       state because the latest index holds them</td><td>in streaming, close behind
 *       bucketsAssigned (the gap is the assigners' state); zero in batch (one commit at the
 *       end)</td></tr>
 *   <tr><td>idleWritersClosed</td><td>counter</td><td>bucket writers closed after 10 minutes
 *       without a batch, freeing their buffer, lookup copies and budget share</td><td>only for
 *       buckets that stop receiving rows</td></tr>
 *   <tr><td>hostedWriters</td><td>gauge</td><td>bucket writers one DoFn instance holds
 *       open</td><td>at most the buckets a worker hosts</td></tr>
 *   <tr><td>lookupCacheMemoryBytes, lookupCacheDiskBytes</td><td>gauge</td><td>the worker's
 *       shared lookup cache: heap of filters, indexes and blocks, and local disk of the
 *       copies</td><td>at most {@code lookup.cache-max-memory-size} and {@code
 *       lookup.cache-max-disk-size}</td></tr>
 *   <tr><td>lookupCacheHitPercent</td><td>gauge</td><td>lookups of a filter, index or block that
 *       found it in memory, since the worker started</td><td>high; a falling rate means the
 *       memory budget is too small for the keys looked up</td></tr>
 *   <tr><td>lookupCacheEvictions</td><td>gauge</td><td>entries the memory budget dropped plus
 *       copies the disk budget deleted, since the worker started</td><td>a steadily climbing count
 *       of disk evictions means data files are downloaded again and again: raise the disk
 *       budget</td></tr>
 *   <tr><td>backgroundCompactionsPending</td><td>gauge</td><td>none and input tables of an
 *       unbounded write: compactions running beside their writers, or done and waiting for the
 *       next commit to record them, every table's in the worker</td><td>at most one per bucket
 *       writer open in the worker</td></tr>
 *   <tr><td>backgroundCompactionsDropped</td><td>gauge</td><td>such compactions cancelled
 *       because their writer closed (idle, rebuilt or torn down), since the worker started; the
 *       files they read stay, and a later compaction takes them</td><td>at most one per bucket
 *       writer closed</td></tr>
 *   <tr><td><b>backgroundCompactionsFailed</b></td><td>gauge</td><td>such compactions whose
 *       rewrite failed (each fails the commit that waited for it, which is retried), since the
 *       worker started</td><td><b>zero</b>; else the worker's log names the bucket and the
 *       cause</td></tr>
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
 *   <tr><td>batchesAwaitingMove</td><td>counter</td><td>batches, at each seal, that waited for
 *       the batch holding the other half of a key's move between partitions (cross-partition
 *       tables)</td><td>nonzero is harmless; one that keeps growing while the input is still
 *       means a partner is lost</td></tr>
 *   <tr><td>joinedBatches</td><td>counter</td><td>batches committed as one message with an
 *       earlier batch of their bucket, because the halves of moves paired them across
 *       batches</td><td>rare; nonzero is harmless (the earlier batch's compacted files that the
 *       later one replaced are orphans for orphan cleaning)</td></tr>
 *   <tr><td><b>injectedFaults</b></td><td>counter</td><td>faults injected by tests</td>
 *       <td><b>must stay zero</b> in production</td></tr>
 * </table>
 *
 * <h2>The reads</h2>
 *
 * <h2>Topology</h2>
 *
 * <pre>
 * read():          Impulse -&gt; PlanSnapshotRead -&gt; Reshuffle -&gt; ReadTasks
 * readChangelog(): Impulse -&gt; ResolveStart -&gt; WatchSnapshots (splittable, snapshot ids)
 *                  + latest-full state tasks -&gt; Reshuffle -&gt; ReadTasks
 *                  [-&gt; NormalizeChanges -&gt; Select]
 * </pre>
 *
 * <p>WatchSnapshots claims snapshot ids in order from an offset range (growable when unbounded),
 * emits one task per (snapshot, partition, bucket), and checkpoints for the poll interval when it
 * has caught up. Its restriction is never split, so it runs on one worker at a time; the reading
 * happens after the reshuffle, in parallel. Every element crossing a stage has an explicit coder:
 * tasks use storage-s3's versioned task serializer, rows their Beam schema.
 *
 * <h2>Metrics (namespace {@code changelake.read})</h2>
 *
 * <table>
 *   <caption>Metrics</caption>
 *   <tr><th>metric</th><th>kind</th><th>meaning and what to watch</th></tr>
 *   <tr><td>snapshotsSeen</td><td>counter</td><td>snapshots claimed by WatchSnapshots;
 *       grows with the writers' commit rate</td></tr>
 *   <tr><td>readTasks</td><td>counter</td><td>(snapshot, partition, bucket) tasks
 *       planned</td></tr>
 *   <tr><td>rowsInsert, rowsUpdateBefore, rowsUpdateAfter, rowsDelete</td><td>counter</td>
 *       <td>rows read by kind. On a lookup or full-compaction table rowsUpdateBefore equals
 *       rowsUpdateAfter; on a {@code none} table rowsUpdateBefore stays 0</td></tr>
 *   <tr><td>lagSnapshots</td><td>gauge</td><td>committed snapshots not yet claimed:
 *       0 when caught up; a steady rise means the reader falls behind the writers</td></tr>
 *   <tr><td>lagMillis</td><td>gauge</td><td>age of the snapshot being emitted (now
 *       minus its commit time); 0 when caught up</td></tr>
 *   <tr><td>columnsNotEmitted</td><td>gauge</td><td>columns the table gained since the pipeline
 *       was built, which it does not emit (its Beam schema is fixed)</td><td>0 until the table
 *       gains a column; then rebuild the pipeline to read them</td></tr>
 * </table>
 *
 * <h2>Restarts and consumers</h2>
 *
 * <p>With a consumer id, {@code consumer/consumer-<id>} records the next snapshot to read after
 * each bundle of WatchSnapshots commits (Beam's bundle finalization), and a new pipeline with the
 * same id resumes there. Within one job the runner's checkpoints give exactly-once; across jobs,
 * stop the old one with drain, so that every task already planned is also read: cancelling drops
 * the tasks in flight, and the new job resumes after them. The consumer holds snapshot expiry back
 * at its position; delete the consumer file of a pipeline retired for good, or it keeps every
 * snapshot from there on. Tasks already planned but still queued read files of snapshots just below
 * the consumer's position: keep {@code snapshot.num-retained.min} above the backlog.
 *
 * <h2>Errors</h2>
 *
 * <ul>
 *   <li>Missing table: construction fails naming the location, or waits with {@code
 *       withWaitForTable()}.
 *   <li>Expired start snapshot, or a snapshot expired under a reader without a consumer: the read
 *       fails naming the snapshot and the ids that exist; give the read a consumer id.
 *   <li>Unreadable data or changelog file: the bundle fails naming the snapshot, bucket and files;
 *       the runner retries it, nothing is skipped.
 *   <li>Table columns changed since construction: the readers fail at start; rebuild the pipeline.
 * </ul>
 */
package io.changelake.beam;
