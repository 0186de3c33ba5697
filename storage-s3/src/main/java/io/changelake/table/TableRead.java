package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketFiles;
import io.changelake.mergetree.KeyMerge;
import io.changelake.mergetree.KeyVersions;
import io.changelake.mergetree.SortMergeReader;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * Reads a table's rows as of a snapshot: each bucket's files merged by key and version, the
 * versions of each key combined by the table's merge engine (a lone version kept as stored), and
 * keys whose result is a retraction left out.
 *
 * <p>{@link #splits} gives one {@link BucketSplit} per bucket so a caller can read buckets in
 * parallel; {@link #readAll} reads them all here.
 */
public final class TableRead {

  private final Table table;
  private final RowComparator keyOrder;
  private final Comparator<KeyValue> versionOrder;

  TableRead(Table table) {
    table.requireSupported("read");
    this.table = table;
    this.keyOrder = new RowComparator(table.schema().keyType());
    Comparator<KeyValue> sequenceOrder = MergeFunctions.sequenceOrder(table.schema());
    this.versionOrder =
        sequenceOrder != null ? sequenceOrder : Comparator.comparingLong(KeyValue::sequenceNumber);
  }

  /**
   * One split per (partition, bucket) with live files in the snapshot. A first-row table's level-0
   * files are left out, as Paimon's batch scan leaves them out: its writer lifts them above level 0
   * at every commit, and until then they hold nothing a reader should see.
   */
  public List<BucketSplit> splits(Snapshot snapshot) throws IOException {
    return splits(
        snapshot,
        table.options().mergeEngine() == MergeEngine.FIRST_ROW
            ? level -> level > 0
            : level -> true);
  }

  /** One split per (partition, bucket) with live files at the levels {@code levels} accepts. */
  List<BucketSplit> splits(Snapshot snapshot, IntPredicate levels) throws IOException {
    List<ManifestEntry> live = new ArrayList<>();
    for (ManifestEntry e : table.newScan().liveFiles(snapshot)) {
      if (levels.test(e.file().level())) {
        live.add(e);
      }
    }
    return byBucket(snapshot.id(), live);
  }

  /** The files of entries grouped per (partition, bucket), buckets in order of first appearance. */
  static List<BucketSplit> byBucket(long snapshotId, List<ManifestEntry> entries) {
    Map<List<Object>, List<DataFileMeta>> files = new LinkedHashMap<>();
    Map<List<Object>, ManifestEntry> firsts = new LinkedHashMap<>();
    for (ManifestEntry e : entries) {
      List<Object> id = List.of(e.partition(), e.bucket());
      files.computeIfAbsent(id, k -> new ArrayList<>()).add(e.file());
      firsts.putIfAbsent(id, e);
    }
    List<BucketSplit> splits = new ArrayList<>();
    for (Map.Entry<List<Object>, List<DataFileMeta>> e : files.entrySet()) {
      ManifestEntry first = firsts.get(e.getKey());
      splits.add(new BucketSplit(snapshotId, first.partition(), first.bucket(), e.getValue()));
    }
    return splits;
  }

  /**
   * The rows of one split, in key order: the newest version of each key, unless it retracts. Every
   * file of the split is open until the returned reader is closed or exhausted.
   */
  public MergedRows read(BucketSplit split) throws IOException {
    List<KeyValueFileReader> readers = open(split.partition(), split.bucket(), split.files());
    int[] levels = split.files().stream().mapToInt(DataFileMeta::level).toArray();
    KeyMerge keyMerge =
        new KeyMerge(
            MergeFunctions.create(table.schema()),
            versionOrder,
            table.options().changelogProducer() == ChangelogProducer.LOOKUP);
    return new MergedRows(
        readers,
        new SortMergeReader(readers, keyOrder, versionOrder),
        levels,
        new KeyVersions(keyOrder),
        keyMerge,
        readsAsInserts(split.files()));
  }

  /**
   * Whether Paimon's batch reader would read these files raw, without merging, and so return every
   * row as +I: files above level 0 without retractions, all at one level (or any levels under
   * first-row), or a lone file without retractions. Otherwise it merges, and rows keep their stored
   * kind (+I or +U). The rows are the same either way; only the kind differs, and changelake
   * reports it as Paimon does.
   */
  private boolean readsAsInserts(List<DataFileMeta> files) {
    boolean upperWithoutRetractions =
        files.stream().allMatch(f -> f.level() != 0 && withoutRetractions(f));
    boolean oneLevel = files.stream().mapToInt(DataFileMeta::level).distinct().count() == 1;
    return (upperWithoutRetractions
            && (oneLevel || table.options().mergeEngine() == MergeEngine.FIRST_ROW))
        || (files.size() == 1 && withoutRetractions(files.get(0)));
  }

  private static boolean withoutRetractions(DataFileMeta file) {
    return file.deleteRowCount() == null || file.deleteRowCount() == 0;
  }

  /** Opens files of one bucket, all or none: a failure closes those already open. */
  List<KeyValueFileReader> open(SerializedRow partition, int bucket, List<DataFileMeta> files)
      throws IOException {
    BucketFiles bucketFiles =
        new BucketFiles(
            table.store(),
            table.path().bucketFolder(table.partitionPath(partition), bucket),
            table.fileSchemas());
    List<KeyValueFileReader> readers = new ArrayList<>();
    try {
      for (DataFileMeta f : files) {
        readers.add(bucketFiles.open(f));
      }
    } catch (IOException | RuntimeException e) {
      for (KeyValueFileReader r : readers) {
        r.close();
      }
      throw e;
    }
    return readers;
  }

  /** The key order of the table, in which every bucket's files are sorted. */
  RowComparator keyOrder() {
    return keyOrder;
  }

  /** The order of the versions of one key: sequence number, or {@code sequence.field}. */
  Comparator<KeyValue> versionOrder() {
    return versionOrder;
  }

  /** Every row of the latest snapshot (empty for a table without snapshots). */
  public List<Object[]> readAll() throws IOException {
    Optional<Snapshot> latest = table.snapshots().latest();
    return latest.isPresent() ? readAll(latest.get()) : List.of();
  }

  /** Every row as of the snapshot, bucket by bucket, each bucket in key order. */
  public List<Object[]> readAll(Snapshot snapshot) throws IOException {
    List<Object[]> rows = new ArrayList<>();
    for (BucketSplit split : splits(snapshot)) {
      try (MergedRows merged = read(split)) {
        merged.forEachRemaining(rows::add);
      }
    }
    return rows;
  }

  /** The merged rows of one split; close it to release its files. */
  public static final class MergedRows implements Iterator<Object[]>, AutoCloseable {
    private final List<KeyValueFileReader> readers;
    private final SortMergeReader merged;
    private final int[] levels;
    private final KeyVersions versions;
    private final KeyMerge keyMerge;
    private final boolean asInserts;
    private KeyValue next;

    MergedRows(
        List<KeyValueFileReader> readers,
        SortMergeReader merged,
        int[] levels,
        KeyVersions versions,
        KeyMerge keyMerge,
        boolean asInserts) {
      this.readers = readers;
      this.merged = merged;
      this.levels = levels;
      this.versions = versions;
      this.keyMerge = keyMerge;
      this.asInserts = asInserts;
    }

    @Override
    public boolean hasNext() {
      while (next == null && versions.fill(merged, levels)) {
        KeyValue result = keyMerge.reduce(versions);
        if (result != null && result.kind().isAdd()) {
          next =
              asInserts && result.kind() != RowKind.INSERT
                  ? new KeyValue(
                      result.key(), result.sequenceNumber(), RowKind.INSERT, result.value())
                  : result;
        }
      }
      return next != null;
    }

    @Override
    public Object[] next() {
      return nextKeyValue().value();
    }

    /** The next row as a record: key, newest sequence number, an add kind (+I or +U). */
    public KeyValue nextKeyValue() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      KeyValue newest = next;
      next = null;
      return newest;
    }

    @Override
    public void close() {
      closeAll(readers);
    }
  }

  /** Closes every reader, failing with the first error after trying them all. */
  static void closeAll(List<KeyValueFileReader> readers) {
    IOException first = null;
    for (KeyValueFileReader r : readers) {
      try {
        r.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw new UncheckedIOException(first);
    }
  }
}
