package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.MergeEngine;
import io.changelake.schema.TableSchema;
import io.changelake.table.BucketAssigner.RowBucket;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Where the rows of a cross-partition upsert table go: a table whose primary key does not hold
 * every partition column, so that a key may move between partitions. Paimon 1.3.1's {@code
 * GlobalIndexAssigner}, as its Flink sink runs it, over a {@link GlobalKeyIndex} of every key's
 * (partition, bucket).
 *
 * <p>The index is bootstrapped, on the first row, from every key of the table as the writer's base
 * sees it (the latest snapshot, plus the files of uncommitted messages it continues): the merged
 * rows of each bucket, read by {@code cross-partition-upsert.bootstrap-parallelism} threads, each
 * key counted in its bucket. Then a row of key k for partition p goes:
 *
 * <ul>
 *   <li>if k is new: to a bucket of p, the lowest-numbered one holding fewer than {@code
 *       dynamic-bucket.target-row-num} keys, else the lowest number not yet used;
 *   <li>if k is in p: to its bucket;
 *   <li>if k is in another partition q, by merge engine (Paimon's {@code ExistingProcessor}):
 *       <ul>
 *         <li>deduplicate: a -D of the row with q's partition values to k's old bucket in q (its
 *             count there drops), then the row to a bucket of p as for a new key;
 *         <li>partial-update, aggregation: the row, with q's partition values, to k's bucket in q:
 *             the key stays where it first came;
 *         <li>first-row: nowhere; the key's first row stays.
 *       </ul>
 * </ul>
 *
 * <p>Every row kind goes the same way: a -D of a key in another partition is, for deduplicate, a -D
 * in the old partition and one in the new. A deleted key stays in the index while the writer lives
 * (Paimon's never forgets one), but a writer opened later does not bootstrap it (the table holds no
 * row of it).
 *
 * <p>The table has no hash index files (Paimon writes none in this mode) and is one writer's at a
 * time: two writers at once may put a key in two partitions, which the next bootstrap refuses, as
 * Paimon's does.
 *
 * <p>{@code n} assigners may split the keys, as Paimon's Flink sink runs n {@code
 * GlobalIndexAssigner}s keyed by key hash: assigner a ({@link #assignerOf}) takes the keys whose
 * hash is a modulo n, bootstraps only those, and opens and counts only the buckets {@code b % n ==
 * a}. A {@link TableWriter} is the one assigner of its table (n = 1). An assigner that writes in
 * one place and commits in another (the Beam write) keeps the keys it placed ({@link
 * #takeNewPlacements}) and gives them back to its successor ({@link #restore}): they override what
 * the successor bootstraps, which may be a snapshot from before their rows were committed, or one
 * holding a moved key in both partitions while the -D of the move is still to be committed.
 *
 * <p>Memory: the heap holds one entry per partition and per (partition, bucket); the keys are on
 * local disk ({@link GlobalKeyIndex}). Not thread-safe.
 */
public final class CrossPartitionUpsert implements Closeable {

  /** Where {@link #write} sends a row. */
  @FunctionalInterface
  public interface Target {
    void put(RowKind kind, Object[] row, RowBucket bucket) throws IOException;
  }

  /**
   * Where an assigner put a key: its (partition, bucket) from then on.
   *
   * @param key the primary key, as a BinaryRow
   * @param keyHash the key's hash, as {@link #write} computes it
   * @param partition the partition, serialized
   * @param bucket the bucket in that partition
   */
  public record Placement(SerializedRow key, int keyHash, SerializedRow partition, int bucket) {}

  /** A partition the index names by number. */
  private record Partition(SerializedRow row, Object[] values, String path) {}

  private final Table table;
  private final TableSchema schema;
  private final List<CommitMessage> uncommitted;
  private final BucketAssigner rows;
  private final Path folder;
  private final int assigners;
  private final int assigner;
  private final MergeEngine engine;
  private final long targetRowNum;
  private final int[] keyIndexes;
  private final int[] partitionIndexes;
  private final BinaryRowCodec keyCodec;
  private final BinaryRowCodec partitionCodec;
  private final List<Partition> partitions = new ArrayList<>();
  private final Map<SerializedRow, Integer> partitionIds = new HashMap<>();
  private final List<TreeMap<Integer, Long>> bucketKeys = new ArrayList<>();
  private final List<Placement> newPlacements = new ArrayList<>();
  private Iterable<Placement> restored = List.of();
  private final Map<SerializedRow, String> doubled = new LinkedHashMap<>();
  private GlobalKeyIndex index;

  /**
   * @param table the table
   * @param uncommitted messages a predecessor prepared that the latest snapshot may not hold
   * @param rows the table's row checks and partitions
   * @param folder a folder of local disk for the index, created on the first row and removed by
   *     {@link #close}
   * @param assigners the assigners splitting the keys, n
   * @param assigner this assigner, 0 to n - 1
   */
  CrossPartitionUpsert(
      Table table,
      List<CommitMessage> uncommitted,
      BucketAssigner rows,
      Path folder,
      int assigners,
      int assigner) {
    this.table = table;
    this.schema = table.schema();
    this.uncommitted = List.copyOf(uncommitted);
    this.rows = rows;
    this.folder = folder;
    this.assigners = assigners;
    this.assigner = assigner;
    this.engine = schema.options().mergeEngine();
    this.targetRowNum = schema.options().dynamicBucketTargetRowNum();
    RowType rowType = schema.rowType();
    List<String> names = rowType.names();
    this.keyIndexes = schema.primaryKeys().stream().mapToInt(names::indexOf).toArray();
    this.partitionIndexes = schema.partitionIndexes();
    this.keyCodec = new BinaryRowCodec(rowType.project(keyIndexes));
    this.partitionCodec = new BinaryRowCodec(schema.partitionType());
  }

  /**
   * The assigner of a row's key, 0 to n - 1; answers without reading.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   */
  public int assignerOf(Object[] row) {
    rows.partitionOf(row);
    return assignerOfHash(keyCodec.hash(BucketAssigner.project(row, keyIndexes)));
  }

  private int assignerOfHash(int hash) {
    return Math.abs(hash % assigners);
  }

  private boolean ownBucket(int bucket) {
    return bucket % assigners == assigner;
  }

  /**
   * Sends a row of this assigner's where Paimon's rule says, with any -D it implies for the key's
   * old partition.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   * @throws IllegalStateException if the row's key belongs to another assigner
   */
  public void write(RowKind kind, Object[] row, Target target) throws IOException {
    SerializedRow partitionRow = rows.partitionOf(row);
    Object[] keyValues = BucketAssigner.project(row, keyIndexes);
    int hash = keyCodec.hash(keyValues);
    if (assignerOfHash(hash) != assigner) {
      throw new IllegalStateException(
          "key " + Arrays.toString(keyValues) + " belongs to assigner " + assignerOfHash(hash));
    }
    GlobalKeyIndex keys = index();
    byte[] key = keyCodec.encodeRow(keyValues);
    int partition = partitionId(partitionRow);
    long known = keys.get(key, hash);
    if (known == GlobalKeyIndex.ABSENT) {
      writeNew(kind, row, key, hash, partition, target);
      return;
    }
    int oldPartition = GlobalKeyIndex.partition(known);
    int oldBucket = GlobalKeyIndex.bucket(known);
    if (oldPartition == partition) {
      target.put(kind, row, bucketOf(partition, oldBucket));
      return;
    }
    switch (engine) {
      case DEDUPLICATE -> {
        target.put(
            RowKind.DELETE, inPartition(row, oldPartition), bucketOf(oldPartition, oldBucket));
        count(oldPartition, oldBucket, -1);
        writeNew(kind, row, key, hash, partition, target);
      }
      case PARTIAL_UPDATE, AGGREGATION ->
          target.put(kind, inPartition(row, oldPartition), bucketOf(oldPartition, oldBucket));
      case FIRST_ROW -> {
        // The key keeps its first row, in its first partition: the new one is dropped.
      }
    }
  }

  private void writeNew(
      RowKind kind, Object[] row, byte[] key, int hash, int partition, Target target)
      throws IOException {
    int bucket = newBucket(partition);
    index.put(key, hash, partition, bucket);
    newPlacements.add(
        new Placement(new SerializedRow(key), hash, partitions.get(partition).row(), bucket));
    target.put(kind, row, bucketOf(partition, bucket));
  }

  /** The keys placed since the last call: new keys and keys moved to another partition. */
  public List<Placement> takeNewPlacements() {
    List<Placement> taken = List.copyOf(newPlacements);
    newPlacements.clear();
    return taken;
  }

  /**
   * Bootstraps the index now and gives it back the keys an earlier assigner of this number placed,
   * in the order it placed them: each overrides where the bootstrap finds its key. Iterates them
   * once, now.
   *
   * @throws IllegalStateException if rows were written already, or if the table holds a key in two
   *     places that no placement settles
   */
  public void restore(Iterable<Placement> placements) throws IOException {
    if (index != null) {
      throw new IllegalStateException("restore before the first row");
    }
    restored = placements;
    index();
  }

  private void applyRestored() throws IOException {
    for (Placement p : restored) {
      int partition = partitionId(p.partition());
      long known = index.get(p.key().bytes(), p.keyHash());
      if (known != GlobalKeyIndex.ABSENT) {
        count(GlobalKeyIndex.partition(known), GlobalKeyIndex.bucket(known), -1);
      }
      index.put(p.key().bytes(), p.keyHash(), partition, p.bucket());
      count(partition, p.bucket(), 1);
      doubled.remove(p.key());
    }
    restored = List.of();
    if (!doubled.isEmpty()) {
      throw new IllegalStateException(doubled.values().iterator().next());
    }
  }

  private void count(int partition, int bucket, long change) {
    if (ownBucket(bucket)) {
      bucketKeys.get(partition).merge(bucket, change, Long::sum);
    }
  }

  /** Paimon's cross-partition bucket choice: the lowest open bucket not full, else a new one. */
  private int newBucket(int partition) {
    TreeMap<Integer, Long> counts = bucketKeys.get(partition);
    for (Map.Entry<Integer, Long> e : counts.entrySet()) {
      if (ownBucket(e.getKey()) && e.getValue() < targetRowNum) {
        e.setValue(e.getValue() + 1);
        return e.getKey();
      }
    }
    for (int b = assigner; ; b += assigners) {
      if (!counts.containsKey(b)) {
        counts.put(b, 1L);
        return b;
      }
    }
  }

  private Object[] inPartition(Object[] row, int partition) {
    Object[] moved = row.clone();
    Object[] values = partitions.get(partition).values();
    for (int i = 0; i < partitionIndexes.length; i++) {
      moved[partitionIndexes[i]] = values[i];
    }
    return moved;
  }

  private RowBucket bucketOf(int partition, int bucket) {
    Partition p = partitions.get(partition);
    return new RowBucket(p.row(), p.path(), bucket);
  }

  private int partitionId(SerializedRow partition) {
    Integer id = partitionIds.get(partition);
    if (id == null) {
      id = partitions.size();
      Object[] values = partitionCodec.decode(partition.bytes());
      partitions.add(
          new Partition(
              partition,
              values,
              TablePath.partitionPath(
                  schema.partitionType(), values, schema.options().partitionDefaultName())));
      partitionIds.put(partition, id);
      bucketKeys.add(new TreeMap<>());
    }
    return id;
  }

  private GlobalKeyIndex index() throws IOException {
    if (index == null) {
      index = new GlobalKeyIndex(Files.createDirectories(folder));
      bootstrap();
      applyRestored();
    }
    return index;
  }

  /**
   * Reads every key of this assigner in the writer's base into the index, each bucket by one of the
   * threads.
   */
  private void bootstrap() throws IOException {
    Optional<Snapshot> latest = table.snapshots().latest();
    List<ManifestEntry> live =
        latest.isPresent() ? table.newScan().liveFiles(latest.get()) : List.of();
    List<ManifestEntry> base =
        new ArrayList<>(UncommittedMessages.applied(live, uncommitted).values());
    List<BucketSplit> splits = TableRead.byBucket(latest.map(Snapshot::id).orElse(0L), base);
    if (splits.isEmpty()) {
      return;
    }
    int threads =
        Math.min(splits.size(), schema.options().crossPartitionUpsertBootstrapParallelism());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (BucketSplit split : splits) {
        done.add(pool.submit(() -> bootstrap(split)));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading the keys of " + table.location(), e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException("reading the keys of " + table.location() + " failed", cause);
    } finally {
      pool.shutdownNow();
    }
  }

  /** One bucket's keys: read on a pool thread, added to the index under its lock. */
  private Void bootstrap(BucketSplit split) throws IOException {
    TableRead read = table.newRead();
    BinaryRowCodec codec = new BinaryRowCodec(keyCodec.rowType());
    List<byte[]> keys = new ArrayList<>();
    List<Integer> hashes = new ArrayList<>();
    try (TableRead.MergedRows merged = read.read(split)) {
      while (merged.hasNext()) {
        Object[] key = BucketAssigner.project(merged.next(), keyIndexes);
        int hash = codec.hash(key);
        if (assignerOfHash(hash) == assigner) {
          keys.add(codec.encodeRow(key));
          hashes.add(hash);
        }
        if (keys.size() == 4096 || (!merged.hasNext() && !keys.isEmpty())) {
          add(split, keys, hashes);
          keys.clear();
          hashes.clear();
        }
      }
    }
    return null;
  }

  private synchronized void add(BucketSplit split, List<byte[]> keys, List<Integer> hashes)
      throws IOException {
    int partition = partitionId(split.partition());
    for (int i = 0; i < keys.size(); i++) {
      byte[] key = keys.get(i);
      long known = index.get(key, hashes.get(i));
      if (known != GlobalKeyIndex.ABSENT) {
        // Refused after the restored placements, unless one of them says where the key is.
        doubled.putIfAbsent(
            new SerializedRow(key),
            "table "
                + table.location()
                + " holds primary key "
                + Arrays.toString(keyCodec.decodeRow(key, 0))
                + " twice: in "
                + describe(GlobalKeyIndex.partition(known), GlobalKeyIndex.bucket(known))
                + " and in "
                + describe(partition, split.bucket())
                + ". A cross-partition upsert table takes one writer at a time (Paimon refuses it"
                + " alike): two wrote it at once");
        continue;
      }
      index.put(key, hashes.get(i), partition, split.bucket());
      count(partition, split.bucket(), 1);
    }
  }

  private String describe(int partition, int bucket) {
    return partitions.get(partition).path() + "bucket-" + bucket;
  }

  /** Removes the index from local disk. */
  @Override
  public void close() throws IOException {
    if (index != null) {
      index.close();
      index = null;
    }
    Files.deleteIfExists(folder);
  }
}
