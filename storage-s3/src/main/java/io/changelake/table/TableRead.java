package io.changelake.table;

import io.changelake.format.BatchedRows;
import io.changelake.format.BinaryRowCodec;
import io.changelake.format.DataFileMeta;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.mergetree.BucketFiles;
import io.changelake.mergetree.FileByFile;
import io.changelake.mergetree.KeyMerge;
import io.changelake.mergetree.KeyVersions;
import io.changelake.mergetree.NewestVersionMerge;
import io.changelake.mergetree.RunCursor;
import io.changelake.mergetree.RunKeys;
import io.changelake.mergetree.SortedRun;
import io.changelake.mergetree.lookup.DataFileOpener;
import io.changelake.mergetree.merge.MergeFunctions;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.MergeEngine;
import io.changelake.table.ChangelogScan.ChangeSink;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import io.changelake.types.RowKind;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

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
  private final BinaryRowCodec keyCodec;
  private final Comparator<ChangeRow> versionOrder;

  /**
   * Whether the newest version of a key, by sequence number, is its row (deduplicate without {@code
   * sequence.field}): such a split is merged by {@link NewestVersionMerge}, which reads the values
   * of those versions alone.
   */
  private final boolean newestVersionWins;

  TableRead(Table table) {
    table.requireSupported("read");
    this.table = table;
    this.keyOrder = new RowComparator(table.schema().keyType());
    this.keyCodec = new BinaryRowCodec(table.schema().keyType());
    Comparator<ChangeRow> sequenceOrder = MergeFunctions.sequenceOrder(table.schema());
    this.versionOrder =
        sequenceOrder != null ? sequenceOrder : Comparator.comparingLong(ChangeRow::sequenceNumber);
    this.newestVersionWins =
        table.options().mergeEngine() == MergeEngine.DEDUPLICATE && sequenceOrder == null;
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
   * The rows of one split, in key order: the newest version of each key, unless it retracts.
   *
   * <p>A split that is one sorted run without retractions (its files all at one level above 0, or a
   * lone file) holds each key once, as it is to be read: it is read raw, file after file, without
   * the merge, as Paimon reads it (see {@link #readsRaw}).
   *
   * <p>Either way, a file is opened when the read reaches it and closed when it is exhausted: a
   * merge holds one file open per sorted run, a raw read one file, however many files the bucket
   * holds.
   */
  public MergedRows read(BucketSplit split) throws IOException {
    return read(split, null);
  }

  /**
   * {@link #read(BucketSplit)}, each row holding the table columns at {@code columns} alone, in
   * that order, or every column if it is null. A raw read, and the merge of a table whose newest
   * version wins, fetch and decode those columns alone (and the key); the merge of any other engine
   * takes whole rows, which it needs, and cuts the merged rows down.
   *
   * @throws IllegalArgumentException if a position is outside the table's columns or repeated
   */
  public MergedRows read(BucketSplit split, int[] columns) throws IOException {
    if (columns != null) {
      checkedColumns(table, columns);
    }
    if (readsRaw(split.files())) {
      BucketFiles bucketFiles = bucketFiles(split.partition(), split.bucket());
      return MergedRows.raw(inKeyOrder(split.files()), f -> bucketFiles.open(f, columns));
    }
    return merged(split, columns);
  }

  /**
   * The rows of one split through the merge, whatever its files: the reference of the raw read. A
   * table whose newest version wins merges by {@link NewestVersionMerge}, any other through the
   * merge engine, key by key.
   */
  MergedRows merged(BucketSplit split) {
    return merged(split, null);
  }

  private MergedRows merged(BucketSplit split, int[] columns) {
    BucketFiles bucketFiles = bucketFiles(split.partition(), split.bucket());
    List<SortedRun> runs = sortedRuns(split.files());
    boolean asInserts = rawConvertible(split.files()) && retractionsCounted(split.files());
    if (newestVersionWins) {
      // The winning version's values are taken as they are: only the columns read are read.
      List<RunCursor> cursors = new ArrayList<>();
      for (SortedRun run : runs) {
        cursors.add(new RunCursor(run.files(), f -> bucketFiles.open(f, columns)));
      }
      return MergedRows.merged(
          cursors,
          () -> new NewestVersionMerge(cursors, keyOrder, table.options().ignoreDelete()),
          asInserts,
          null);
    }
    List<RunCursor> cursors = new ArrayList<>();
    int[] levels = new int[runs.size()];
    for (int i = 0; i < runs.size(); i++) {
      cursors.add(new RunCursor(runs.get(i).files(), bucketFiles::open));
      levels[i] = runs.get(i).level();
    }
    KeyMerge keyMerge =
        new KeyMerge(
            MergeFunctions.create(table.schema()),
            versionOrder,
            table.options().changelogProducer() == ChangelogProducer.LOOKUP);
    return MergedRows.merged(
        cursors,
        () ->
            new ReducedKeys(
                new RunKeys(cursors, levels, keyOrder, versionOrder), new KeyVersions(), keyMerge),
        asInserts,
        columns);
  }

  /**
   * A split's files as sorted runs: each level-0 file alone, in the split's order, then the files
   * of each level above 0 in key order, one run per level, as a merge tree keeps them (disjoint key
   * ranges). A level whose files overlap, which no merge tree writes, is read as level 0 is, each
   * file its own run, so that the merge stays right whatever the files.
   */
  List<SortedRun> sortedRuns(List<DataFileMeta> files) {
    List<SortedRun> runs = new ArrayList<>();
    Map<Integer, List<DataFileMeta>> upper = new TreeMap<>();
    for (DataFileMeta f : files) {
      if (f.level() == 0) {
        runs.add(SortedRun.of(0, List.of(f)));
      } else {
        upper.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
      }
    }
    for (Map.Entry<Integer, List<DataFileMeta>> level : upper.entrySet()) {
      List<DataFileMeta> inKeyOrder = inKeyOrder(level.getValue());
      if (disjoint(inKeyOrder)) {
        runs.add(SortedRun.of(level.getKey(), inKeyOrder));
      } else {
        for (DataFileMeta f : inKeyOrder) {
          runs.add(SortedRun.of(level.getKey(), List.of(f)));
        }
      }
    }
    return runs;
  }

  /**
   * Files in the order given, grouped into runs of consecutive files that each end before the next
   * one starts: reading a run's files one after another is reading them merged by key, and no key
   * moves past another file's records of it. The compacted changelog files of one commit, written
   * in key order, come as one run.
   */
  List<List<DataFileMeta>> consecutiveRuns(List<DataFileMeta> files) {
    List<List<DataFileMeta>> runs = new ArrayList<>();
    List<DataFileMeta> run = new ArrayList<>();
    for (DataFileMeta f : files) {
      if (!run.isEmpty() && !endsBefore(run.get(run.size() - 1), f)) {
        runs.add(run);
        run = new ArrayList<>();
      }
      run.add(f);
    }
    if (!run.isEmpty()) {
      runs.add(run);
    }
    return runs;
  }

  /** Files ordered by their smallest key. */
  private List<DataFileMeta> inKeyOrder(List<DataFileMeta> files) {
    List<DataFileMeta> sorted = new ArrayList<>(files);
    sorted.sort(Comparator.comparing(f -> keyCodec.decode(f.minKey().bytes()), keyOrder));
    return sorted;
  }

  /** Whether files in key order each end before the next one starts. */
  private boolean disjoint(List<DataFileMeta> inKeyOrder) {
    for (int i = 1; i < inKeyOrder.size(); i++) {
      if (!endsBefore(inKeyOrder.get(i - 1), inKeyOrder.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code file}'s largest key comes before {@code next}'s smallest. */
  private boolean endsBefore(DataFileMeta file, DataFileMeta next) {
    Object[] max = keyCodec.decode(file.maxKey().bytes());
    return keyOrder.compare(max, keyCodec.decode(next.minKey().bytes())) < 0;
  }

  /**
   * Whether Paimon's batch scan marks these files raw-convertible (its {@code
   * MergeTreeSplitGenerator}): files above level 0 without retractions, all at one level (or any
   * levels under first-row), or a lone file without retractions. Paimon then reads them raw and
   * returns every row as +I, if every file counts its retractions; otherwise it merges, and rows
   * keep their stored kind (+I or +U). The rows are the same either way; only the kind differs, and
   * changelake reports it as Paimon does. A file without a delete-row count (written before Paimon
   * counted them) counts as without retractions here.
   */
  private boolean rawConvertible(List<DataFileMeta> files) {
    boolean upperWithoutRetractions =
        files.stream().allMatch(f -> f.level() != 0 && withoutRetractions(f));
    return (upperWithoutRetractions
            && (oneLevel(files) || table.options().mergeEngine() == MergeEngine.FIRST_ROW))
        || (files.size() == 1 && withoutRetractions(files.get(0)));
  }

  /**
   * Whether a split is read raw, without the merge: raw-convertible, every file counting its
   * retractions (Paimon merges a file that does not, its {@code
   * PrimaryKeyTableRawFileSplitReadProvider}), and one sorted run, so that reading the files in key
   * order is reading the keys in order. Files of a first-row table at several levels, which Paimon
   * also reads raw, one after the other, go through the merge to keep the key order; they hold each
   * key once, so the rows are the same.
   */
  boolean readsRaw(List<DataFileMeta> files) {
    boolean oneRun =
        files.size() == 1 || (!files.isEmpty() && files.get(0).level() != 0 && oneLevel(files));
    return oneRun && rawConvertible(files) && retractionsCounted(files);
  }

  /**
   * Whether every file counts its retractions. Paimon reads raw-convertible files raw only then,
   * and merges them otherwise, rows keeping their stored kind.
   */
  private static boolean retractionsCounted(List<DataFileMeta> files) {
    return files.stream().allMatch(f -> f.deleteRowCount() != null);
  }

  private static boolean oneLevel(List<DataFileMeta> files) {
    return files.stream().mapToInt(DataFileMeta::level).distinct().count() == 1;
  }

  private static boolean withoutRetractions(DataFileMeta file) {
    return file.deleteRowCount() == null || file.deleteRowCount() == 0;
  }

  /**
   * A copy of {@code positions}, checked to be distinct positions of {@code table}'s columns.
   *
   * @throws IllegalArgumentException naming the position that is outside them or repeated
   */
  static int[] checkedColumns(Table table, int[] positions) {
    int size = table.schema().rowType().size();
    boolean[] seen = new boolean[size];
    for (int position : positions) {
      if (position < 0 || position >= size || seen[position]) {
        throw new IllegalArgumentException(
            "column position "
                + position
                + " is outside the "
                + size
                + " columns of "
                + table.location()
                + " or given twice: give each position from 0 to "
                + (size - 1)
                + " at most once");
      }
      seen[position] = true;
    }
    return positions.clone();
  }

  /** The files of one bucket, to open. */
  BucketFiles bucketFiles(SerializedRow partition, int bucket) {
    return new BucketFiles(
        table.store(),
        table.path().bucketFolder(table.partitionPath(partition), bucket),
        table.fileSchemas());
  }

  /** The key order of the table, in which every bucket's files are sorted. */
  RowComparator keyOrder() {
    return keyOrder;
  }

  /** The order of the versions of one key: sequence number, or {@code sequence.field}. */
  Comparator<ChangeRow> versionOrder() {
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

  /**
   * The rows of one split, merged or read raw; close it to release its files.
   *
   * <p>A raw read builds no record per row for {@link #next}: it reads the rows' table columns in
   * bulk, a batch of rows at a time. Rows a batch holds have no key-value to give, so once {@link
   * #next} has been called, {@link #nextKeyValue} and {@link #insertsTo} fail until the batch is
   * used up: take the rows of one read by one of them. {@link #insertsTo} builds nothing per row of
   * a raw read.
   *
   * <p>{@link #hasNext} opens a file when the read reaches it, so it may fail with the store
   * ({@link UncheckedIOException}).
   */
  public static final class MergedRows implements Iterator<Object[]>, AutoCloseable {

    /**
     * What the rows are read from, each holding one file open at most: the sorted runs merged, or a
     * raw read's files.
     */
    private final List<? extends Closeable> runs;

    /** Each key's merged version, or null when none remains of it; null for a raw read. */
    private final Iterator<KeyValue> merged;

    private final boolean asInserts;

    /** The columns a merged row is cut down to, in order; null to keep it whole. */
    private final int[] cut;

    private KeyValue next;

    /** A raw read's files in key order, each opened when reached; null for a merged read. */
    private final FileByFile<KeyValueFileReader> rawFiles;

    /** In a raw read taken by {@link #next}, the values of the file being read, in bulk. */
    private BatchedRows<Object[]> rawValues;

    private MergedRows(
        List<? extends Closeable> runs,
        Iterator<KeyValue> merged,
        boolean asInserts,
        int[] cut,
        FileByFile<KeyValueFileReader> rawFiles) {
      this.runs = runs;
      this.merged = merged;
      this.asInserts = asInserts;
      this.cut = cut;
      this.rawFiles = rawFiles;
    }

    /**
     * The rows {@code merge} gives from {@code runs}, each cut down to the columns {@code cut}
     * (whole if it is null). Building the merge reads each run's first version: if it fails, the
     * runs are closed.
     */
    static MergedRows merged(
        List<? extends Closeable> runs,
        Supplier<Iterator<KeyValue>> merge,
        boolean asInserts,
        int[] cut) {
      return new MergedRows(runs, built(runs, merge), asInserts, cut, null);
    }

    /** The rows of files that together hold each key once, read file after file. */
    static MergedRows raw(
        List<DataFileMeta> inKeyOrder, DataFileOpener<KeyValueFileReader> opener) {
      FileByFile<KeyValueFileReader> files = new FileByFile<>(inKeyOrder, opener);
      return new MergedRows(List.of(files), null, true, null, files);
    }

    /** Whether the rows are read raw, without the merge. */
    boolean raw() {
      return merged == null;
    }

    @Override
    public boolean hasNext() {
      // Kept small, being called per row: the work of moving on is in the methods below.
      if (raw()) {
        return (rawValues != null && rawValues.buffered()) || rawFileWithRows();
      }
      return next != null || nextMerged();
    }

    /**
     * Whether a raw row is left: moves to the file holding it, closing the exhausted one and
     * opening the next.
     */
    private boolean rawFileWithRows() {
      while (rawFiles.current() == null || !rawFiles.current().hasNext()) {
        rawValues = null;
        if (!rawFiles.openNext()) {
          return false;
        }
      }
      return true;
    }

    /** Takes merged versions until one is a row to give; false at the end. */
    private boolean nextMerged() {
      while (next == null && merged.hasNext()) {
        KeyValue result = merged.next();
        if (result != null && result.kind().isAdd()) {
          RowKind kind = asInserts ? RowKind.INSERT : result.kind();
          next =
              kind == result.kind() && cut == null
                  ? result
                  : new KeyValue(result.key(), result.sequenceNumber(), kind, cut(result.value()));
        }
      }
      return next != null;
    }

    @Override
    public Object[] next() {
      if (raw()) {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        if (rawValues == null) {
          rawValues = rawFiles.current().valuesInBatches();
        }
        return rawValues.next();
      }
      return nextKeyValue().value();
    }

    /** The {@link #cut} columns of a merged row. */
    private Object[] cut(Object[] row) {
      return cut == null ? row : BucketAssigner.project(row, cut);
    }

    /** The next row as a record: key, newest sequence number, an add kind (+I or +U). */
    public KeyValue nextKeyValue() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      if (raw()) {
        requireNoRowsInBulk();
        return rawFiles.current().next().asInsert();
      }
      KeyValue newest = next;
      next = null;
      return newest;
    }

    /**
     * Hands every row left to {@code sink}, in key order, each as an insert (+I): what a read of
     * the table's state reports. A raw read's rows come as views of column batches ({@link
     * KeyValueFileReader#nextBatch}), the merge of a table whose newest version wins gives views of
     * the versions that win ({@link NewestVersionMerge#nextRow}), and the merge of another engine a
     * view of each key one run alone holds ({@link RunKeys}): nothing is built or boxed per row of
     * theirs. A key of several versions comes as the engine's key-value. Rows taken in bulk by
     * {@link #next} must all be taken first, as for {@link #nextKeyValue}.
     *
     * @throws UncheckedIOException if a file fails to open
     */
    public void insertsTo(ChangeSink sink) throws IOException {
      AsInsert insert = new AsInsert();
      if (raw()) {
        requireNoRowsInBulk();
        while (rawFileWithRows()) {
          KeyValueFileReader file = rawFiles.current();
          KeyValueBatch batch = file.newBatch();
          while (file.nextBatch(batch) > 0) {
            for (int r = 0; r < batch.size(); r++) {
              sink.change(insert.of(batch.row(r), null));
            }
          }
        }
        return;
      }
      // A row hasNext() took from the merge already comes first, as its key-value, already cut.
      if (next != null) {
        sink.change(insert.of(nextKeyValue(), null));
      }
      // The newest-version merge reads the columns cut already; the engine's merge, whole rows.
      Supplier<ChangeRow> additions =
          merged instanceof NewestVersionMerge newest
              ? newest::nextRow
              : ((ReducedKeys) merged)::nextAddition;
      int[] columns = merged instanceof NewestVersionMerge ? null : cut;
      for (ChangeRow row = additions.get(); row != null; row = additions.get()) {
        sink.change(insert.of(row, columns));
      }
    }

    /** Fails if {@link #next} took rows of a raw read in bulk that it has not handed out yet. */
    private void requireNoRowsInBulk() {
      if (rawValues != null && rawValues.buffered()) {
        throw new IllegalStateException(
            "rows of this raw read were taken in bulk by next(): take them all by next()");
      }
    }

    /**
     * Closes the files open.
     *
     * @throws UncheckedIOException if one fails to close, after trying them all
     */
    @Override
    public void close() {
      closeAll(runs);
    }
  }

  /**
   * Each key's versions reduced by the merge engine (null when none remains), each version a view
   * ({@link RunKeys}): a key one run alone holds as its version, which a reduce gives back as it
   * is.
   */
  private static final class ReducedKeys implements Iterator<KeyValue> {
    private final RunKeys keys;
    private final KeyVersions versions;
    private final KeyMerge keyMerge;
    private boolean filled;
    private boolean more;

    ReducedKeys(RunKeys keys, KeyVersions versions, KeyMerge keyMerge) {
      this.keys = keys;
      this.versions = versions;
      this.keyMerge = keyMerge;
    }

    @Override
    public boolean hasNext() {
      if (!filled) {
        more = keys.next(versions, level -> true);
        filled = true;
      }
      return more;
    }

    @Override
    public KeyValue next() {
      ChangeRow reduced = nextReduced();
      return reduced == null ? null : reduced.toKeyValue();
    }

    /** The next key's version, a view valid until the next call; null when none remains. */
    private ChangeRow nextReduced() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      filled = false;
      ChangeRow lone = keys.lone();
      return lone != null ? lone : keyMerge.reduce(versions);
    }

    /**
     * The next key's version if it is an addition, skipping the others: a view valid until the next
     * call; null at the end.
     */
    ChangeRow nextAddition() {
      while (hasNext()) {
        ChangeRow result = nextReduced();
        if (result != null && result.kind().isAdd()) {
          return result;
        }
      }
      return null;
    }
  }

  /**
   * What {@code build} builds over {@code runs}, a merge that reads each run's first record: if
   * that fails, the runs are closed before the failure goes on.
   */
  static <T> T built(List<? extends Closeable> runs, Supplier<T> build) {
    try {
      return build.get();
    } catch (RuntimeException e) {
      try {
        closeAll(runs);
      } catch (UncheckedIOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** Closes every reader, failing with the first error after trying them all. */
  static void closeAll(List<? extends Closeable> readers) {
    IOException first = null;
    for (Closeable r : readers) {
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
