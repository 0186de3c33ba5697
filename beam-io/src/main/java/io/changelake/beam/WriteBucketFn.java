package io.changelake.beam;

import io.changelake.beam.FaultInjection.InjectedFault;
import io.changelake.beam.FaultInjection.Point;
import io.changelake.format.ColumnMapping;
import io.changelake.format.DataFileMeta;
import io.changelake.mergetree.MergeTreeWriter.CompactionRequest;
import io.changelake.table.BucketAssigner;
import io.changelake.table.CommitMessage;
import io.changelake.table.TableWriter;
import io.changelake.table.UncommittedMessages;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.transforms.errorhandling.BadRecord;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.TupleTag;

/**
 * The bucket writer stage: keyed by table and bucket ({@link Destinations}), it hosts the bucket's
 * {@link TableWriter}, writes each batch of the bucket's rows, prepares the commit and emits the
 * commit messages, numbered per bucket, to the committer, with the {@link SourcePosition}s of the
 * batch's rows summarised. A row the merge engine refuses becomes a dead letter. A batch that
 * changes nothing (every row refused) is no commit: its positions go to the committer alone, in a
 * batch of sequence 0 without messages, to be settled at once (with the ids of the move halves
 * among its rows, which then need no commit: see {@link CommitFn}). In a dynamic-bucket table the
 * rows come with the bucket {@link AssignHashBucketFn} gave them, and the writer adds their new
 * keys to the bucket's hash index file, which the messages carry.
 *
 * <p>State (ids are stable: changing them breaks pipeline updates):
 *
 * <ul>
 *   <li>{@code sequence}: the batches emitted so far; the next batch gets the next number, which
 *       orders the bucket's commits and counts its commits for {@code
 *       full-compaction.delta-commits};
 *   <li>{@code view}: a random id of the attempt whose output the state records;
 *   <li>{@code uncommitted} (+ {@code uncommitted-count}): the batches emitted that the table may
 *       not hold yet, from which a new writer rebuilds its view ({@link UncommittedMessages});
 *       forgotten once the table holds them.
 * </ul>
 *
 * <p>The writer in memory (its levels, lookup cache) is trusted only while its view id equals the
 * one in state: an attempt clears the writer's id before it writes, and sets it to a fresh id that
 * the state records only if the bundle commits. A failed bundle, a key that moved to another worker
 * and back, a restarted worker: each leaves the ids different, and the writer is rebuilt from the
 * latest snapshot plus the uncommitted batches. Files of a failed attempt are orphans.
 *
 * <p>A writer no batch used for the idle timeout ({@link #DEFAULT_IDLE_TIMEOUT_MILLIS}: 10 minutes)
 * is closed, which frees its buffer, its lookup copies and its share of the worker's budgets; the
 * bucket's next batch rebuilds it from the table and the state, as after a restart (counted in
 * {@code writerRebuilds}). A worker hosting many buckets thus keeps only those in use open.
 *
 * <p>A batch holding a row mapped under a newer schema than the writers' (the table evolved while
 * the pipeline runs) reopens the table at its latest schema and rebuilds the writers on it; rows
 * mapped under an older schema are converted by field id ({@link ColumnMapping}).
 */
final class WriteBucketFn extends DoFn<KV<String, Iterable<KindedRow>>, KV<String, WrittenBatch>> {
  private static final long serialVersionUID = 1L;

  /** Uncommitted batches past which each batch checks whether the table holds the oldest. */
  static final int FORGET_CHECK_AFTER = 8;

  /** How long a bucket writer may go unused before it is closed. */
  static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 10 * 60 * 1000;

  private final Destinations destinations;
  private final TupleTag<KV<String, WrittenBatch>> writtenTag;
  private final TupleTag<BadRecord> deadLetterTag;
  private final FaultInjection faults;
  private final long idleTimeoutNanos;
  private final boolean waitCompaction;

  @StateId("sequence")
  private final StateSpec<ValueState<Long>> sequenceSpec = StateSpecs.value(VarLongCoder.of());

  @StateId("view")
  private final StateSpec<ValueState<String>> viewSpec = StateSpecs.value(StringUtf8Coder.of());

  @StateId("uncommitted")
  private final StateSpec<BagState<WrittenBatch>> uncommittedSpec =
      StateSpecs.bag(WrittenBatchCoder.of());

  @StateId("uncommitted-count")
  private final StateSpec<CombiningState<Long, long[], Long>> uncommittedCountSpec =
      StateSpecs.combining(Sum.ofLongs());

  private transient Map<Destination, OpenTable> tables;
  private transient Map<String, HostedWriter> writers;

  /** One table this stage writes, opened at the first batch of one of its buckets. */
  private static final class OpenTable {
    final TableReference reference;
    TableReference.Opened opened;
    SchemaLayouts layouts;

    OpenTable(TableReference reference) throws IOException {
      this.reference = reference;
      this.opened = reference.open();
      this.layouts = new SchemaLayouts(opened.table());
    }
  }

  /** A bucket's writer and the view id it matches (null: ahead of any state). */
  private static final class HostedWriter {
    final TableWriter writer;
    String viewId;
    long lastUsedNanos = System.nanoTime();

    HostedWriter(TableWriter writer) {
      this.writer = writer;
    }
  }

  /** What an attempt produced, applied to state and outputs only once it succeeded. */
  private record Outcome(
      WrittenBatch written,
      WrittenBatch settledOnly,
      String viewId,
      List<BadRecord> deadLetters,
      long rows,
      long millis) {}

  WriteBucketFn(
      Destinations destinations,
      TupleTag<KV<String, WrittenBatch>> writtenTag,
      TupleTag<BadRecord> deadLetterTag,
      FaultInjection faults,
      long idleTimeoutMillis,
      boolean waitCompaction) {
    this.destinations = destinations;
    this.writtenTag = writtenTag;
    this.deadLetterTag = deadLetterTag;
    this.faults = faults;
    this.idleTimeoutNanos = idleTimeoutMillis * 1_000_000;
    this.waitCompaction = waitCompaction;
  }

  @Setup
  public void setup() {
    tables = new HashMap<>();
    writers = new HashMap<>();
  }

  /**
   * The table of an element key, opened on its first batch; the first stage created it, so a
   * many-table write's table is there (a single table opens as it always did, created or not).
   */
  private OpenTable tableOf(String key) throws IOException {
    Destination destination = destinations.destinationOf(key);
    OpenTable table = tables.get(destination);
    if (table == null) {
      table = new OpenTable(destinations.target(destination).reference());
      tables.put(destination, table);
    }
    return table;
  }

  @ProcessElement
  public void process(
      @Element KV<String, Iterable<KindedRow>> batch,
      @StateId("sequence") ValueState<Long> sequence,
      @StateId("view") ValueState<String> view,
      @StateId("uncommitted") BagState<WrittenBatch> uncommitted,
      @StateId("uncommitted-count") CombiningState<Long, long[], Long> uncommittedCount,
      MultiOutputReceiver out)
      throws Exception {
    closeIdleWriters();
    OpenTable table = tableOf(batch.getKey());
    followSchema(table, batch.getKey(), batch.getValue());
    long written = sequence.read() == null ? 0 : sequence.read();
    Outcome outcome;
    while (true) {
      try {
        outcome =
            attempt(table, batch.getKey(), batch.getValue(), written, view.read(), uncommitted);
        break;
      } catch (InjectedFault fault) {
        WriteMetrics.INJECTED_FAULTS.inc();
      }
    }
    for (BadRecord dead : outcome.deadLetters()) {
      out.get(deadLetterTag).output(dead);
    }
    WriteMetrics.DEAD_LETTERS.inc(outcome.deadLetters().size());
    WriteMetrics.ROWS_WRITTEN.inc(outcome.rows());
    WriteMetrics.FLUSH_AND_COMPACTION_MILLIS.update(outcome.millis());
    WriteMetrics.reportWorker(writers.size());
    if (outcome.settledOnly() != null) {
      out.get(writtenTag).output(KV.of(table.reference.location(), outcome.settledOnly()));
    }
    if (outcome.written() == null) {
      return;
    }
    out.get(writtenTag).output(KV.of(table.reference.location(), outcome.written()));
    sequence.write(outcome.written().sequence());
    view.write(outcome.viewId());
    uncommitted.add(outcome.written());
    uncommittedCount.add(1L);
    count(outcome.written().messages());
    if (uncommittedCount.read() >= FORGET_CHECK_AFTER) {
      forgetCommitted(table, uncommitted, uncommittedCount);
    }
  }

  /**
   * Reopens the batch's table at its latest schema if a row of the batch was mapped under a newer
   * schema than the writers', closing the table's writers: each bucket's next batch rebuilds its
   * writer on the new schema from the table and the state, as after a restart.
   */
  private void followSchema(OpenTable table, String key, Iterable<KindedRow> rows)
      throws IOException {
    boolean behind = false;
    for (KindedRow row : rows) {
      behind |= table.layouts.isBehind(row.schemaId());
    }
    if (!behind) {
      return;
    }
    TableReference.Opened reopened = table.reference.open();
    Destination destination = destinations.destinationOf(key);
    for (Iterator<Map.Entry<String, HostedWriter>> i = writers.entrySet().iterator();
        i.hasNext(); ) {
      Map.Entry<String, HostedWriter> hosted = i.next();
      if (destinations.destinationOf(hosted.getKey()).equals(destination)) {
        i.remove();
        hosted.getValue().writer.close();
      }
    }
    table.opened.close();
    table.opened = reopened;
    table.layouts = new SchemaLayouts(reopened.table());
  }

  /** Closes the writers unused for the idle timeout; their buckets rebuild on their next batch. */
  private void closeIdleWriters() throws IOException {
    long now = System.nanoTime();
    for (Iterator<HostedWriter> i = writers.values().iterator(); i.hasNext(); ) {
      HostedWriter hosted = i.next();
      if (now - hosted.lastUsedNanos >= idleTimeoutNanos) {
        i.remove();
        hosted.writer.close();
        WriteMetrics.IDLE_WRITERS_CLOSED.inc();
      }
    }
  }

  private Outcome attempt(
      OpenTable table,
      String bucket,
      Iterable<KindedRow> rows,
      long written,
      String viewId,
      BagState<WrittenBatch> uncommitted)
      throws IOException {
    HostedWriter hosted = writers.get(bucket);
    if (hosted == null || viewId == null || !viewId.equals(hosted.viewId)) {
      if (hosted != null) {
        hosted.writer.close();
      }
      if (viewId != null) {
        WriteMetrics.WRITER_REBUILDS.inc();
      }
      hosted = new HostedWriter(table.opened.table().newWriter(messagesOf(uncommitted.read())));
      writers.put(bucket, hosted);
    }
    hosted.viewId = null;
    hosted.lastUsedNanos = System.nanoTime();
    List<BadRecord> deadLetters = new ArrayList<>();
    PositionRange.Summary positions = new PositionRange.Summary();
    List<Long> moves = new ArrayList<>();
    long accepted = 0;
    int dynamicBucket =
        table.opened.table().options().dynamicBucket()
            ? BucketAssigner.RowBucket.bucketOfId(destinations.bucketOf(bucket))
            : -1;
    for (KindedRow row : rows) {
      // A refused row settles with its batch too: it is a dead letter, never to be in the table.
      if (row.source() != null) {
        positions.add(row.source());
      }
      // Refused or not, the committer pairs this half of a move with the other.
      if (row.move() != KindedRow.NO_MOVE) {
        moves.add(row.move());
      }
      try {
        if (dynamicBucket < 0) {
          hosted.writer.write(row.kind(), table.layouts.valuesOf(row));
        } else {
          hosted.writer.write(row.kind(), table.layouts.valuesOf(row), dynamicBucket);
        }
        accepted++;
      } catch (IllegalArgumentException refused) {
        // The writer keeps nothing of a refused row (a MergeException is one of these).
        // A many-table write's dead letter names its table, as those of the assigner do.
        String reason =
            destinations.isMany()
                ? "destination " + destinations.destinationOf(bucket) + ": " + refused.getMessage()
                : refused.getMessage();
        deadLetters.add(
            BadRecord.fromExceptionInformation(row, KindedRowCoder.of(), refused, reason));
      }
    }
    long start = System.nanoTime();
    // Unbounded, a none or input table compacts in the background, as Paimon's streaming writer
    // does: a later batch of the bucket records the compaction (a writer closed first drops it).
    // Bounded, a bucket's batch is its last, so it waits, as Paimon's writer does at end of input.
    List<CommitMessage> messages =
        hosted.writer.prepareCommit(written + 1, CompactionRequest.AUTO, waitCompaction);
    long millis = (System.nanoTime() - start) / 1_000_000;
    faults.reached(Point.AFTER_FILES_WRITTEN);
    WrittenBatch batch =
        messages.isEmpty()
            ? null
            : new WrittenBatch(bucket, written + 1, messages, positions.ranges(), moves);
    String newViewId = batch == null ? viewId : UUID.randomUUID().toString();
    hosted.viewId = newViewId;
    // The writer is now ahead of the state: only a committed bundle makes the state agree.
    faults.reached(Point.AFTER_MESSAGES_EMITTED);
    WrittenBatch settledOnly =
        batch == null && (!positions.isEmpty() || !moves.isEmpty())
            ? new WrittenBatch(bucket, 0, List.of(), positions.ranges(), moves)
            : null;
    return new Outcome(batch, settledOnly, newViewId, deadLetters, accepted, millis);
  }

  private static List<CommitMessage> messagesOf(Iterable<WrittenBatch> batches) {
    List<CommitMessage> messages = new ArrayList<>();
    for (WrittenBatch b : batches) {
      messages.addAll(b.messages());
    }
    return messages;
  }

  /** Drops the uncommitted batches the table now holds, oldest first. */
  private void forgetCommitted(
      OpenTable table, BagState<WrittenBatch> uncommitted, CombiningState<Long, long[], Long> count)
      throws IOException {
    List<WrittenBatch> batches = new ArrayList<>();
    uncommitted.read().forEach(batches::add);
    batches.sort((a, b) -> Long.compare(a.sequence(), b.sequence()));
    int committedMessages =
        UncommittedMessages.committedPrefix(table.opened.table(), messagesOf(batches));
    int forget = 0;
    for (WrittenBatch b : batches) {
      if (committedMessages < b.messages().size()) {
        break;
      }
      committedMessages -= b.messages().size();
      forget++;
    }
    if (forget == 0) {
      return;
    }
    uncommitted.clear();
    count.clear();
    for (WrittenBatch b : batches.subList(forget, batches.size())) {
      uncommitted.add(b);
    }
    count.add((long) (batches.size() - forget));
  }

  private static void count(List<CommitMessage> messages) {
    for (CommitMessage m : messages) {
      for (List<DataFileMeta> files :
          List.of(m.newFiles(), m.changelogFiles(), m.compactAfter(), m.compactChangelog())) {
        for (DataFileMeta f : files) {
          WriteMetrics.FILES_WRITTEN.inc();
          WriteMetrics.BYTES_WRITTEN.inc(f.fileSize());
        }
      }
      for (List<DataFileMeta> files : List.of(m.changelogFiles(), m.compactChangelog())) {
        for (DataFileMeta f : files) {
          WriteMetrics.CHANGELOG_ROWS.inc(f.rowCount());
        }
      }
    }
  }

  @Teardown
  public void teardown() {
    if (writers != null) {
      Release.each("WriteBucketFn: bucket writer", writers.values(), h -> h.writer);
      writers = null;
    }
    if (tables != null) {
      Release.each("WriteBucketFn: table", tables.values(), t -> t.opened);
      tables = null;
    }
  }
}
