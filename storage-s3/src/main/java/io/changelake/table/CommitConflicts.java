package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableSchema;
import io.changelake.types.RowComparator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checks of a commit against the live files of the latest snapshot. A failure is a {@link
 * CommitConflictException#conflict conflict}: retrying the same commit cannot fix it.
 *
 * <ul>
 *   <li>every file the commit removes is still live (another compaction did not remove it);
 *   <li>a file the commit adds at level 1 or above does not overlap, in key range, a live file at
 *       that level of the same bucket (two writers on one bucket would do that);
 *   <li>the bucket count of a partition is the one its live files were written with.
 * </ul>
 */
final class CommitConflicts {

  private final String commitUser;
  private final BinaryRowCodec keyCodec;
  private final RowComparator keyOrder;

  CommitConflicts(TableSchema schema, String commitUser) {
    this.commitUser = commitUser;
    this.keyCodec = new BinaryRowCodec(schema.keyType());
    this.keyOrder = new RowComparator(schema.keyType());
  }

  /**
   * Checks the entries {@code files} of a commit against {@code live}, the files live in {@code
   * latest}.
   *
   * @throws CommitConflictException naming the file or partition in conflict and the fix
   */
  void check(
      Map<ManifestEntry.Identifier, ManifestEntry> live,
      List<ManifestEntry> files,
      Optional<Snapshot> latest)
      throws CommitConflictException {
    String at = latest.map(s -> "snapshot " + s.id()).orElse("the empty table");
    Map<ManifestEntry.Identifier, ManifestEntry> deleted = new HashMap<>();
    for (ManifestEntry e : files) {
      if (e.kind() == FileKind.DELETE) {
        if (!live.containsKey(e.identifier())) {
          throw CommitConflictException.conflict(
              "commit of "
                  + commitUser
                  + " replaces "
                  + e.file().fileName()
                  + " (bucket "
                  + e.bucket()
                  + ", level "
                  + e.file().level()
                  + "), which is no longer live in "
                  + at
                  + ": another writer compacted the same bucket; restart this writer from the"
                  + " latest snapshot, and let only one pipeline write a bucket");
        }
        deleted.put(e.identifier(), e);
      }
    }
    Map<BucketLevel, List<ManifestEntry>> upperLevels = null;
    Map<SerializedRow, Integer> bucketsByPartition = new HashMap<>();
    for (ManifestEntry e : live.values()) {
      bucketsByPartition.putIfAbsent(e.partition(), e.totalBuckets());
    }
    for (ManifestEntry e : files) {
      if (e.kind() != FileKind.ADD) {
        continue;
      }
      Integer buckets = bucketsByPartition.get(e.partition());
      if (buckets != null && buckets != e.totalBuckets()) {
        throw CommitConflictException.conflict(
            "commit of "
                + commitUser
                + " writes a partition with "
                + e.totalBuckets()
                + " buckets, but its live files in "
                + at
                + " have "
                + buckets
                + ": the bucket count of existing data cannot change");
      }
      if (e.file().level() == 0) {
        continue;
      }
      if (upperLevels == null) {
        upperLevels = indexUpperLevels(live, deleted);
      }
      for (ManifestEntry other :
          upperLevels.getOrDefault(
              new BucketLevel(e.partition(), e.bucket(), e.file().level()), List.of())) {
        if (overlaps(e.file(), other.file())) {
          throw CommitConflictException.conflict(
              "commit of "
                  + commitUser
                  + " adds "
                  + e.file().fileName()
                  + " at level "
                  + e.file().level()
                  + " of bucket "
                  + e.bucket()
                  + ", overlapping the keys of "
                  + other.file().fileName()
                  + " live in "
                  + at
                  + ": two writers are writing the same bucket; let only one pipeline write it");
        }
      }
    }
  }

  private record BucketLevel(SerializedRow partition, int bucket, int level) {}

  /** The live files above level 0 that the commit keeps, by bucket and level. */
  private static Map<BucketLevel, List<ManifestEntry>> indexUpperLevels(
      Map<ManifestEntry.Identifier, ManifestEntry> live,
      Map<ManifestEntry.Identifier, ManifestEntry> deleted) {
    Map<BucketLevel, List<ManifestEntry>> index = new HashMap<>();
    for (ManifestEntry e : live.values()) {
      if (e.file().level() > 0 && !deleted.containsKey(e.identifier())) {
        index
            .computeIfAbsent(
                new BucketLevel(e.partition(), e.bucket(), e.file().level()),
                k -> new ArrayList<>())
            .add(e);
      }
    }
    return index;
  }

  private boolean overlaps(DataFileMeta a, DataFileMeta b) {
    Object[] aMin = keyCodec.decode(a.minKey().bytes());
    Object[] aMax = keyCodec.decode(a.maxKey().bytes());
    Object[] bMin = keyCodec.decode(b.minKey().bytes());
    Object[] bMax = keyCodec.decode(b.maxKey().bytes());
    return keyOrder.compare(aMin, bMax) <= 0 && keyOrder.compare(bMin, aMax) <= 0;
  }
}
