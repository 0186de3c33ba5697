package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.HashIndexFile;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketFiles;
import io.changelake.mergetree.BucketIncrement;
import io.changelake.mergetree.Levels;
import io.changelake.mergetree.MergeTreeWriter;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.mergetree.lookup.LookupCache;
import io.changelake.mergetree.lookup.LookupLevels;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.TableOptions;
import io.changelake.schema.TableSchema;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Writes rows into a table: routes each to its partition and bucket (Paimon's bucket function, so
 * Paimon writers agree; in a dynamic-bucket table, the table's hash index, {@link DynamicBuckets},
 * whose changed files each commit carries) and hands it to that bucket's {@link MergeTreeWriter},
 * which restores the bucket's files from the latest snapshot the first time the bucket is written.
 * In a cross-partition upsert table (a primary key without every partition column) a key index of
 * the whole table routes each row, and may add a -D for the key's old partition, as Paimon does:
 * see {@link CrossPartitionUpsert}.
 *
 * <p>{@link #prepareCommit} asks every bucket writer for what the commit needs (flushed files,
 * compactions, changelog) and returns one {@link CommitMessage} per bucket that changed; commit
 * them with {@link SnapshotCommit}. After a failed commit, close this writer and open a new one:
 * its view of the buckets is ahead of the table.
 *
 * <p>A writer made with {@link Table#newWriter(List)} sees, on top of the latest snapshot, the
 * messages an earlier writer prepared that may not be committed yet (see {@link
 * UncommittedMessages}): how a restarted writer continues where its predecessor stopped while the
 * committer is still behind.
 *
 * <p>Rows are checked as they arrive: a null primary-key value, a wrong Java class or a wrong
 * column count is an {@link IllegalArgumentException} naming the column, and nothing of that row is
 * kept. Not thread-safe. Local scratch space (spilled buffers, lookup caches) lives in a temporary
 * folder under {@code local-dir} removed by {@link #close()}. The lookup cache's budgets and the
 * write buffer's are the worker's: every writer in the JVM shares them ({@link LookupCache#shared},
 * {@code write-buffer-size}).
 */
public final class TableWriter implements AutoCloseable {

  private final Table table;
  private final TableSchema schema;
  private final int[] keyIndexes;
  private final BucketAssigner assigner;
  private final DynamicBuckets dynamicBuckets;
  private final boolean crossPartition;
  private CrossPartitionUpsert crossPartitionUpsert;
  private final List<CommitMessage> uncommitted;
  private final Map<BucketId, MergeTreeWriter> writers = new LinkedHashMap<>();
  private final List<AutoCloseable> lookups = new ArrayList<>();
  private Map<BucketId, List<DataFileMeta>> restoredFiles;
  private Path scratch;

  TableWriter(Table table, List<CommitMessage> uncommitted) {
    table.requireSupported("written");
    this.table = table;
    this.schema = table.schema();
    this.keyIndexes = schema.keyIndexes();
    this.uncommitted = List.copyOf(uncommitted);
    this.crossPartition = schema.crossPartitionUpsert();
    this.dynamicBuckets =
        schema.options().dynamicBucket() && !crossPartition
            ? new DynamicBuckets(
                schema.options(),
                () -> liveIndexFiles(table, this.uncommitted),
                new HashIndexFile(table.store(), table.path().indexFolder()))
            : null;
    this.assigner = new BucketAssigner(schema, table.location(), dynamicBuckets);
  }

  /**
   * The index files of the latest snapshot, with those of uncommitted messages in their place: the
   * hash index a writer continues from.
   */
  static List<IndexManifestEntry> liveIndexFiles(Table table, List<CommitMessage> uncommitted)
      throws IOException {
    Map<IndexManifestEntry.Identity, IndexManifestEntry> live = new LinkedHashMap<>();
    Optional<Snapshot> latest = table.snapshots().latest();
    if (latest.isPresent()) {
      for (IndexManifestEntry e : table.newScan().indexFiles(latest.get())) {
        live.put(e.identity(), e);
      }
    }
    for (CommitMessage m : uncommitted) {
      for (IndexFileMeta f : m.newIndexFiles()) {
        IndexManifestEntry e = new IndexManifestEntry(FileKind.ADD, m.partition(), m.bucket(), f);
        live.put(e.identity(), e);
      }
    }
    return new ArrayList<>(live.values());
  }

  private record BucketId(SerializedRow partition, int bucket) {}

  /**
   * Takes one row with its kind.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   * @throws io.changelake.mergetree.MergeException if the merge engine cannot take the record
   */
  public void write(RowKind kind, Object[] row) throws IOException {
    if (crossPartition) {
      crossPartitionUpsert().write(kind, row, this::put);
    } else {
      put(kind, row, assigner.assign(row));
    }
  }

  private CrossPartitionUpsert crossPartitionUpsert() throws IOException {
    if (crossPartitionUpsert == null) {
      crossPartitionUpsert =
          new CrossPartitionUpsert(
              table, uncommitted, assigner, scratch().resolve("key-index"), 1, 0);
    }
    return crossPartitionUpsert;
  }

  /**
   * Takes one row of a dynamic-bucket table with the bucket its {@link HashBucketAssigner} gave it:
   * the key joins the bucket's hash index, which the next commit carries. Or one row of a
   * cross-partition upsert table, in its partition, with the bucket a {@link CrossPartitionUpsert}
   * sent it to (a -D it implies for another partition is a row of its own). A writer takes its
   * buckets either all this way or all from {@link #write(RowKind, Object[])}.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   * @throws IllegalStateException if the table has a fixed bucket count, or the key already has
   *     another bucket
   */
  public void write(RowKind kind, Object[] row, int bucket) throws IOException {
    if (crossPartition) {
      put(kind, row, assigner.inBucket(row, bucket));
      return;
    }
    if (dynamicBuckets == null) {
      throw new IllegalStateException(
          "table " + table.location() + " has a fixed bucket count: its rows choose no bucket");
    }
    put(kind, row, assigner.assignTo(row, bucket));
  }

  private void put(RowKind kind, Object[] row, BucketAssigner.RowBucket target) throws IOException {
    BucketId id = new BucketId(target.partition(), target.bucket());
    MergeTreeWriter writer = writers.get(id);
    if (writer == null) {
      writer = open(id, target.partitionPath());
      writers.put(id, writer);
    }
    // The writer serializes the row at once: the caller may reuse the array.
    writer.write(BucketAssigner.project(row, keyIndexes), kind, row);
  }

  private MergeTreeWriter open(BucketId id, String partitionPath) throws IOException {
    TableOptions options = schema.options();
    Levels levels =
        new Levels(
            schema.keyType(), options.numLevels(), restoredFiles().getOrDefault(id, List.of()));
    BucketFiles files =
        new BucketFiles(
            table.store(),
            table.path().bucketFolder(partitionPath, id.bucket()),
            table.fileSchemas());
    Path folder = scratch().resolve(Integer.toHexString(id.hashCode()) + "-" + id.bucket());
    LookupLevels lookup = null;
    if (MergeTreeWriter.forcesUpLevel0(options)) {
      lookup =
          new LookupLevels(
              levels,
              schema.keyType(),
              schema.rowType(),
              files::open,
              folder.resolve("lookup"),
              LookupCache.shared(
                  options.lookupCacheMaxMemorySize(), options.lookupCacheMaxDiskSize()),
              options.lookupCacheFileRetention(),
              options.lookupCacheSpillCompressed());
      lookups.add(lookup);
    }
    return new MergeTreeWriter(
        schema,
        files,
        levels,
        () -> MergeFunctions.create(schema),
        MergeFunctions.sequenceOrder(schema),
        lookup,
        folder.resolve("spill"));
  }

  private Path scratch() throws IOException {
    if (scratch == null) {
      String localDir = schema.options().localDir();
      scratch =
          localDir == null
              ? Files.createTempDirectory("changelake-writer")
              : Files.createTempDirectory(
                  Files.createDirectories(Path.of(localDir)), "changelake-writer");
    }
    return scratch;
  }

  private Map<BucketId, List<DataFileMeta>> restoredFiles() throws IOException {
    if (restoredFiles == null) {
      restoredFiles = new HashMap<>();
      Optional<Snapshot> latest = table.snapshots().latest();
      List<ManifestEntry> live =
          latest.isPresent() ? table.newScan().liveFiles(latest.get()) : List.of();
      for (ManifestEntry e : UncommittedMessages.applied(live, uncommitted).values()) {
        restoredFiles
            .computeIfAbsent(new BucketId(e.partition(), e.bucket()), k -> new ArrayList<>())
            .add(e.file());
      }
    }
    return restoredFiles;
  }

  /**
   * Opens, for a compaction, every bucket with live files whose partition folder ({@code k=v/...},
   * empty when unpartitioned) {@code partitions} accepts, without writing to it: what a dedicated
   * compaction job does before {@link #prepareCommit(long, CompactionRequest)} with {@code NORMAL}
   * or {@code FULL}.
   *
   * @return the number of buckets opened
   */
  public int openForCompaction(Predicate<String> partitions) throws IOException {
    int opened = 0;
    for (Map.Entry<BucketId, List<DataFileMeta>> e : restoredFiles().entrySet()) {
      BucketId id = e.getKey();
      String partitionPath = table.partitionPath(id.partition());
      if (!e.getValue().isEmpty() && partitions.test(partitionPath)) {
        if (!writers.containsKey(id)) {
          writers.put(id, open(id, partitionPath));
        }
        opened++;
      }
    }
    return opened;
  }

  /**
   * What the commit with this identifier needs, with the producers' own compactions only, every one
   * finished.
   */
  public List<CommitMessage> prepareCommit(long commitIdentifier) throws IOException {
    return prepareCommit(commitIdentifier, CompactionRequest.AUTO);
  }

  /**
   * What the commit with this identifier needs: every bucket written flushes and compacts as its
   * producer says, plus the compaction asked for, every compaction finished.
   */
  public List<CommitMessage> prepareCommit(long commitIdentifier, CompactionRequest request)
      throws IOException {
    return prepareCommit(commitIdentifier, request, true);
  }

  /**
   * What the commit with this identifier needs, as {@link #prepareCommit(long, CompactionRequest)}
   * does; with {@code waitCompaction} false, as Paimon's streaming writer does for a none or input
   * table, a bucket of such a table compacts in the background and a later commit records the
   * compaction (see {@link MergeTreeWriter}). Close the writer to stop a compaction no commit will
   * record.
   */
  public List<CommitMessage> prepareCommit(
      long commitIdentifier, CompactionRequest request, boolean waitCompaction) throws IOException {
    if (MergeTreeWriter.forcesUpLevel0(schema.options()) && !schema.options().writeOnly()) {
      openBucketsWithPendingChangelog();
    }
    Map<DynamicBuckets.Bucket, IndexFileMeta> indexFiles =
        dynamicBuckets == null ? Map.of() : dynamicBuckets.writeChanged();
    List<CommitMessage> messages = new ArrayList<>();
    for (Map.Entry<BucketId, MergeTreeWriter> e : writers.entrySet()) {
      BucketIncrement increment =
          e.getValue().prepareCommit(request, commitIdentifier, waitCompaction);
      BucketId id = e.getKey();
      IndexFileMeta index = indexFiles.get(new DynamicBuckets.Bucket(id.partition(), id.bucket()));
      CommitMessage message =
          new CommitMessage(
              id.partition(),
              id.bucket(),
              assigner.buckets(),
              increment,
              index == null ? List.of() : List.of(index));
      if (!message.isEmpty()) {
        messages.add(message);
      }
    }
    return messages;
  }

  /**
   * A lookup or first-row table's level-0 files wait to be lifted above level 0 (written with
   * {@code lookup-wait=false}, or by a writer that stopped before compacting), lookup tables' with
   * their changelog: open their buckets so this commit lifts them, even if nothing new is written
   * there.
   */
  private void openBucketsWithPendingChangelog() throws IOException {
    for (Map.Entry<BucketId, List<DataFileMeta>> e : restoredFiles().entrySet()) {
      BucketId id = e.getKey();
      if (!writers.containsKey(id) && e.getValue().stream().anyMatch(f -> f.level() == 0)) {
        writers.put(id, open(id, table.partitionPath(id.partition())));
      }
    }
  }

  /**
   * Closes every bucket writer and lookup and removes the scratch folder, even when some of them
   * fail: the first failure is thrown, with the others added to it as suppressed.
   */
  @Override
  public void close() throws IOException {
    List<Exception> failures = new ArrayList<>();
    for (MergeTreeWriter writer : writers.values()) {
      try {
        writer.close();
      } catch (IOException | RuntimeException e) {
        failures.add(e);
      }
    }
    for (AutoCloseable lookup : lookups) {
      try {
        lookup.close();
      } catch (Exception e) {
        failures.add(e);
      }
    }
    if (crossPartitionUpsert != null) {
      try {
        crossPartitionUpsert.close();
      } catch (IOException e) {
        failures.add(e);
      }
      crossPartitionUpsert = null;
    }
    writers.clear();
    lookups.clear();
    if (scratch != null) {
      try (Stream<Path> paths = Files.walk(scratch)) {
        for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        failures.add(e);
      } catch (UncheckedIOException e) {
        failures.add(e.getCause());
      }
      scratch = null;
    }
    if (failures.isEmpty()) {
      return;
    }
    Exception first = failures.get(0);
    for (Exception other : failures.subList(1, failures.size())) {
      first.addSuppressed(other);
    }
    if (first instanceof IOException io) {
      throw io;
    }
    if (first instanceof RuntimeException r) {
      throw r;
    }
    throw new IOException("closing the table writer failed", first);
  }
}
