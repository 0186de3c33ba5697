package io.changelake.table;

import io.changelake.format.DataFileMeta;
import io.changelake.format.FileKind;
import io.changelake.format.KeyValueBatch;
import io.changelake.format.KeyValueFileReader;
import io.changelake.format.ManifestEntry;
import io.changelake.mergetree.BatchedRun;
import io.changelake.mergetree.BucketFiles;
import io.changelake.mergetree.KeyOrderedChanges;
import io.changelake.mergetree.RunReader;
import io.changelake.mergetree.SortMergeReader;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.TableOptions;
import io.changelake.store.ObjectNotFoundException;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.OptionalLong;
import java.util.function.IntPredicate;

/**
 * Plans and reads a table's changelog: which files each snapshot contributes to a stream of
 * changes, as {@link ChangelogTask}s, one per (snapshot, partition, bucket), and the rows of a
 * task.
 *
 * <table>
 *   <caption>What a snapshot contributes, by {@code changelog-producer}</caption>
 *   <tr><th>producer</th><th>snapshots read</th><th>files</th></tr>
 *   <tr><td>none</td><td>APPEND</td><td>the data files the snapshot added (level 0), rows with
 *       their stored kind</td></tr>
 *   <tr><td>input, lookup, full-compaction</td><td>every snapshot with changelog files except
 *       OVERWRITE (input: APPEND; lookup and full-compaction: COMPACT, or a single COMPACT
 *       commit that carries its own changelog)</td><td>the snapshot's changelog files</td></tr>
 * </table>
 *
 * <p>A streaming read resolves a {@link StartingPoint} once with {@link #start}, then asks {@link
 * #changes(long)} for each snapshot id from {@link Start#nextSnapshot()} on, as snapshots appear
 * ({@link SnapshotLog#latestId()}). A bounded read takes {@link #between}. Asking for a snapshot
 * that has expired is a {@link SnapshotNotFoundException}, never a silent skip: record progress
 * with {@link Consumers} so expiry keeps what a read still needs. When the changelog lifecycle is
 * decoupled ({@code changelog.*} options), a snapshot that expired is read from its long-lived
 * changelog ({@link SnapshotLog#changelogs}) until that expires too, as Paimon's streaming read
 * does.
 *
 * <p>{@link #read} yields a task's records in key order, the changes of a key in the order they
 * were made: file by file as the snapshot lists them (the order the writer produced them), each
 * file's in its own order. Not by sequence number: a before-image (-U, -D) carries the sequence
 * number of the row it retracts, which equals that of the after-image of the key's previous change,
 * and both can sit in one snapshot (two compactions in one commit). Across snapshots, the changes
 * of a key come in snapshot order.
 */
public final class ChangelogScan {

  /**
   * A resolved starting point.
   *
   * @param state the tasks of the full read that comes first ({@link StartingPoint#latestFull()}),
   *     else empty
   * @param nextSnapshot the first snapshot whose changes follow
   */
  public record Start(List<ChangelogTask> state, long nextSnapshot) {
    public Start {
      state = List.copyOf(state);
    }
  }

  private final Table table;
  private final TableRead tableRead;
  private final TableScan scan;
  private final SnapshotLog snapshots;
  private final SnapshotLog changelogs;

  /** The table columns a record's value holds, in order; null for every column. */
  private final int[] columns;

  ChangelogScan(Table table) {
    this(table, null);
  }

  private ChangelogScan(Table table, int[] columns) {
    this.table = table;
    this.tableRead = table.newRead();
    this.scan = table.newScan();
    this.snapshots = table.snapshots();
    this.changelogs = SnapshotLog.changelogs(table.store(), table.path());
    this.columns = columns;
  }

  /**
   * This scan, reading only some columns: each record's {@link KeyValue#value()} holds the table
   * columns at {@code positions} (in the schema of the table this scan was made from), in that
   * order, and its {@link KeyValue#key()} the key as always. A changelog file's other columns are
   * neither fetched from the store nor decoded, nor a data file's in a full read ({@link
   * ChangelogTask.Content#STATE}) when it is read raw or its newest version wins ({@link
   * TableRead#read(BucketSplit, int[])}); other merge engines merge whole rows, then cut them.
   *
   * @throws IllegalArgumentException if a position is outside the table's columns or repeated
   */
  public ChangelogScan withColumns(int... positions) {
    return new ChangelogScan(table, TableRead.checkedColumns(table, positions));
  }

  /**
   * Resolves where a read begins, as of now.
   *
   * @throws SnapshotNotFoundException if the read would begin at a snapshot that has expired
   */
  public Start start(StartingPoint from) throws IOException {
    if (from instanceof StartingPoint.Resume resume) {
      OptionalLong next = table.consumers().nextSnapshot(resume.consumerId());
      return next.isPresent() ? changesFrom(next.getAsLong()) : start(resume.otherwise());
    }
    if (from instanceof StartingPoint.FromSnapshot fromSnapshot) {
      return changesFrom(fromSnapshot.snapshotId());
    }
    if (from instanceof StartingPoint.FromTag fromTag) {
      Snapshot tagged = table.tags().read(fromTag.tagName());
      Start changes = changesFrom(tagged.id() + 1);
      return new Start(stateOf(tagged), changes.nextSnapshot());
    }
    OptionalLong latest = snapshots.latestId();
    if (latest.isEmpty()) {
      // Nothing committed yet: the first snapshot is already a change for every starting point.
      return new Start(List.of(), 1);
    }
    long latestId = latest.getAsLong();
    if (from instanceof StartingPoint.Latest) {
      return new Start(List.of(), latestId + 1);
    }
    if (from instanceof StartingPoint.LatestFull) {
      return new Start(stateOf(snapshots.read(latestId)), latestId + 1);
    }
    long millis = ((StartingPoint.FromTimestamp) from).epochMillis();
    return new Start(List.of(), firstCommittedAtOrAfter(millis, latestId));
  }

  /** The rows of a snapshot as tasks of a full read that a changelog from the next one follows. */
  private List<ChangelogTask> stateOf(Snapshot snapshot) throws IOException {
    List<ChangelogTask> state = new ArrayList<>();
    for (BucketSplit split : tableRead.splits(snapshot, stateLevels())) {
      state.add(ChangelogTask.of(split, ChangelogTask.Content.STATE));
    }
    return state;
  }

  private Start changesFrom(long snapshotId) throws IOException {
    OptionalLong earliest = earliestId();
    if (earliest.isPresent() && snapshotId < earliest.getAsLong()) {
      throw missing(snapshotId);
    }
    return new Start(List.of(), snapshotId);
  }

  /**
   * Which levels a full read takes, so that no row is read twice: rows still at level 0 reach a
   * lookup changelog when they are compacted, and rows below the top level reach a full-compaction
   * changelog at the next full compaction (as Paimon's DataTableStreamScan).
   */
  private IntPredicate stateLevels() {
    TableOptions options = table.options();
    switch (options.changelogProducer()) {
      case LOOKUP:
        return level -> level > 0;
      case FULL_COMPACTION:
        int top = options.numLevels() - 1;
        return level -> level == top;
      default:
        return level -> true;
    }
  }

  /** The first snapshot committed at or after the time, or the one after the latest if none. */
  private long firstCommittedAtOrAfter(long millis, long latestId) throws IOException {
    long low = earliestId().orElse(latestId);
    long high = latestId + 1;
    // Commit times grow with ids, so the first match is found by bisection.
    while (low < high) {
      long mid = low + (high - low) / 2;
      if (read(mid).timeMillis() >= millis) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  /**
   * What snapshot {@code snapshotId} contributes to the changelog; empty for a snapshot that
   * contributes nothing under the table's producer.
   *
   * @throws SnapshotNotFoundException if the snapshot has expired or is not committed yet
   */
  public List<ChangelogTask> changes(long snapshotId) throws IOException {
    return changes(read(snapshotId));
  }

  /** What a snapshot contributes to the changelog. */
  public List<ChangelogTask> changes(Snapshot snapshot) throws IOException {
    List<ManifestEntry> files = new ArrayList<>();
    if (table.options().changelogProducer() == ChangelogProducer.NONE) {
      if (snapshot.commitKind() == CommitKind.APPEND) {
        for (ManifestEntry e : scan.deltaEntries(snapshot)) {
          if (e.kind() == FileKind.ADD) {
            files.add(e);
          }
        }
      }
    } else if (snapshot.commitKind() != CommitKind.OVERWRITE) {
      // As Paimon's ChangelogFollowUpScanner: any snapshot with changelog files, whatever wrote
      // it, so a lookup changelog committed in a single COMPACT snapshot is read too.
      files.addAll(scan.changelogEntries(snapshot));
    }
    List<ChangelogTask> tasks = new ArrayList<>();
    for (BucketSplit split : TableRead.byBucket(snapshot.id(), files)) {
      tasks.add(ChangelogTask.of(split, ChangelogTask.Content.CHANGES));
    }
    return tasks;
  }

  /**
   * The changes of the snapshots after {@code startExclusive} up to {@code endInclusive}, in
   * snapshot order: a bounded incremental read, as Paimon's {@code incremental-between}.
   *
   * @throws IllegalArgumentException if the range is reversed
   * @throws SnapshotNotFoundException if a snapshot of the range has expired or does not exist
   */
  public List<ChangelogTask> between(long startExclusive, long endInclusive) throws IOException {
    if (startExclusive > endInclusive) {
      throw new IllegalArgumentException(
          "the snapshot range ("
              + startExclusive
              + ", "
              + endInclusive
              + "] of "
              + table.location()
              + " is reversed: give the older snapshot first");
    }
    List<ChangelogTask> tasks = new ArrayList<>();
    for (long id = startExclusive + 1; id <= endInclusive; id++) {
      tasks.addAll(changes(id));
    }
    return tasks;
  }

  /** Receives changes one by one, in changelog order. */
  public interface ChangeSink {
    /**
     * One change: a view that is valid until this method returns (take {@link ChangeRow#toKeyValue}
     * to keep it). The changes of a task of changes, and the rows of a split read raw or merged
     * where the newest version wins, come straight from the files' decoded columns, with nothing
     * built per row.
     */
    void change(ChangeRow change) throws IOException;
  }

  /** Receives the changes of a range of snapshots, in changelog order. */
  public interface ChangeVisitor extends ChangeSink {
    /** A snapshot begins; its changes follow. */
    void snapshot(Snapshot snapshot) throws IOException;
  }

  /**
   * Reads the changes of snapshots {@code first} to {@code last}, both included, in order, as a
   * streaming reader that started at {@code first} sees them; nothing when {@code first > last}.
   *
   * @throws SnapshotNotFoundException if a snapshot of the range has expired or is not committed
   *     yet
   */
  public void walk(long first, long last, ChangeVisitor visitor) throws IOException {
    for (long id = first; id <= last; id++) {
      // Planning first: it names an expired or future snapshot, where a bare read names a file.
      List<ChangelogTask> tasks = changes(id);
      visitor.snapshot(read(id));
      for (ChangelogTask task : tasks) {
        read(task, visitor);
      }
    }
  }

  /**
   * Hands the records of a task to {@code sink}, in the order {@link #read(ChangelogTask)} gives
   * them. A task whose files follow one another in key order (a snapshot's changelog of a bucket,
   * as a rule) is read file after file in column batches ({@link KeyValueFileReader#nextBatch}),
   * each record a view of its batch; so is a full read's task that is read raw, or merged where the
   * newest version wins ({@link TableRead.MergedRows#insertsTo}). A task of several runs has them
   * interleaved in key order ({@link KeyOrderedChanges}), each record a view of its file's columns
   * too.
   */
  public void read(ChangelogTask task, ChangeSink sink) throws IOException {
    if (task.content() == ChangelogTask.Content.STATE) {
      try (TableRead.MergedRows rows = stateRows(task)) {
        rows.insertsTo(sink);
      }
      return;
    }
    List<List<DataFileMeta>> runs = tableRead.consecutiveRuns(task.files());
    if (runs.size() == 1) {
      readRun(task, runs.get(0), sink);
      return;
    }
    readRuns(task, runs, sink);
  }

  /** The records of a task's runs of files interleaved by key, each run in column batches. */
  @SuppressWarnings("try") // The resource is there to close the runs, not to be read.
  private void readRuns(ChangelogTask task, List<List<DataFileMeta>> runs, ChangeSink sink)
      throws IOException {
    BucketFiles bucketFiles = tableRead.bucketFiles(task.partition(), task.bucket());
    List<BatchedRun> batchedRuns = new ArrayList<>();
    for (List<DataFileMeta> run : runs) {
      batchedRuns.add(new BatchedRun(run, f -> bucketFiles.open(f, columns)));
    }
    // A failure to close comes suppressed behind a failure to read.
    try (Closeable closing = () -> TableRead.closeAll(batchedRuns)) {
      KeyOrderedChanges changes = new KeyOrderedChanges(batchedRuns, tableRead.keyOrder());
      for (ChangeRow change = changes.next(); change != null; change = changes.next()) {
        sink.change(change);
      }
    }
  }

  /** The records of a task's one run of files, file after file, in column batches. */
  private void readRun(ChangelogTask task, List<DataFileMeta> run, ChangeSink sink)
      throws IOException {
    BucketFiles bucketFiles = tableRead.bucketFiles(task.partition(), task.bucket());
    for (DataFileMeta file : run) {
      try (KeyValueFileReader reader = bucketFiles.open(file, columns)) {
        KeyValueBatch batch = reader.newBatch();
        while (reader.nextBatch(batch) > 0) {
          for (int r = 0; r < batch.size(); r++) {
            sink.change(batch.row(r));
          }
        }
      }
    }
  }

  /**
   * The records of a task: in key order, a key's records in the order they were made; {@link
   * ChangelogTask.Content#STATE} tasks as +I rows. Close the reader to release its files.
   */
  public ChangelogReader read(ChangelogTask task) throws IOException {
    return task.content() == ChangelogTask.Content.STATE
        ? stateReader(task)
        : changesReader(task, tableRead.consecutiveRuns(task.files()));
  }

  /** The rows of a full read's task, as +I records. */
  private ChangelogReader stateReader(ChangelogTask task) throws IOException {
    TableRead.MergedRows rows = stateRows(task);
    Iterator<KeyValue> inserts =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return rows.hasNext();
          }

          @Override
          public KeyValue next() {
            return rows.nextKeyValue().asInsert();
          }
        };
    return new ChangelogReader(inserts, rows::close);
  }

  /** The rows of a full read's task, raw or merged as {@link TableRead#read} reads them. */
  private TableRead.MergedRows stateRows(ChangelogTask task) throws IOException {
    return tableRead.read(
        new BucketSplit(task.snapshotId(), task.partition(), task.bucket(), task.files()), columns);
  }

  /**
   * The records of a changes task whose files {@code fileRuns} groups into runs that follow one
   * another in key order.
   */
  private ChangelogReader changesReader(ChangelogTask task, List<List<DataFileMeta>> fileRuns)
      throws IOException {
    // Key order alone: equal keys come file by file (see the class comment), as Paimon, which
    // reads the files one after the other. Files that follow one another in key order are read as
    // one run, one file open at a time: a commit's compacted changelog is one run.
    BucketFiles bucketFiles = tableRead.bucketFiles(task.partition(), task.bucket());
    List<RunReader<BatchedFile>> runs = new ArrayList<>();
    for (List<DataFileMeta> run : fileRuns) {
      runs.add(new RunReader<>(run, f -> new BatchedFile(bucketFiles.open(f, columns))));
    }
    Comparator<ChangeRow> asWritten = (unusedLeft, unusedRight) -> 0;
    Iterator<KeyValue> records =
        runs.size() == 1
            ? runs.get(0)
            : TableRead.built(
                runs, () -> new SortMergeReader(runs, tableRead.keyOrder(), asWritten));
    return new ChangelogReader(records, () -> TableRead.closeAll(runs));
  }

  /** A file's key-values read in bulk, {@link KeyValueFileReader#keyValuesInBatches}. */
  private static final class BatchedFile implements Iterator<KeyValue>, Closeable {
    private final KeyValueFileReader file;
    private final Iterator<KeyValue> rows;

    BatchedFile(KeyValueFileReader file) {
      this.file = file;
      this.rows = file.keyValuesInBatches();
    }

    @Override
    public boolean hasNext() {
      return rows.hasNext();
    }

    @Override
    public KeyValue next() {
      return rows.next();
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }

  /**
   * A snapshot as a changelog read sees it: the snapshot, or the long-lived changelog of one that
   * expired.
   *
   * @throws SnapshotNotFoundException if neither exists: expired, or not committed yet
   */
  public Snapshot snapshot(long snapshotId) throws IOException {
    return read(snapshotId);
  }

  private Snapshot read(long snapshotId) throws IOException {
    try {
      return snapshots.read(snapshotId);
    } catch (ObjectNotFoundException expired) {
      try {
        return changelogs.read(snapshotId);
      } catch (ObjectNotFoundException e) {
        throw missing(snapshotId);
      }
    }
  }

  /**
   * The earliest snapshot whose changes can be read: the earliest long-lived changelog, else the
   * earliest snapshot. Long-lived changelogs run without gaps up to the earliest snapshot.
   */
  private OptionalLong earliestId() throws IOException {
    OptionalLong changelog = changelogs.earliestId();
    return changelog.isPresent() ? changelog : snapshots.earliestId();
  }

  private SnapshotNotFoundException missing(long snapshotId) throws IOException {
    OptionalLong earliest = earliestId();
    OptionalLong latest = snapshots.latestId();
    String range =
        earliest.isPresent() && latest.isPresent()
            ? "snapshots " + earliest.getAsLong() + " to " + latest.getAsLong() + " exist"
            : "the table has no snapshot";
    if (latest.isPresent() && snapshotId <= latest.getAsLong()) {
      return new SnapshotNotFoundException(
          snapshotId,
          "snapshot "
              + snapshotId
              + " of "
              + table.location()
              + " has expired ("
              + range
              + "): its changes are gone; restart the read from an existing snapshot, and give the"
              + " read a consumer id so that expiry keeps the snapshots it has yet to read");
    }
    return new SnapshotNotFoundException(
        snapshotId,
        "snapshot "
            + snapshotId
            + " of "
            + table.location()
            + " is not committed yet ("
            + range
            + "): wait until the latest snapshot reaches it");
  }

  /** The records of one task, in order; close it to release the task's files. */
  public static final class ChangelogReader implements Iterator<KeyValue>, AutoCloseable {
    private final Iterator<KeyValue> records;
    private final Runnable release;

    ChangelogReader(Iterator<KeyValue> records, Runnable release) {
      this.records = records;
      this.release = release;
    }

    @Override
    public boolean hasNext() {
      return records.hasNext();
    }

    @Override
    public KeyValue next() {
      if (!records.hasNext()) {
        throw new NoSuchElementException();
      }
      return records.next();
    }

    /**
     * Releases the task's files.
     *
     * @throws UncheckedIOException if a file fails to close
     */
    @Override
    public void close() {
      release.run();
    }
  }
}
