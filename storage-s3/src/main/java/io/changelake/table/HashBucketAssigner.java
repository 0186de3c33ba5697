package io.changelake.table;

import io.changelake.format.FileKind;
import io.changelake.format.HashIndexFile;
import io.changelake.format.IndexFileMeta;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.UnsupportedTableException;
import io.changelake.table.BucketAssigner.RowBucket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One bucket assigner of a dynamic-bucket table ({@code bucket} = -1), for a writer that assigns
 * buckets in one place and writes them in others, as Paimon's Flink sink and the Beam write do:
 * Paimon 1.3.1's {@code HashBucketAssigner}.
 *
 * <p>A table has {@code dynamic-bucket.initial-buckets} = n assigners; a row belongs to assigner
 * {@link #assignerOf} = {@code (|partitionHash % n| + |keyHash % n|) % n}, and only that assigner
 * may give its key a bucket. Assigner a loads, from the latest snapshot's hash index, the keys of
 * its own (a key keeps its bucket for ever) and fills and opens only the buckets {@code b % n ==
 * a}, as {@link DynamicBuckets} describes. The writers of the buckets then take each row with its
 * bucket ({@link TableWriter#write(io.changelake.types.RowKind, Object[], int)}) and add its key to
 * the bucket's hash index file, which the commit carries.
 *
 * <p>A key given a bucket is in no committed index until a commit holds a row of it. An assigner
 * that restarts in between would not know it and could give it another bucket, so its caller keeps
 * every new {@link Assignment} ({@link #takeNewAssignments}) until {@link #uncommitted} says a
 * commit holds it, and gives a restarted assigner those kept ({@link #restore}).
 *
 * <p>Memory: 9 to 18 bytes a key of its own in every partition it has seen. Not thread-safe.
 */
public final class HashBucketAssigner {

  /**
   * A key's bucket as an assigner gave it.
   *
   * @param partition the key's partition, serialized
   * @param keyHash Paimon's hash of the bucket key
   * @param bucket the bucket
   */
  public record Assignment(SerializedRow partition, int keyHash, int bucket) {}

  private final Table table;
  private final DynamicBuckets buckets;
  private final BucketAssigner rows;

  HashBucketAssigner(Table table, int assigner) {
    table.requireSupported("written");
    if (!table.options().dynamicBucket()) {
      throw new UnsupportedTableException(
          "table "
              + table.location()
              + " has 'bucket' = "
              + table.options().bucket()
              + ": a fixed bucket count has no hash index to assign from; use BucketAssigner",
          null);
    }
    if (table.schema().crossPartitionUpsert()) {
      throw new UnsupportedTableException(
          "table "
              + table.location()
              + " is a cross-partition upsert table (its primary key "
              + table.schema().primaryKeys()
              + " lacks a partition column of "
              + table.schema().partitionKeys()
              + "): its buckets come from a key index of the whole table, not a hash index per"
              + " partition; write it with a TableWriter",
          null);
    }
    this.table = table;
    this.buckets =
        DynamicBuckets.forAssigner(
            table.options(),
            () -> TableWriter.liveIndexFiles(table, List.of()),
            new HashIndexFile(table.store(), table.path().indexFolder()),
            assigner);
    this.rows = new BucketAssigner(table.schema(), table.location(), buckets);
  }

  /** The table's assigner count, n ({@code dynamic-bucket.initial-buckets}). */
  public int assigners() {
    return table.options().dynamicBucketInitialBuckets();
  }

  /**
   * The assigner a row belongs to; any assigner of the table answers alike, without reading.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   */
  public int assignerOf(Object[] row) {
    return buckets.assignerOf(rows.partitionOf(row), rows.keyHash(row));
  }

  /**
   * The partition and bucket of a row of this assigner: its key's bucket if it has one, else a new
   * one, listed by the next {@link #takeNewAssignments}.
   *
   * @throws IllegalArgumentException naming the column if the row does not fit the table
   * @throws IllegalStateException if the row belongs to another assigner, or every bucket number is
   *     taken
   */
  public RowBucket assign(Object[] row) throws IOException {
    return rows.assign(row);
  }

  /** The keys given a bucket since the last call, which no commit may hold yet. */
  public List<Assignment> takeNewAssignments() {
    return buckets.takeNewAssignments();
  }

  /** Gives back keys an earlier assigner of this number gave a bucket, not yet committed. */
  public void restore(Iterable<Assignment> assignments) throws IOException {
    for (Assignment a : assignments) {
      buckets.restore(a);
    }
  }

  /**
   * Those of {@code assignments} whose key the latest snapshot's hash index does not hold in its
   * bucket: the ones still to keep. Reads only the index files of their buckets.
   */
  public List<Assignment> uncommitted(List<Assignment> assignments) throws IOException {
    Map<DynamicBuckets.Bucket, IndexFileMeta> files = new HashMap<>();
    for (IndexManifestEntry e : TableWriter.liveIndexFiles(table, List.of())) {
      if (e.kind() == FileKind.ADD && e.file().indexType().equals(IndexFileMeta.HASH)) {
        files.put(new DynamicBuckets.Bucket(e.partition(), e.bucket()), e.file());
      }
    }
    HashIndexFile index = new HashIndexFile(table.store(), table.path().indexFolder());
    Map<DynamicBuckets.Bucket, int[]> sortedHashes = new HashMap<>();
    List<Assignment> kept = new ArrayList<>();
    for (Assignment a : assignments) {
      DynamicBuckets.Bucket bucket = new DynamicBuckets.Bucket(a.partition(), a.bucket());
      IndexFileMeta file = files.get(bucket);
      int[] hashes = file == null ? new int[0] : sortedHashes.get(bucket);
      if (hashes == null) {
        hashes = index.read(file);
        Arrays.sort(hashes);
        sortedHashes.put(bucket, hashes);
      }
      if (Arrays.binarySearch(hashes, a.keyHash()) < 0) {
        kept.add(a);
      }
    }
    return kept;
  }
}
