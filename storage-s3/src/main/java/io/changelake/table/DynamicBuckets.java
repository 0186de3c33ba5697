package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.HashIndexFile;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The buckets of a dynamic-bucket table ({@code bucket} = -1) as one writer assigns them: Paimon
 * 1.3.1's {@code HashBucketAssigner} and {@code DynamicBucketIndexMaintainer} in one, over the
 * table's hash index.
 *
 * <p>A partition's index is loaded on its first key, from the index files the writer's base
 * snapshot names (plus any a predecessor prepared but did not commit). Then, as Paimon assigns:
 *
 * <ol>
 *   <li>a key whose hash is in the index keeps its bucket, for ever;
 *   <li>a new key goes to the first bucket, in Paimon's order, holding fewer than {@code
 *       dynamic-bucket.target-row-num} keys (a full bucket is never considered again);
 *   <li>else it opens the lowest bucket number not yet used, while fewer than {@code
 *       dynamic-bucket.max-buckets} exist (unlimited: -1);
 *   <li>else it goes to a bucket picked at random.
 * </ol>
 *
 * <p>{@code dynamic-bucket.initial-buckets} = n splits the keys between n assigners, as a Flink job
 * with n assigner tasks does: a key goes to assigner {@code (|partitionHash % n| + |keyHash % n|) %
 * n}, and assigner a only opens buckets b with {@code b % n == a}. Keys are counted per bucket,
 * including keys of a removed row: Paimon's index never forgets a key.
 *
 * <p>Split as a Flink job splits it (and the Beam write), the same class plays either half:
 *
 * <ul>
 *   <li>one assigner ({@link #forAssigner}) loads and counts only its own keys and buckets, and
 *       lists the keys it gave a bucket ({@link #takeNewAssignments}), so that its caller can keep
 *       them until a commit holds them ({@link #restore} puts them back after a restart);
 *   <li>the writer of some buckets ({@link #record}) takes each key's bucket from the assigner,
 *       loads only those buckets' index files and adds the new keys to them, as Paimon's {@code
 *       DynamicBucketIndexMaintainer} does.
 * </ul>
 *
 * <p>{@link #writeChanged} writes, for every bucket that got new keys since the last call, a new
 * hash index file of all its keys (Paimon's form, {@link HashIndexFile}); the commit replaces the
 * bucket's previous file with it. Two writers at once are not detected: see {@link
 * CommitManifests}.
 *
 * <p>Memory: a {@link BucketOfHash} entry per key of every partition written (9 to 18 bytes a key),
 * held until the writer closes. Not thread-safe.
 */
final class DynamicBuckets {

  /** A (partition, bucket). */
  record Bucket(SerializedRow partition, int bucket) {}

  /** Every assigner: a writer that assigns all keys itself. */
  private static final int ALL_ASSIGNERS = -1;

  private final long targetRowNum;
  private final int maxBuckets;
  private final int assignerCount;
  private final int onlyAssigner;
  private final HashIndexFile files;
  private final LiveIndex liveIndex;
  private Map<SerializedRow, List<IndexManifestEntry>> indexOfPartition;
  private final Map<SerializedRow, PartitionIndex> partitions = new HashMap<>();
  private final int[] maxBucketId;
  private final Random random = new Random();
  private final String fileIdPrefix = UUID.randomUUID().toString();
  private int fileCounter;
  private final List<HashBucketAssigner.Assignment> newAssignments = new ArrayList<>();

  /** The index files of the snapshot a writer builds on, read when the first key comes. */
  @FunctionalInterface
  interface LiveIndex {
    List<IndexManifestEntry> read() throws IOException;
  }

  /**
   * @param options the table's options
   * @param liveIndex the index files of the snapshot the writer builds on
   * @param files the table's hash index files
   */
  DynamicBuckets(TableOptions options, LiveIndex liveIndex, HashIndexFile files) {
    this(options, liveIndex, files, ALL_ASSIGNERS);
  }

  /**
   * The buckets as assigner {@code assigner} of {@code dynamic-bucket.initial-buckets} sees them:
   * it loads only the keys that are its own and counts only the buckets it opens.
   */
  static DynamicBuckets forAssigner(
      TableOptions options, LiveIndex liveIndex, HashIndexFile files, int assigner) {
    if (assigner < 0 || assigner >= options.dynamicBucketInitialBuckets()) {
      throw new IllegalArgumentException(
          "assigner "
              + assigner
              + " is not from 0 to dynamic-bucket.initial-buckets - 1 = "
              + (options.dynamicBucketInitialBuckets() - 1));
    }
    return new DynamicBuckets(options, liveIndex, files, assigner);
  }

  private DynamicBuckets(
      TableOptions options, LiveIndex liveIndex, HashIndexFile files, int onlyAssigner) {
    this.onlyAssigner = onlyAssigner;
    this.targetRowNum = options.dynamicBucketTargetRowNum();
    this.maxBuckets = options.dynamicBucketMaxBuckets();
    this.assignerCount = options.dynamicBucketInitialBuckets();
    this.files = files;
    this.liveIndex = liveIndex;
    this.maxBucketId = new int[assignerCount];
  }

  /**
   * The bucket of a key.
   *
   * @param partition the row's partition
   * @param keyHash Paimon's BinaryRow hash of the primary key without the partition columns
   * @throws IllegalStateException if every bucket number is taken (unlimited max buckets and a
   *     target row number far too small)
   */
  int assign(SerializedRow partition, int keyHash) throws IOException {
    PartitionIndex index = loaded(partition);
    int known = index.bucketOfHash.get(keyHash);
    if (known >= 0) {
      return known;
    }
    int assigner = assignerOf(partition, keyHash);
    if (onlyAssigner != ALL_ASSIGNERS && assigner != onlyAssigner) {
      throw new IllegalStateException(
          "a key of assigner " + assigner + " reached assigner " + onlyAssigner);
    }
    int bucket = index.assigners.get(assigner).newKey(assigner);
    if (bucket > maxBucketId[assigner]) {
      maxBucketId[assigner] = bucket;
    }
    index.bucketOfHash.put(keyHash, bucket);
    index.changed.add(bucket);
    if (onlyAssigner != ALL_ASSIGNERS) {
      newAssignments.add(new HashBucketAssigner.Assignment(partition, keyHash, bucket));
    }
    return bucket;
  }

  /** Paimon's assigner of a key: {@code (|partitionHash % n| + |keyHash % n|) % n}. */
  int assignerOf(SerializedRow partition, int keyHash) {
    return (Math.abs(partition.binaryRowHash() % assignerCount) + Math.abs(keyHash % assignerCount))
        % assignerCount;
  }

  /** The keys {@link #assign} gave a bucket since the last call (an assigner's only). */
  List<HashBucketAssigner.Assignment> takeNewAssignments() {
    List<HashBucketAssigner.Assignment> taken = List.copyOf(newAssignments);
    newAssignments.clear();
    return taken;
  }

  /**
   * Puts back a key an earlier assigner gave a bucket that the table's index may not hold yet: the
   * key keeps that bucket, which counts it.
   */
  void restore(HashBucketAssigner.Assignment assignment) throws IOException {
    PartitionIndex index = loaded(assignment.partition());
    int bucket = assignment.bucket();
    if (index.bucketOfHash.get(assignment.keyHash()) >= 0) {
      return;
    }
    index.bucketOfHash.put(assignment.keyHash(), bucket);
    int assigner = bucket % assignerCount;
    index.assigners.get(assigner).restored(bucket);
    if (bucket > maxBucketId[assigner]) {
      maxBucketId[assigner] = bucket;
    }
  }

  /**
   * Records that a key went to {@code bucket}, as its assigner said: the writer's half. Loads that
   * bucket's index file on the bucket's first key.
   *
   * @throws IllegalStateException if the key already has another bucket
   */
  void record(SerializedRow partition, int keyHash, int bucket) throws IOException {
    PartitionIndex index = partitions.get(partition);
    if (index == null) {
      index = new PartitionIndex();
      index.loadedBuckets = new HashSet<>();
      partitions.put(partition, index);
    }
    if (index.loadedBuckets != null && index.loadedBuckets.add(bucket)) {
      for (IndexManifestEntry e : liveEntries(partition)) {
        if (e.bucket() == bucket) {
          for (int h : files.read(e.file())) {
            index.bucketOfHash.put(h, bucket);
          }
        }
      }
    }
    int known = index.bucketOfHash.get(keyHash);
    if (known == bucket) {
      return;
    }
    if (known >= 0) {
      throw new IllegalStateException(
          "a key with hash "
              + keyHash
              + " of bucket "
              + known
              + " was assigned bucket "
              + bucket
              + ": two assigners gave it a bucket");
    }
    index.bucketOfHash.put(keyHash, bucket);
    index.changed.add(bucket);
  }

  private PartitionIndex loaded(SerializedRow partition) throws IOException {
    PartitionIndex index = partitions.get(partition);
    if (index == null) {
      index = load(partition);
      partitions.put(partition, index);
    } else if (index.loadedBuckets != null) {
      throw new IllegalStateException("a writer given buckets cannot assign buckets itself");
    }
    return index;
  }

  /**
   * Writes a new hash index file for every bucket that got keys since the last call.
   *
   * @return each such bucket's new file
   */
  Map<Bucket, IndexFileMeta> writeChanged() throws IOException {
    Map<Bucket, IndexFileMeta> written = new LinkedHashMap<>();
    for (Map.Entry<SerializedRow, PartitionIndex> p : partitions.entrySet()) {
      PartitionIndex index = p.getValue();
      if (index.changed.isEmpty()) {
        continue;
      }
      Map<Integer, int[]> hashes = new HashMap<>();
      Map<Integer, Integer> sizes = new HashMap<>();
      index.bucketOfHash.forEach(
          (hash, bucket) -> {
            if (index.changed.contains(bucket)) {
              sizes.merge(bucket, 1, Integer::sum);
            }
          });
      sizes.forEach((bucket, size) -> hashes.put(bucket, new int[size]));
      Map<Integer, Integer> filled = new HashMap<>();
      index.bucketOfHash.forEach(
          (hash, bucket) -> {
            int[] into = hashes.get(bucket);
            if (into != null) {
              into[filled.merge(bucket, 1, Integer::sum) - 1] = hash;
            }
          });
      for (int bucket : index.changed) {
        String name = "index-" + fileIdPrefix + "-" + fileCounter++;
        written.put(new Bucket(p.getKey(), bucket), files.write(name, hashes.get(bucket)));
      }
      index.changed.clear();
    }
    return written;
  }

  private List<IndexManifestEntry> liveEntries(SerializedRow partition) throws IOException {
    if (indexOfPartition == null) {
      indexOfPartition = new HashMap<>();
      for (IndexManifestEntry e : liveIndex.read()) {
        if (e.kind() == FileKind.ADD && e.file().indexType().equals(IndexFileMeta.HASH)) {
          indexOfPartition.computeIfAbsent(e.partition(), p -> new ArrayList<>()).add(e);
        }
      }
    }
    return indexOfPartition.getOrDefault(partition, List.of());
  }

  private PartitionIndex load(SerializedRow partition) throws IOException {
    PartitionIndex index = new PartitionIndex();
    List<Map<Integer, Long>> counts = new ArrayList<>();
    for (int a = 0; a < assignerCount; a++) {
      counts.add(new HashMap<>());
    }
    // An assigner loads its own keys from every bucket (one written under another assigner count
    // may hold them) but counts only the buckets it opens, as Paimon's PartitionIndex does.
    for (IndexManifestEntry e : liveEntries(partition)) {
      int[] hashes = files.read(e.file());
      for (int h : hashes) {
        if (onlyAssigner == ALL_ASSIGNERS || assignerOf(partition, h) == onlyAssigner) {
          index.bucketOfHash.put(h, e.bucket());
        }
      }
      int owner = e.bucket() % assignerCount;
      if (hashes.length > 0 && (onlyAssigner == ALL_ASSIGNERS || owner == onlyAssigner)) {
        counts.get(owner).merge(e.bucket(), (long) hashes.length, Long::sum);
      }
    }
    for (Map<Integer, Long> c : counts) {
      index.assigners.add(new AssignerBuckets((HashMap<Integer, Long>) c));
    }
    return index;
  }

  /** The keys of one partition, and the buckets of each of its assigners. */
  private static final class PartitionIndex {
    final BucketOfHash bucketOfHash = new BucketOfHash();
    final List<AssignerBuckets> assigners = new ArrayList<>();
    final Set<Integer> changed = new TreeSet<>();

    /** A writer's: the buckets whose index file is loaded; null when all are (an assigner's). */
    Set<Integer> loadedBuckets;
  }

  /**
   * One assigner's buckets in a partition. The not-full buckets are a {@link HashMap}, as in
   * Paimon, because its iteration order decides which bucket a new key fills.
   */
  @SuppressWarnings("NonApiType") // the HashMap's iteration order is the behaviour copied
  private final class AssignerBuckets {
    final HashMap<Integer, Long> notFull;
    final Set<Integer> all;
    final List<Integer> allInOrder;

    /** Takes {@code counts}, filled as Paimon fills it (so its table grew the same way). */
    AssignerBuckets(HashMap<Integer, Long> counts) {
      this.notFull = counts;
      this.all = new LinkedHashSet<>(notFull.keySet());
      this.allInOrder = new ArrayList<>(all);
    }

    /** Counts a restored key of {@code bucket}, opening the bucket if it is new. */
    void restored(int bucket) {
      if (all.add(bucket)) {
        allInOrder.add(bucket);
        notFull.put(bucket, 1L);
      } else {
        notFull.computeIfPresent(bucket, (b, count) -> count + 1);
      }
    }

    int newKey(int assigner) {
      var it = notFull.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<Integer, Long> e = it.next();
        if (e.getValue() < targetRowNum) {
          e.setValue(e.getValue() + 1);
          return e.getKey();
        }
        it.remove();
      }
      int highest = (maxBuckets == -1 ? Short.MAX_VALUE : maxBuckets) - 1;
      if (all.isEmpty() || maxBucketId[assigner] < highest) {
        for (int b = 0; b <= highest; b++) {
          if (b % assignerCount == assigner && !all.contains(b)) {
            notFull.put(b, 1L);
            all.add(b);
            allInOrder.add(b);
            return b;
          }
        }
        if (maxBuckets == -1) {
          throw new IllegalStateException(
              "every bucket number up to "
                  + highest
                  + " is taken: raise 'dynamic-bucket.target-row-num' (now "
                  + targetRowNum
                  + ")");
        }
      }
      return allInOrder.get(random.nextInt(allInOrder.size()));
    }
  }
}
