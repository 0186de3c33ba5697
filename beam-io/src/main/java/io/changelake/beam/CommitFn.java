package io.changelake.beam;

import io.changelake.beam.FaultInjection.InjectedFault;
import io.changelake.beam.FaultInjection.Point;
import io.changelake.table.CommitConflictException;
import io.changelake.table.CommitMessage;
import io.changelake.table.Snapshot;
import io.changelake.table.SnapshotCommit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.BooleanCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.windowing.BoundedWindow;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Duration;
import org.joda.time.Instant;

/**
 * The committer: one key per table, it commits the bucket writers' batches as snapshots, each
 * bucket's batches in their order, under increasing commit identifiers, and outputs the snapshots
 * it created, and, on a second output, the {@link SourcePosition} ranges of the batches each commit
 * holds ({@link SourcePosition#SETTLED_SCHEMA}), only after the commit succeeded. A batch without
 * messages (rows refused or changing nothing) settles its positions as it arrives, with no
 * identifier.
 *
 * <p>Two steps, each its own timer callback, so that a retried commit commits exactly what the
 * failed one tried:
 *
 * <ol>
 *   <li><b>seal</b> (every commit interval in streaming; at the end of input): moves the arrived
 *       batches into rounds ({@link CommitRounds}), each bucket's next batch in the first round,
 *       its following one in the second, ..., the two batches holding the halves of a key's move
 *       between partitions in the same round, and gives each round the next identifier. A batch
 *       whose predecessor or move partner has not arrived waits. Sealed rounds are in state before
 *       anything is committed.
 *   <li><b>commit</b>: commits each sealed round with its identifier. {@link SnapshotCommit} skips
 *       an identifier this commit user already committed, so a commit retried after its snapshot
 *       was created (the state not yet updated) is not repeated.
 * </ol>
 *
 * <p>A commit never holds two messages of one bucket, since the second may compact files the first
 * adds: a round holds one batch per bucket, but where the pairs of moves cross (bucket A's batch 3
 * pairs with B's 5, A's 4 with B's 4) a round holds several batches of a bucket, committed as one
 * message ({@link io.changelake.table.CommitMessage#followedBy}). So both halves of every move land
 * in one snapshot (the APPEND one, and with a compaction the COMPACT one after it, as Paimon's), in
 * batch and streaming writes, whatever the order batches arrive in. A batch without messages that
 * holds halves of moves waits in {@code arrived} too, links its halves' partners into one round,
 * and settles its positions with that round. A {@link CommitConflictException} (another writer on
 * the same bucket) fails the bundle with its message; the runner's retries cannot fix it.
 *
 * <p>The first identifier continues the commit user's newest snapshot in the table, so a job
 * restarted under the same commit user with empty state never reuses an identifier.
 *
 * <p>A many-table write ({@link Destinations}) has one key, so one committer, per table: each
 * table's batches name it in their bucket keys, and each table gets its own commit user (the
 * write's, followed by {@code -<database>.<table>}) and its own identifiers.
 */
final class CommitFn extends DoFn<KV<String, WrittenBatch>, Row> {
  private static final long serialVersionUID = 1L;

  /** The schema of the snapshots output. */
  static final Schema SNAPSHOT_SCHEMA =
      Schema.builder()
          .addStringField("table")
          .addInt64Field("snapshot_id")
          .addStringField("commit_kind")
          .addDateTimeField("commit_time")
          .addInt64Field("commit_identifier")
          .addStringField("commit_user")
          .build();

  private final Destinations destinations;
  private final TupleTag<Row> snapshotsTag;
  private final TupleTag<Row> settledTag;
  private final String commitUser;
  private final Duration commitInterval;
  private final FaultInjection faults;

  @StateId("arrived")
  private final StateSpec<BagState<WrittenBatch>> arrivedSpec =
      StateSpecs.bag(WrittenBatchCoder.of());

  @StateId("sealed")
  private final StateSpec<BagState<KV<Long, WrittenBatch>>> sealedSpec =
      StateSpecs.bag(KvCoder.of(VarLongCoder.of(), WrittenBatchCoder.of()));

  /** The highest identifier sealed so far (committed, or being committed). */
  @StateId("identifier")
  private final StateSpec<ValueState<Long>> identifierSpec = StateSpecs.value(VarLongCoder.of());

  /** Per bucket, the sequence of its last sealed batch. */
  @StateId("sealed-through")
  private final StateSpec<ValueState<Map<String, Long>>> sealedThroughSpec =
      StateSpecs.value(MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of()));

  @StateId("interval-armed")
  private final StateSpec<ValueState<Boolean>> intervalArmedSpec =
      StateSpecs.value(BooleanCoder.of());

  @TimerId("commit-interval")
  private final TimerSpec intervalSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId("commit-sealed")
  private final TimerSpec sealedTimerSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

  @TimerId("end-of-input")
  private final TimerSpec endSpec = TimerSpecs.timer(TimeDomain.EVENT_TIME);

  private transient Map<Destination, CommittedTable> tables;

  /** A table this committer commits to, opened at its first commit. */
  private record CommittedTable(
      String location, TableReference.Opened opened, SnapshotCommit commit) {}

  /**
   * @param commitInterval the time between commits, or null to commit only at the end of input
   */
  CommitFn(
      Destinations destinations,
      TupleTag<Row> snapshotsTag,
      TupleTag<Row> settledTag,
      String commitUser,
      Duration commitInterval,
      FaultInjection faults) {
    this.destinations = destinations;
    this.snapshotsTag = snapshotsTag;
    this.settledTag = settledTag;
    this.commitUser = commitUser;
    this.commitInterval = commitInterval;
    this.faults = faults;
  }

  @Setup
  public void setup() {
    tables = new HashMap<>();
  }

  /** The table of a batch, named by its bucket key. */
  private CommittedTable tableOf(WrittenBatch batch) throws IOException {
    Destination destination = destinations.destinationOf(batch.bucket());
    CommittedTable table = tables.get(destination);
    if (table == null) {
      TableReference reference = destinations.target(destination).reference();
      TableReference.Opened opened = reference.open();
      table =
          new CommittedTable(
              reference.location(),
              opened,
              opened.table().newCommit(destinations.commitUser(commitUser, destination)));
      tables.put(destination, table);
    }
    return table;
  }

  @RequiresStableInput
  @ProcessElement
  public void process(
      @Element KV<String, WrittenBatch> element,
      BoundedWindow window,
      @StateId("arrived") BagState<WrittenBatch> arrived,
      @StateId("interval-armed") ValueState<Boolean> intervalArmed,
      @TimerId("commit-interval") Timer interval,
      @TimerId("end-of-input") Timer end,
      MultiOutputReceiver out) {
    WrittenBatch batch = element.getValue();
    if (batch.messages().isEmpty() && batch.moves().isEmpty()) {
      settle(element.getKey(), batch, null, out);
      return;
    }
    arrived.add(batch);
    end.set(window.maxTimestamp());
    // Armed once per interval: re-setting it per element would postpone it under steady input.
    if (commitInterval != null && intervalArmed.read() == null) {
      interval.offset(commitInterval).setRelative();
      intervalArmed.write(true);
    }
  }

  @OnTimer("commit-interval")
  public void onInterval(
      @StateId("arrived") BagState<WrittenBatch> arrived,
      @StateId("sealed") BagState<KV<Long, WrittenBatch>> sealed,
      @StateId("identifier") ValueState<Long> identifier,
      @StateId("sealed-through") ValueState<Map<String, Long>> sealedThrough,
      @StateId("interval-armed") ValueState<Boolean> intervalArmed,
      @TimerId("commit-interval") Timer interval,
      @TimerId("commit-sealed") Timer commitSealed)
      throws IOException {
    intervalArmed.clear();
    if (seal(arrived, sealed, identifier, sealedThrough)) {
      commitSealed.offset(Duration.ZERO).setRelative();
    }
    if (!arrived.isEmpty().read()) {
      interval.offset(commitInterval).setRelative();
      intervalArmed.write(true);
    }
  }

  @RequiresStableInput
  @OnTimer("commit-sealed")
  public void onCommitSealed(
      @StateId("sealed") BagState<KV<Long, WrittenBatch>> sealed, MultiOutputReceiver out)
      throws IOException {
    commitSealed(sealed, out);
  }

  /** End of input (bounded input, or a drained stream): nothing more arrives, commit it all now. */
  @RequiresStableInput
  @OnTimer("end-of-input")
  public void onEnd(
      @StateId("arrived") BagState<WrittenBatch> arrived,
      @StateId("sealed") BagState<KV<Long, WrittenBatch>> sealed,
      @StateId("identifier") ValueState<Long> identifier,
      @StateId("sealed-through") ValueState<Map<String, Long>> sealedThrough,
      MultiOutputReceiver out)
      throws IOException {
    commitSealed(sealed, out);
    if (seal(arrived, sealed, identifier, sealedThrough)) {
      commitSealed(sealed, out);
    }
    if (!arrived.isEmpty().read()) {
      throw new IllegalStateException(
          "the input of "
              + tableOf(arrived.read().iterator().next()).location()
              + " ended with batches whose predecessors or move partners never arrived: "
              + sequences(arrived.read()));
    }
  }

  /** Moves the arrived batches that can be committed into sealed rounds; true if any. */
  private boolean seal(
      BagState<WrittenBatch> arrived,
      BagState<KV<Long, WrittenBatch>> sealed,
      ValueState<Long> identifier,
      ValueState<Map<String, Long>> sealedThrough)
      throws IOException {
    Iterable<WrittenBatch> batches = arrived.read();
    if (!batches.iterator().hasNext()) {
      return false;
    }
    CommitRounds.Plan plan =
        CommitRounds.plan(batches, sealedThrough.read() == null ? Map.of() : sealedThrough.read());
    WriteMetrics.DUPLICATE_BATCHES.inc(plan.duplicates());
    WriteMetrics.BATCHES_HELD_BACK.inc(plan.awaitingPredecessor());
    WriteMetrics.BATCHES_AWAITING_MOVE.inc(plan.awaitingPartner());
    WriteMetrics.JOINED_BATCHES.inc(plan.joined());
    long base =
        identifier.read() != null
            ? identifier.read()
            : lastIdentifierInTable(batches.iterator().next());
    for (int r = 0; r < plan.rounds().size(); r++) {
      for (WrittenBatch b : plan.rounds().get(r)) {
        sealed.add(KV.of(base + r + 1, b));
      }
    }
    arrived.clear();
    plan.waiting().forEach(arrived::add);
    sealedThrough.write(plan.through());
    identifier.write(base + plan.rounds().size());
    return !plan.rounds().isEmpty();
  }

  private long lastIdentifierInTable(WrittenBatch batch) throws IOException {
    return tableOf(batch).commit().lastCommittedIdentifier().orElse(0);
  }

  private void commitSealed(BagState<KV<Long, WrittenBatch>> sealed, MultiOutputReceiver out)
      throws IOException {
    List<KV<Long, WrittenBatch>> batches = new ArrayList<>();
    sealed.read().forEach(batches::add);
    if (batches.isEmpty()) {
      return;
    }
    // A bucket's batches in one round, in their order, become one message.
    batches.sort(
        Comparator.comparing((KV<Long, WrittenBatch> b) -> b.getKey())
            .thenComparing(b -> b.getValue().bucket())
            .thenComparingLong(b -> b.getValue().sequence()));
    Map<Long, Map<String, CommitMessage>> byBucket = new TreeMap<>();
    for (KV<Long, WrittenBatch> b : batches) {
      Map<String, CommitMessage> round =
          byBucket.computeIfAbsent(b.getKey(), k -> new LinkedHashMap<>());
      for (CommitMessage m : b.getValue().messages()) {
        round.merge(messageKey(m), m, CommitMessage::followedBy);
      }
    }
    Map<Long, List<CommitMessage>> rounds = new TreeMap<>();
    byBucket.forEach((id, messages) -> rounds.put(id, new ArrayList<>(messages.values())));
    CommittedTable table = tableOf(batches.get(0).getValue());
    List<Snapshot> created;
    while (true) {
      try {
        created = commitRounds(table, rounds);
        break;
      } catch (InjectedFault fault) {
        WriteMetrics.INJECTED_FAULTS.inc();
      }
    }
    sealed.clear();
    for (KV<Long, WrittenBatch> b : batches) {
      // A batch without messages is in no commit: it settles without an identifier, as always.
      Long identifier = b.getValue().messages().isEmpty() ? null : b.getKey();
      settle(table.location(), b.getValue(), identifier, out);
    }
    for (Snapshot s : created) {
      out.get(snapshotsTag)
          .output(
              Row.withSchema(SNAPSHOT_SCHEMA)
                  .addValues(
                      table.location(),
                      s.id(),
                      s.commitKind().name(),
                      Instant.ofEpochMilli(s.timeMillis()),
                      s.commitIdentifier(),
                      s.commitUser())
                  .build());
    }
  }

  /** The partition and bucket a message changes. */
  private static String messageKey(CommitMessage m) {
    return Base64.getEncoder().encodeToString(m.partition().bytes()) + "/" + m.bucket();
  }

  /** Emits a batch's position ranges: the table holds its rows under {@code identifier}. */
  private void settle(
      String location, WrittenBatch batch, Long identifier, MultiOutputReceiver out) {
    for (PositionRange r : batch.positions()) {
      out.get(settledTag).output(SourcePosition.settled(location, r, identifier));
    }
  }

  private List<Snapshot> commitRounds(CommittedTable table, Map<Long, List<CommitMessage>> rounds)
      throws IOException {
    SnapshotCommit commit = table.commit();
    List<Snapshot> created = new ArrayList<>();
    for (Map.Entry<Long, List<CommitMessage>> round : rounds.entrySet()) {
      if (round.getValue().isEmpty()) {
        continue; // only batches without messages, linking moves: nothing to commit
      }
      long races = commit.lostRaces();
      long start = System.nanoTime();
      faults.reached(Point.BEFORE_SNAPSHOT);
      List<Snapshot> snapshots;
      try {
        snapshots = commit.commit(round.getKey(), round.getValue());
      } catch (CommitConflictException conflict) {
        WriteMetrics.COMMIT_CONFLICTS.inc();
        throw new IllegalStateException(
            "commit "
                + round.getKey()
                + " to "
                + table.location()
                + " conflicts: "
                + conflict.getMessage(),
            conflict);
      } finally {
        WriteMetrics.CONFLICTS_RETRIED.inc(commit.lostRaces() - races);
      }
      faults.reached(Point.AFTER_SNAPSHOT);
      WriteMetrics.COMMIT_MILLIS.update((System.nanoTime() - start) / 1_000_000);
      WriteMetrics.COMMITS.inc();
      WriteMetrics.SNAPSHOTS.inc(snapshots.size());
      created.addAll(snapshots);
    }
    return created;
  }

  private static List<String> sequences(Iterable<WrittenBatch> batches) {
    List<String> out = new ArrayList<>();
    for (WrittenBatch b : batches) {
      out.add(b.bucket() + "#" + b.sequence());
    }
    return out;
  }

  @Teardown
  public void teardown() {
    if (tables != null) {
      Release.each("CommitFn: table", tables.values(), CommittedTable::opened);
      tables = null;
    }
  }
}
