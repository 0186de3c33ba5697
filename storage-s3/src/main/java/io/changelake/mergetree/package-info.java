/**
 * The LSM merge tree of one bucket, with Apache Paimon 1.3.1's rules, which decide what the
 * changelog and the table hold. The differential fuzzer ({@code ConformanceFuzzTest} in pipelines)
 * holds changelake to them; where Paimon and a document disagree, Paimon wins.
 *
 * <p>The package knows nothing of the table ({@code io.changelake.table} stands above it): it takes
 * the schema and options ({@code io.changelake.schema}) and a {@link
 * io.changelake.mergetree.BucketFiles} (the bucket's folder in an object store), and returns what
 * each commit changed as a {@link io.changelake.mergetree.BucketIncrement}, which the table wraps
 * into its commit message.
 *
 * <h2>The classes</h2>
 *
 * <table>
 *   <caption>Who does what in a bucket writer</caption>
 *   <tr><th>class</th><th>role</th><th>Paimon's counterpart</th></tr>
 *   <tr><td>{@link io.changelake.mergetree.MergeTreeWriter}</td><td>write and commit policy: when
 *     to flush, which compaction each producer owes at a commit</td><td>MergeTreeWriter</td></tr>
 *   <tr><td>{@code WriteBuffer} ({@code WriteBudget}, {@code RecordSort}, {@code BufferSpill},
 *     {@code BufferedKeys})</td><td>the records not flushed yet, held as BinaryRows in pages,
 *     spilled as sorted runs to local disk, merged by key at a flush</td>
 *     <td>SortBufferWriteBuffer</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.Levels}, {@link io.changelake.mergetree.SortedRun}
 *     </td><td>the bucket's files by level, as sorted runs newest first</td><td>Levels</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.UniversalCompaction}, {@link
 *     io.changelake.mergetree.CompactUnit}</td><td>which runs a compaction takes and where it
 *     writes</td><td>UniversalCompaction, ForceUpLevel0Compaction</td></tr>
 *   <tr><td>{@code CompactRewriter}</td><td>carries out a compaction: sections, merges, moves,
 *     the changelog it owes</td><td>MergeTreeCompactTask, the compact rewriters</td></tr>
 *   <tr><td>{@code RunReader}, {@link io.changelake.mergetree.SortMergeReader}</td><td>read
 *     sorted runs as key-values, merge them by key and version (a changelog task's
 *     runs)</td><td>SortMergeReader</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.RunCursor}, {@code RunCursors}, {@code
 *     CurrentKeys}, {@link io.changelake.mergetree.RunKeys}, {@link
 *     io.changelake.mergetree.KeyVersions}</td><td>the same for compactions and other engines'
 *     batch reads, one key at a time, each version a view of its row read unboxed, its key's
 *     integral columns compared as longs, no key-value built</td><td>SortMergeReader</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.NewestVersionMerge}</td><td>a batch read of a
 *     deduplicate table, and a compaction of one that owes no changelog: the newest version of
 *     each key as a view of its file's column batch, the values of superseded versions never
 *     read</td><td>its batch read's merge, with the deduplicate function</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.KeyMerge}, {@link
 *     io.changelake.mergetree.MergeFunction} ({@code merge/}: the engines)</td><td>turn a key's
 *     versions into the one stored: deduplicate and first-row keep one as it is, partial-update
 *     and aggregation fold them into a row of unboxed slots ({@code MergedRow})</td>
 *     <td>MergeFunction, its wrappers</td></tr>
 *   <tr><td>{@code ChangelogRule}, {@code LookupChangelogRule}</td><td>what the lookup and
 *     full-compaction producers emit; the BEFORE image of a key a lookup compaction takes from
 *     level 0</td><td>the changelog merge function wrappers</td></tr>
 *   <tr><td>{@code RollingFileWriter}, {@link io.changelake.mergetree.BucketFiles}</td><td>write
 *     the data and changelog files, a new one at {@code target-file-size}, on the caller's
 *     thread</td><td>RollingFileWriter, KeyValueFileWriterFactory</td></tr>
 *   <tr><td>{@link io.changelake.mergetree.FileSchemas}</td><td>read a file of an older schema
 *     as the current one, by field id, for every reader of the bucket</td>
 *     <td>SchemaEvolutionUtil, the data file readers' index and cast mappings</td></tr>
 *   <tr><td>{@code PendingIncrement}, {@link io.changelake.mergetree.BucketIncrement}</td><td>what
 *     the next commit records</td><td>CommitIncrement</td></tr>
 *   <tr><td>{@code lookup/}</td><td>the current value of a key in the levels above 0, on local
 *     disk</td><td>LookupLevels</td></tr>
 * </table>
 *
 * <h2>How the records of one key combine</h2>
 *
 * <ul>
 *   <li>A commit first flushes the write buffer to level 0: the merge engine over the flush's
 *       records of each key, in sequence order ({@code sequence.field}, ties by arrival), gives one
 *       record per key. Spilled runs of the buffer are merged into the same flush.
 *   <li>That record is what level 0 holds, what the {@code none} producer streams, and what
 *       compactions later merge with the older levels, again in sequence order. For functions that
 *       are not associative ({@code last_non_null_value} and {@code last_value} under a retraction,
 *       partial-update with a delete rule) "merge the flush, then merge it with the levels" differs
 *       from "apply every record to the stored row in turn": Paimon does the former, and so does
 *       changelake (no compaction ever takes unflushed records).
 *   <li>The surviving record keeps the kind of the record that produced it: a key written +I and
 *       then +U in one flush is stored, streamed and batch-read as +U.
 *   <li>A lone version is kept as it is (a lone retraction stays a retraction); in a lookup table
 *       only the newest version above level 0 counts with the level-0 versions, older upper
 *       versions being superseded.
 *   <li>Except in a compaction of a lookup-producer or first-row table that takes a level-0 file
 *       (Paimon's lookup rewrite): there every key it takes goes through the merge engine, a lone
 *       one too, whether it comes from level 0 or not, so partial-update and aggregation rows come
 *       out +I (or a retraction). A level-0 file moved up unchanged, or a compaction without one,
 *       keeps every kind.
 * </ul>
 *
 * <h2>Where compactions write, and when deletes go</h2>
 *
 * <ul>
 *   <li>Runs are ordered newest first: each level-0 file, then each non-empty level 1 to {@code
 *       num-levels - 1}. A compaction takes a prefix of them and writes one level below the first
 *       run it leaves, never level 0 (it takes runs until it can write above 0), and the top level
 *       when it takes all ({@link io.changelake.mergetree.UniversalCompaction}).
 *   <li>The universal pick does nothing with fewer runs than {@code
 *       num-sorted-run.compaction-trigger}; from there, size amplification, then size ratio, then
 *       the run count decide. It runs after every flush.
 *   <li>Lookup-producer and first-row tables lift every level-0 file above level 0 at each commit
 *       (Paimon's ForceUpLevel0Compaction): the universal pick if it fires above level 0, else all
 *       level-0 runs extended by size ratio. With {@code lookup-wait} (the default) the commit
 *       waits for it. Paimon commits an APPEND snapshot (the level-0 files) and a COMPACT snapshot;
 *       changelake does so for first-row tables with producer {@code none}, whose streaming readers
 *       read those level-0 files, and otherwise drops a level-0 file lifted by the commit that
 *       wrote it: one COMPACT snapshot, as no reader of a lookup or full-compaction changelog reads
 *       data files (the conformance check ignores snapshot layout; Paimon reads either).
 *   <li>A full compaction (COMPACT_FULL, or a commit whose identifier is a multiple of {@code
 *       full-compaction.delta-commits} when the bucket was written since the last one; a plain
 *       COMPACT never) merges every run into the top level, and does nothing when the only run is
 *       already there.
 *   <li>Deletes are dropped only by a compaction that takes every run (its output is the oldest
 *       data); elsewhere a retraction is kept as a record, so that it still shadows the older
 *       levels. With {@code sequence.field}, whether a later record with an older sequence
 *       resurrects a deleted key therefore depends on this placement.
 * </ul>
 *
 * <h2>Readers</h2>
 *
 * <ul>
 *   <li>A batch read of a first-row table skips level 0, as Paimon's scan does (its writer lifts
 *       level 0 at every commit, so a reader finds every committed first row above it).
 *   <li>A retraction the merge engine cannot take is refused when it is written (so that a pipeline
 *       can dead-letter it); Paimon refuses it only when a merge meets it with another version of
 *       its key, and keeps it while it stays alone. This is the one deliberate difference.
 *   <li>The lookup changelog of a first-row table emits a new key's row with the kind it was
 *       written with (+I or +U), as Paimon does; other engines emit +I.
 *   <li>The changelog each producer emits is tabulated in {@link
 *       io.changelake.mergetree.ChangelogRule}.
 * </ul>
 */
package io.changelake.mergetree;
