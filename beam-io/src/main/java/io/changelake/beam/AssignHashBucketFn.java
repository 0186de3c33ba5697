package io.changelake.beam;

import io.changelake.table.BucketAssigner.RowBucket;
import io.changelake.table.HashBucketAssigner;
import io.changelake.table.HashBucketAssigner.Assignment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.CombiningState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;

/**
 * The bucket-assigner stage of a dynamic-bucket table ({@code bucket} = -1): keyed by assigner
 * ({@link AssignBucketFn} keys each row by {@link HashBucketAssigner#assignerOf}, so each key has
 * exactly one assigner), it gives each row's key its bucket as Paimon's {@code HashBucketAssigner}
 * does and keys the row by that bucket for {@link WriteBucketFn}, which adds new keys to the
 * bucket's hash index file and commits it with the rows.
 *
 * <p>The assigner in memory loads its keys from the table's latest hash index on its first row. A
 * key it gives a bucket is in no committed index until the commit of its rows lands; a restarted
 * assigner (a retried bundle, a key moved to another worker, a rebuilt worker) must still give it
 * the same bucket, so the state keeps each new assignment until the table's index holds it.
 *
 * <p>State (portable kinds only; ids are stable: changing them breaks pipeline updates):
 *
 * <ul>
 *   <li>{@code view}: a random id of the bundle whose assignments the state records last;
 *   <li>{@code partitions}: each partition the assigner gave a key in, with its number;
 *   <li>{@code pending} (+ {@code pending-count}): the assignments the table's index may not hold
 *       yet, each a {@link PendingKey} of 6 bytes ({@link PendingKeyCoder}). Every {@link
 *       #DEFAULT_FORGET_CHECK_EVERY} new keys, if a commit landed since the last check, those the
 *       latest snapshot's index holds are forgotten: so in a streaming write the state holds about
 *       the keys of the last commit intervals, and in a batch write (one commit at the end) every
 *       new key of the run.
 * </ul>
 *
 * <p>The memory is trusted only while its view id equals the state's, as in {@link WriteBucketFn}:
 * otherwise it is rebuilt from the latest index plus the pending assignments. Memory: about 9 to 18
 * bytes a key of the assigner in each partition it has seen, for as long as the worker hosts the
 * assigner.
 */
final class AssignHashBucketFn extends DoFn<KV<String, KindedRow>, KV<String, KindedRow>> {
  private static final long serialVersionUID = 1L;

  /** New keys between two checks of which pending assignments the table's index holds. */
  static final int DEFAULT_FORGET_CHECK_EVERY = 4096;

  /** The key of the rows of assigner {@code a}. */
  static String keyOf(int assigner) {
    return "assigner-" + assigner;
  }

  private final TableReference target;
  private final int forgetCheckEvery;

  @StateId("view")
  private final StateSpec<ValueState<String>> viewSpec = StateSpecs.value(StringUtf8Coder.of());

  @StateId("partitions")
  private final StateSpec<BagState<KV<Integer, byte[]>>> partitionsSpec =
      StateSpecs.bag(KvCoder.of(VarIntCoder.of(), ByteArrayCoder.of()));

  @StateId("pending")
  private final StateSpec<BagState<PendingKey>> pendingSpec = StateSpecs.bag(PendingKeyCoder.of());

  @StateId("pending-count")
  private final StateSpec<CombiningState<Long, long[], Long>> pendingCountSpec =
      StateSpecs.combining(Sum.ofLongs());

  private transient TableReference.Opened opened;
  private transient SchemaLayouts layouts;
  private transient Map<String, HostedAssigner> assigners;
  private transient String bundleView;

  /**
   * An assigner, the view id it matches, the numbers of its partitions and the snapshot of its last
   * forget check.
   */
  private static final class HostedAssigner {
    final HashBucketAssigner assigner;
    final PartitionNumbers numbers;
    String viewId;
    long checkedSnapshot = -1;

    HostedAssigner(HashBucketAssigner assigner, PartitionNumbers numbers, String viewId) {
      this.assigner = assigner;
      this.numbers = numbers;
      this.viewId = viewId;
    }

    Assignment assignment(PendingKey key) {
      return new Assignment(numbers.partition(key.partition()), key.keyHash(), key.bucket());
    }

    PendingKey pendingKey(Assignment a) {
      return new PendingKey(numbers.numberOf(a.partition()), a.keyHash(), a.bucket());
    }

    List<Assignment> assignments(Iterable<PendingKey> keys) {
      List<Assignment> all = new ArrayList<>();
      for (PendingKey key : keys) {
        all.add(assignment(key));
      }
      return all;
    }
  }

  /** A view id no state ever holds: the memory's while an element is being assigned. */
  private static final String CHANGING = "";

  AssignHashBucketFn(TableReference target, int forgetCheckEvery) {
    this.target = target;
    this.forgetCheckEvery = forgetCheckEvery;
  }

  @Setup
  public void setup() throws IOException {
    opened = target.open();
    layouts = new SchemaLayouts(opened.table());
    assigners = new HashMap<>();
  }

  @StartBundle
  public void startBundle() {
    bundleView = UUID.randomUUID().toString();
  }

  @ProcessElement
  public void process(
      @Element KV<String, KindedRow> element,
      @StateId("view") ValueState<String> view,
      @StateId("partitions") BagState<KV<Integer, byte[]>> partitions,
      @StateId("pending") BagState<PendingKey> pending,
      @StateId("pending-count") CombiningState<Long, long[], Long> pendingCount,
      OutputReceiver<KV<String, KindedRow>> out)
      throws IOException {
    if (layouts.isBehind(element.getValue().schemaId())) {
      // The write evolved the table: the row's key may stand elsewhere in its columns. The
      // assigners rebuild on the latest schema from the index and their state, as after a restart.
      TableReference.Opened reopened = target.open();
      opened.close();
      opened = reopened;
      layouts = new SchemaLayouts(opened.table());
      assigners.clear();
    }
    String key = element.getKey();
    String viewId = view.read();
    HostedAssigner hosted = assigners.get(key);
    if (hosted == null || !Objects.equals(hosted.viewId, viewId)) {
      int number = Integer.parseInt(key.substring(key.indexOf('-') + 1));
      hosted =
          new HostedAssigner(
              opened.table().newHashBucketAssigner(number),
              PartitionNumbers.recorded(partitions),
              viewId);
      hosted.assigner.restore(hosted.assignments(pending.read()));
      assigners.put(key, hosted);
    }
    hosted.viewId = CHANGING;
    RowBucket bucket = hosted.assigner.assign(layouts.valuesOf(element.getValue()));
    List<Assignment> assigned = hosted.assigner.takeNewAssignments();
    for (Assignment a : assigned) {
      int partition = hosted.numbers.numberOf(a.partition(), partitions);
      pending.add(new PendingKey(partition, a.keyHash(), a.bucket()));
    }
    if (assigned.isEmpty()) {
      hosted.viewId = viewId;
    } else {
      pendingCount.add((long) assigned.size());
      WriteMetrics.BUCKETS_ASSIGNED.inc(assigned.size());
      if (!bundleView.equals(viewId)) {
        view.write(bundleView);
      }
      hosted.viewId = bundleView;
      if (pendingCount.read() % forgetCheckEvery == 0) {
        forgetCommitted(hosted, pending, pendingCount);
      }
    }
    out.output(KV.of(bucket.id(), element.getValue()));
  }

  /** Drops the pending assignments the latest snapshot's index holds, if a commit landed. */
  private void forgetCommitted(
      HostedAssigner hosted, BagState<PendingKey> pending, CombiningState<Long, long[], Long> count)
      throws IOException {
    OptionalLong latest = opened.table().snapshots().latestId();
    if (latest.isEmpty() || latest.getAsLong() == hosted.checkedSnapshot) {
      return;
    }
    hosted.checkedSnapshot = latest.getAsLong();
    List<Assignment> all = hosted.assignments(pending.read());
    List<Assignment> kept = hosted.assigner.uncommitted(all);
    if (kept.size() == all.size()) {
      return;
    }
    WriteMetrics.ASSIGNMENTS_FORGOTTEN.inc(all.size() - kept.size());
    pending.clear();
    count.clear();
    for (Assignment a : kept) {
      pending.add(hosted.pendingKey(a));
    }
    count.add((long) kept.size());
  }

  @Teardown
  public void teardown() {
    assigners = null;
    Release.quietly("AssignHashBucketFn: table", opened);
    opened = null;
  }
}
