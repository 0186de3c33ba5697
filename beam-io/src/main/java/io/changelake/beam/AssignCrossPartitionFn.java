package io.changelake.beam;

import io.changelake.table.BucketAssigner.RowBucket;
import io.changelake.table.CrossPartitionUpsert;
import io.changelake.table.CrossPartitionUpsert.Placement;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.apache.beam.sdk.coders.ByteArrayCoder;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.KV;

/**
 * The key-index stage of a cross-partition upsert table (a primary key without every partition
 * column, {@code bucket} = -1): keyed by assigner ({@link AssignBucketFn} keys each row by {@link
 * CrossPartitionUpsert#assignerOf}, the key's hash modulo {@code dynamic-bucket.initial-buckets},
 * as Paimon keys its {@code GlobalIndexAssigner}s), it sends each row where Paimon 1.3.1's rule
 * says ({@link CrossPartitionUpsert}): a key that moves partition gets, under deduplicate, a -D in
 * its old partition and its row in a bucket of the new one; under partial-update and aggregation
 * its row goes to its first partition; under first-row it is dropped. Each output row is keyed by
 * its bucket for {@link WriteBucketFn}. The rows of a key are decided in the order they reach this
 * stage: the table has no {@code sequence.field} (Paimon refuses one here), so an unbounded write
 * must state {@code withArrivalOrder()}.
 *
 * <p>The two halves of a move, the -D and the row, go to two buckets, whose writers batch them
 * apart: both carry the move's id ({@link KindedRow#move()}; the assigner's number in the high 24
 * bits, its count of moves in the low 40), their batches list it ({@link WrittenBatch#moves()}),
 * and {@link CommitFn} commits the two batches in one snapshot, as Paimon's Flink sink commits both
 * in one checkpoint: no snapshot shows the key in two partitions or in none. The count is in state,
 * so a retried bundle numbers its moves as the failed one did, and ids never repeat within a job.
 *
 * <p>An assigner in memory bootstraps its key index, on its first row, from the keys of its own in
 * the table's latest snapshot, on the worker's local disk. The keys it places (new keys, moved
 * keys) are in no snapshot until their rows' commit lands, and a commit landing after a bootstrap
 * is not in it: so the state keeps every placement, in order, and an assigner rebuilt (a retried
 * bundle, a key moved to another worker, a restarted job) bootstraps again and lets the placements
 * override what it reads. That also resolves a key a snapshot holds in two partitions, as one an
 * earlier version of this write committed may: it sent a move's -D and row to commits apart.
 *
 * <p>State (portable kinds only; ids are stable: changing them breaks pipeline updates):
 *
 * <ul>
 *   <li>{@code view}: a random id of the bundle whose placements the state records last;
 *   <li>{@code partitions}: each partition the assigner placed a key in, with its number;
 *   <li>{@code placements}: each placement, a {@link KeyPlacement} ({@link KeyPlacementCoder}: the
 *       key's bytes plus 7 bytes). It grows by one entry per new key and per move for as long as
 *       the job keeps its state; nothing is forgotten;
 *   <li>{@code moves}: how many moves the assigner made, the last one's id.
 * </ul>
 *
 * <p>The memory is trusted only while its view id equals the state's, as in {@link
 * AssignHashBucketFn}. Which bucket a new key gets follows Paimon's rule per assigner (the lowest
 * bucket {@code b % n == a} under {@code dynamic-bucket.target-row-num} keys), with the counts of
 * the assigner's bootstrap and placements: with n = 1 the layout is Paimon's; readers never see it
 * (the table has no hash index in this mode), so the rows and changelog do not depend on it.
 */
final class AssignCrossPartitionFn extends DoFn<KV<String, KindedRow>, KV<String, KindedRow>> {
  private static final long serialVersionUID = 1L;

  /** The key of the rows of assigner {@code a}. */
  static String keyOf(int assigner) {
    return "cross-assigner-" + assigner;
  }

  private final TableReference target;

  @StateId("view")
  private final StateSpec<ValueState<String>> viewSpec = StateSpecs.value(StringUtf8Coder.of());

  @StateId("partitions")
  private final StateSpec<BagState<KV<Integer, byte[]>>> partitionsSpec =
      StateSpecs.bag(KvCoder.of(VarIntCoder.of(), ByteArrayCoder.of()));

  @StateId("placements")
  private final StateSpec<BagState<KeyPlacement>> placementsSpec =
      StateSpecs.bag(KeyPlacementCoder.of());

  @StateId("moves")
  private final StateSpec<ValueState<Long>> movesSpec = StateSpecs.value(VarLongCoder.of());

  /** The low bits of a move id that count the assigner's moves. */
  private static final int MOVE_COUNT_BITS = 40;

  private transient TableReference.Opened opened;
  private transient SchemaLayouts layouts;
  private transient Path scratch;
  private transient Map<String, HostedAssigner> assigners;
  private transient String bundleView;

  /** An assigner, the view id it matches and the numbers of its partitions. */
  private static final class HostedAssigner {
    final int number;
    final CrossPartitionUpsert upsert;
    final PartitionNumbers numbers;
    String viewId;

    HostedAssigner(
        int number, CrossPartitionUpsert upsert, PartitionNumbers numbers, String viewId) {
      this.number = number;
      this.upsert = upsert;
      this.numbers = numbers;
      this.viewId = viewId;
    }
  }

  /** A row {@link CrossPartitionUpsert} sends on, before it leaves with its source position. */
  private record Routed(RowKind kind, Object[] values, RowBucket bucket) {}

  /** A view id no state ever holds: the memory's while an element is being assigned. */
  private static final String CHANGING = "";

  AssignCrossPartitionFn(TableReference target) {
    this.target = target;
  }

  @Setup
  public void setup() throws IOException {
    opened = target.open();
    layouts = new SchemaLayouts(opened.table());
    scratch = Files.createTempDirectory("changelake-key-index");
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
      @StateId("placements") BagState<KeyPlacement> placements,
      @StateId("moves") ValueState<Long> moves,
      OutputReceiver<KV<String, KindedRow>> out)
      throws IOException {
    KindedRow row = element.getValue();
    if (layouts.isBehind(row.schemaId())) {
      // The write evolved the table: the assigners rebuild on the latest schema from the table
      // and their state, as after a restart.
      TableReference.Opened reopened = target.open();
      opened.close();
      opened = reopened;
      layouts = new SchemaLayouts(opened.table());
      closeAssigners();
    }
    String key = element.getKey();
    String viewId = view.read();
    HostedAssigner hosted = assigners.get(key);
    if (hosted == null || !Objects.equals(hosted.viewId, viewId)) {
      if (hosted != null) {
        hosted.upsert.close();
      }
      hosted = rebuild(key, viewId, partitions, placements);
      assigners.put(key, hosted);
    }
    hosted.viewId = CHANGING;
    List<Routed> routed = new ArrayList<>(2);
    hosted.upsert.write(
        row.kind(),
        layouts.valuesOf(row),
        (kind, values, bucket) -> routed.add(new Routed(kind, values, bucket)));
    long schemaId = opened.table().schema().id();
    // Two rows are a move: the -D in the key's old partition, then the row in its new one.
    long move = routed.size() == 2 ? nextMove(hosted.number, moves) : KindedRow.NO_MOVE;
    for (int i = 0; i < routed.size(); i++) {
      Routed r = routed.get(i);
      // The row itself, sent last, carries the source position: the position is settled once
      // the row is committed, with the -D it implies.
      PositionRange source = i == routed.size() - 1 ? row.source() : null;
      out.output(
          KV.of(r.bucket().id(), new KindedRow(r.kind(), r.values(), schemaId, source, move)));
    }
    List<Placement> placed = hosted.upsert.takeNewPlacements();
    for (Placement p : placed) {
      int partition = hosted.numbers.numberOf(p.partition(), partitions);
      placements.add(new KeyPlacement(p.key(), p.keyHash(), partition, p.bucket()));
    }
    if (placed.isEmpty()) {
      hosted.viewId = viewId;
    } else {
      WriteMetrics.BUCKETS_ASSIGNED.inc(placed.size());
      if (!bundleView.equals(viewId)) {
        view.write(bundleView);
      }
      hosted.viewId = bundleView;
    }
  }

  /** The id of the assigner's next move, counted in state. */
  private static long nextMove(int assigner, ValueState<Long> moves) {
    Long last = moves.read();
    long count = (last == null ? 0 : last & ((1L << MOVE_COUNT_BITS) - 1)) + 1;
    if (count >= 1L << MOVE_COUNT_BITS) {
      throw new IllegalStateException(
          "assigner " + assigner + " made 2^" + MOVE_COUNT_BITS + " moves, more than ids count");
    }
    long id = ((long) assigner << MOVE_COUNT_BITS) | count;
    moves.write(id);
    return id;
  }

  /** A new assigner of this number, given back the placements of its state. */
  private HostedAssigner rebuild(
      String key,
      String viewId,
      BagState<KV<Integer, byte[]>> partitions,
      BagState<KeyPlacement> placements)
      throws IOException {
    int number = Integer.parseInt(key.substring(key.lastIndexOf('-') + 1));
    HostedAssigner hosted =
        new HostedAssigner(
            number,
            opened.table().newCrossPartitionUpsert(number, scratch.resolve(UUID.randomUUID() + "")),
            PartitionNumbers.recorded(partitions),
            viewId);
    // Mapped as the upsert iterates them: the state's placements never sit in the heap at once.
    Iterable<KeyPlacement> kept = placements.read();
    hosted.upsert.restore(
        () ->
            StreamSupport.stream(kept.spliterator(), false)
                .map(
                    p ->
                        new Placement(
                            p.key(),
                            p.keyHash(),
                            hosted.numbers.partition(p.partition()),
                            p.bucket()))
                .iterator());
    return hosted;
  }

  private void closeAssigners() throws IOException {
    for (HostedAssigner hosted : assigners.values()) {
      hosted.upsert.close();
    }
    assigners.clear();
  }

  @Teardown
  public void teardown() {
    if (assigners != null) {
      Release.each("AssignCrossPartitionFn: key index", assigners.values(), h -> h.upsert);
      assigners = null;
    }
    Path folder = scratch;
    scratch = null;
    if (folder != null) {
      Release.quietly(
          "AssignCrossPartitionFn: key index folder", () -> Files.deleteIfExists(folder));
    }
    Release.quietly("AssignCrossPartitionFn: table", opened);
    opened = null;
  }
}
