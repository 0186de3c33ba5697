/**
 * Beam transforms over changelake tables; {@link io.changelake.beam.ChangelakeIO} is the user
 * manual. This page is the operator guide of the read side.
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
 * <h2>Metrics (namespace {@code changelake})</h2>
 *
 * <table>
 *   <caption>Metrics</caption>
 *   <tr><th>metric</th><th>kind</th><th>meaning and what to watch</th></tr>
 *   <tr><td>{@code snapshots_seen}</td><td>counter</td><td>snapshots claimed by WatchSnapshots;
 *       grows with the writers' commit rate</td></tr>
 *   <tr><td>{@code read_tasks}</td><td>counter</td><td>(snapshot, partition, bucket) tasks
 *       planned</td></tr>
 *   <tr><td>{@code rows_insert}, {@code rows_update_before}, {@code rows_update_after}, {@code
 *       rows_delete}</td><td>counter</td><td>rows read by kind. On a lookup or full-compaction
 *       table {@code rows_update_before} equals {@code rows_update_after}; on a {@code none} table
 *       {@code rows_update_before} stays 0</td></tr>
 *   <tr><td>{@code lag_snapshots}</td><td>gauge</td><td>committed snapshots not yet claimed:
 *       0 when caught up; a steady rise means the reader falls behind the writers</td></tr>
 *   <tr><td>{@code lag_millis}</td><td>gauge</td><td>age of the snapshot being emitted (now
 *       minus its commit time); 0 when caught up</td></tr>
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
 * snapshot from there on. Tasks already planned but still queued read files of snapshots just
 * below the consumer's position: keep {@code snapshot.num-retained.min} above the backlog.
 *
 * <h2>Errors</h2>
 *
 * <ul>
 *   <li>Missing table: construction fails naming the location, or waits with {@code
 *       withWaitForTable()}.
 *   <li>Expired start snapshot, or a snapshot expired under a reader without a consumer: the read
 *       fails naming the snapshot and the ids that exist; give the read a consumer id.
 *   <li>Unreadable data or changelog file: the bundle fails naming the snapshot, bucket and
 *       files; the runner retries it, nothing is skipped.
 *   <li>Table columns changed since construction: the readers fail at start; rebuild the
 *       pipeline.
 * </ul>
 */
package io.changelake.beam;
