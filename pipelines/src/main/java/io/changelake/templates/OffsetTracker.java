package io.changelake.templates;

import io.changelake.beam.Release;
import io.changelake.beam.SourcePosition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.ListCoder;
import org.apache.beam.sdk.coders.MapCoder;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Gauge;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.state.StateSpec;
import org.apache.beam.sdk.state.StateSpecs;
import org.apache.beam.sdk.state.TimeDomain;
import org.apache.beam.sdk.state.Timer;
import org.apache.beam.sdk.state.TimerSpec;
import org.apache.beam.sdk.state.TimerSpecs;
import org.apache.beam.sdk.state.ValueState;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PDone;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Commits to the consumer group, per Kafka topic-partition, the offset up to which the template is
 * done with every record: settled ranges ({@link SourcePosition#SETTLED_SCHEMA}) come from the
 * table write once the snapshot holding their rows is committed, and from the parse step for
 * records that never reach the table (tombstones, bad events, events that change nothing); the
 * group's offset only moves over a run of settled offsets, so it never passes a record whose change
 * is not in a committed snapshot or the dead letters. Ranges come in any order and may come twice.
 *
 * <p>Offsets Kafka itself leaves unused (transaction markers, records removed by compaction or
 * retention) never settle: at a gap before the lowest settled range, the tracker asks Kafka for the
 * first record at or after the gap's start. None before the range means the gap is empty and the
 * offset moves over it; a record there is one still on its way through the pipeline, and the offset
 * moves up to it and waits for it to settle, without asking again until it has.
 *
 * <p>One key per topic-partition, portable state only: {@code next} (the next offset to read,
 * committed to the group), {@code pending} (settled ranges past a gap), {@code waiting-for} (a
 * record known to exist in the gap) and {@code identifiers} (per table, by its location, the newest
 * commit identifier settled, written into the group commit's metadata as {@code changelake table
 * <location> commit <id>}, see {@link #metadata}; in the database mode of {@link CdcToTable} the
 * tables' identifiers are their own, so each names its table). The first range of a partition
 * starts it at the group's committed offset, or at the partition's beginning if the group has none.
 *
 * <p>Metrics in {@code changelake.templates}: counters {@code offsetCommits} and {@code
 * offsetGapsResolved}; and, for an operator to see a partition whose offset is held (settled
 * offsets wait behind a record whose table commit has not come, or behind a gap Kafka did not
 * explain within the wait), counters that go up and down: {@code heldPartitions}, the partitions
 * held now, and {@code heldOffsets}, the settled offsets waiting behind their gaps now; and the
 * gauge {@code heldMillis}, the age of the hold of the partition that reported last (0 once it is
 * released; read it while {@code heldPartitions} is above 0). A held partition is looked at again
 * when its next settled range arrives, and every 10 s without one (a gap Kafka did not explain is
 * asked again; the age is reported). The tracker sees only settled offsets: records read but not
 * settled yet, with nothing settled after them, hold nothing here; the group's lag (end offset
 * minus committed offset, from Kafka's own tools) shows those.
 */
final class OffsetTracker extends PTransform<PCollection<Row>, PDone> {
  private static final long serialVersionUID = 1L;

  private final KafkaSource source;

  OffsetTracker(KafkaSource source) {
    this.source = source;
  }

  @Override
  public PDone expand(PCollection<Row> settled) {
    settled
        .apply(
            "ByPartition",
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.strings(), TypeDescriptors.rows()))
                .via((Row r) -> KV.of(r.getString("partition"), r)))
        .setCoder(KvCoder.of(StringUtf8Coder.of(), RowCoder.of(SourcePosition.SETTLED_SCHEMA)))
        .apply("CommitOffsets", ParDo.of(new TrackFn(source)));
    return PDone.in(settled.getPipeline());
  }

  /**
   * At launch, so that the reader and the tracker start at the same offset: for each partition the
   * group has no offset for, commits the start {@code --startingOffsets} names: {@code latest} the
   * partition's end, a time the offset of the first record at or after it (the end if none). {@code
   * earliest} (the default) commits nothing, and the reader starts such a partition at its
   * beginning, as it does a partition that appears later (through {@code --topicPattern}).
   */
  static void placeGroup(KafkaSource source, Duration timeout) {
    if (source.startsEarliest()) {
      return;
    }
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(
            source.consumerConfig(true),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = source.partitions(consumer, timeout);
      Map<TopicPartition, OffsetAndMetadata> committed =
          consumer.committed(new HashSet<>(partitions), timeout);
      List<TopicPartition> unplaced =
          partitions.stream().filter(p -> committed.get(p) == null).toList();
      if (unplaced.isEmpty()) {
        return;
      }
      Map<TopicPartition, Long> ends = consumer.endOffsets(unplaced, timeout);
      Map<TopicPartition, OffsetAndTimestamp> atTime = new HashMap<>();
      if (source.startTime() != null) {
        Map<TopicPartition, Long> times = new HashMap<>();
        unplaced.forEach(p -> times.put(p, source.startTime().toEpochMilli()));
        atTime.putAll(consumer.offsetsForTimes(times, timeout));
      }
      Map<TopicPartition, OffsetAndMetadata> start = new HashMap<>();
      for (TopicPartition p : unplaced) {
        OffsetAndTimestamp found = atTime.get(p);
        start.put(
            p,
            new OffsetAndMetadata(
                found != null ? found.offset() : ends.get(p),
                "changelake start "
                    + (source.startTime() != null ? source.startTime() : "latest")));
      }
      consumer.commitSync(start, timeout);
    }
  }

  /** The Kafka partition of a position's {@code partition}: {@code <topic>-<partition>}. */
  static TopicPartition partitionOf(String position) {
    int dash = position.lastIndexOf('-');
    return new TopicPartition(
        position.substring(0, dash), Integer.parseInt(position.substring(dash + 1)));
  }

  /**
   * The next offset to read after merging the settled ranges: moves over every range that starts at
   * or before it, and over gaps that {@code kafka} finds empty.
   */
  static long advance(long next, List<KV<Long, Long>> pending, Gaps kafka) {
    pending.sort(Comparator.comparingLong(KV::getKey));
    while (!pending.isEmpty()) {
      KV<Long, Long> first = pending.get(0);
      if (first.getKey() <= next) {
        next = Math.max(next, first.getValue() + 1);
        pending.remove(0);
        continue;
      }
      long found = kafka.firstRecordFrom(next, first.getKey());
      if (found < next) {
        return next;
      }
      if (found >= first.getKey()) {
        next = first.getKey();
        continue;
      }
      return found;
    }
    return next;
  }

  /**
   * The metadata of a group commit: {@code changelake table <table> commit <id>} for each table the
   * partition feeds (one, as Debezium writes one topic per source table), with the newest commit
   * identifier settled in it, joined by {@code ; }; {@code changelake} before any table commit. The
   * identifiers of two tables are not comparable, so each is named with its table.
   */
  static String metadata(Map<String, Long> newestByTable) {
    if (newestByTable == null || newestByTable.isEmpty()) {
      return "changelake";
    }
    List<String> parts = new ArrayList<>();
    new TreeMap<>(newestByTable)
        .forEach((table, id) -> parts.add("changelake table " + table + " commit " + id));
    return String.join("; ", parts);
  }

  /** What the tracker asks Kafka about a gap. */
  interface Gaps {
    /**
     * The offset of the first record at or after {@code from}, at least {@code until} if there is
     * none before it, or -1 if Kafka does not tell within the wait.
     */
    long firstRecordFrom(long from, long until);
  }

  static final class TrackFn extends DoFn<KV<String, Row>, Void> {
    private static final long serialVersionUID = 1L;

    private static final Duration POLL_WAIT = Duration.ofSeconds(2);

    /** How often a held partition is looked at again while no new range arrives. */
    private static final org.joda.time.Duration RECHECK =
        org.joda.time.Duration.standardSeconds(10);

    private final KafkaSource source;
    private final Counter commits = Metrics.counter("changelake.templates", "offsetCommits");
    private final Counter gaps = Metrics.counter("changelake.templates", "offsetGapsResolved");
    private final Counter heldPartitions =
        Metrics.counter("changelake.templates", "heldPartitions");
    private final Counter heldOffsets = Metrics.counter("changelake.templates", "heldOffsets");
    private final Gauge heldMillis = Metrics.gauge("changelake.templates", "heldMillis");

    @StateId("next")
    private final StateSpec<ValueState<Long>> nextSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("pending")
    private final StateSpec<ValueState<List<KV<Long, Long>>>> pendingSpec =
        StateSpecs.value(ListCoder.of(KvCoder.of(VarLongCoder.of(), VarLongCoder.of())));

    @StateId("waiting-for")
    private final StateSpec<ValueState<Long>> waitingSpec = StateSpecs.value(VarLongCoder.of());

    @StateId("identifiers")
    private final StateSpec<ValueState<Map<String, Long>>> identifiersSpec =
        StateSpecs.value(MapCoder.of(StringUtf8Coder.of(), VarLongCoder.of()));

    /** While settled offsets wait behind a gap: since when (millis), and how many it reported. */
    @TimerId("recheck")
    private final TimerSpec recheckSpec = TimerSpecs.timer(TimeDomain.PROCESSING_TIME);

    @StateId("held")
    private final StateSpec<ValueState<KV<Long, Long>>> heldSpec =
        StateSpecs.value(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()));

    private transient Consumer<byte[], byte[]> consumer;

    TrackFn(KafkaSource source) {
      this.source = source;
    }

    @Setup
    public void setup() {
      consumer =
          new KafkaConsumer<>(
              source.consumerConfig(true),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer());
    }

    @ProcessElement
    public void process(
        @Element KV<String, Row> element,
        @StateId("next") ValueState<Long> nextState,
        @StateId("pending") ValueState<List<KV<Long, Long>>> pendingState,
        @StateId("waiting-for") ValueState<Long> waitingState,
        @StateId("identifiers") ValueState<Map<String, Long>> identifierState,
        @StateId("held") ValueState<KV<Long, Long>> heldState,
        @TimerId("recheck") Timer recheck) {
      TopicPartition partition = partitionOf(element.getKey());
      Row range = element.getValue();
      Long identifier = range.getInt64("commit_identifier");
      if (identifier != null) {
        Map<String, Long> newest =
            new TreeMap<>(identifierState.read() == null ? Map.of() : identifierState.read());
        newest.merge(range.getString("table"), identifier, Math::max);
        identifierState.write(newest);
      }
      long start = nextState.read() != null ? nextState.read() : startOf(partition);
      List<KV<Long, Long>> pending =
          new ArrayList<>(pendingState.read() == null ? List.of() : pendingState.read());
      long last = range.getInt64("last_offset");
      if (last >= start) {
        pending.add(KV.of(Math.max(start, range.getInt64("first_offset")), last));
      }
      track(partition, start, pending, nextState, pendingState, waitingState, identifierState);
      reportHeld(nextState.read(), pendingState.read(), heldState, recheck);
    }

    /**
     * A held partition, looked at again without a new range: a gap Kafka did not explain may be
     * explained now, and the hold's age is reported.
     */
    @OnTimer("recheck")
    public void onRecheck(
        @Key String key,
        @StateId("next") ValueState<Long> nextState,
        @StateId("pending") ValueState<List<KV<Long, Long>>> pendingState,
        @StateId("waiting-for") ValueState<Long> waitingState,
        @StateId("identifiers") ValueState<Map<String, Long>> identifierState,
        @StateId("held") ValueState<KV<Long, Long>> heldState,
        @TimerId("recheck") Timer recheck) {
      Long start = nextState.read();
      List<KV<Long, Long>> pending = pendingState.read();
      if (start == null || pending == null || pending.isEmpty()) {
        return;
      }
      track(
          partitionOf(key),
          start,
          new ArrayList<>(pending),
          nextState,
          pendingState,
          waitingState,
          identifierState);
      reportHeld(nextState.read(), pendingState.read(), heldState, recheck);
    }

    /** Moves the partition's offset from {@code start} over {@code pending}, and commits it. */
    private void track(
        TopicPartition partition,
        long start,
        List<KV<Long, Long>> pending,
        ValueState<Long> nextState,
        ValueState<List<KV<Long, Long>>> pendingState,
        ValueState<Long> waitingState,
        ValueState<Map<String, Long>> identifierState) {
      Long waiting = waitingState.read();
      long[] inGap = {-1};
      long next =
          advance(
              start,
              pending,
              (from, until) -> {
                // A record known to be on its way sits in the gap: no need to ask again.
                if (waiting != null && waiting >= from && waiting < until) {
                  inGap[0] = waiting;
                  return waiting;
                }
                long found = firstRecordFrom(partition, from, until);
                if (found >= until) {
                  gaps.inc();
                } else if (found >= from) {
                  inGap[0] = found;
                }
                return found;
              });
      pendingState.write(pending);
      if (inGap[0] >= 0 && inGap[0] == next) {
        waitingState.write(next);
      } else {
        waitingState.clear();
      }
      if (nextState.read() == null || next > nextState.read()) {
        nextState.write(next);
        consumer.commitSync(
            Map.of(partition, new OffsetAndMetadata(next, metadata(identifierState.read()))));
        commits.inc();
      }
    }

    /**
     * Keeps the held metrics current: {@code heldPartitions} and {@code heldOffsets} move up and
     * down with this partition's hold (so their sums over all partitions are the holds of now),
     * {@code heldMillis} is set to its hold's age.
     */
    private void reportHeld(
        long next, List<KV<Long, Long>> pending, ValueState<KV<Long, Long>> held, Timer recheck) {
      KV<Long, Long> before = held.read();
      long reported = before == null ? 0 : before.getValue();
      if (pending.isEmpty()) {
        if (before != null) {
          heldPartitions.dec();
          heldOffsets.dec(reported);
          heldMillis.set(0);
          held.clear();
        }
        return;
      }
      // Distinct offsets: a range may come twice. advance() left the ranges sorted by start.
      long waiting = 0;
      long counted = next;
      for (KV<Long, Long> range : pending) {
        long from = Math.max(counted, range.getKey());
        if (range.getValue() >= from) {
          waiting += range.getValue() - from + 1;
          counted = range.getValue() + 1;
        }
      }
      long now = System.currentTimeMillis();
      long since = before == null ? now : before.getKey();
      if (before == null) {
        heldPartitions.inc();
      }
      heldOffsets.inc(waiting - reported);
      heldMillis.set(now - since);
      held.write(KV.of(since, waiting));
      recheck.offset(RECHECK).setRelative();
    }

    /** Where the group left the partition, or its beginning if the group never read it. */
    private long startOf(TopicPartition partition) {
      OffsetAndMetadata committed = consumer.committed(Set.of(partition)).get(partition);
      return committed != null
          ? committed.offset()
          : consumer.beginningOffsets(List.of(partition)).get(partition);
    }

    private long firstRecordFrom(TopicPartition partition, long from, long until) {
      consumer.assign(List.of(partition));
      consumer.seek(partition, from);
      long deadline = System.nanoTime() + POLL_WAIT.toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          if (record.offset() >= from) {
            return Math.min(record.offset(), until);
          }
        }
        // Transaction markers and removed records move the position without a record.
        if (consumer.position(partition) >= until) {
          return until;
        }
      }
      return -1;
    }

    @Teardown
    public void teardown() {
      Release.quietly("CommitOffsets: Kafka consumer", consumer);
      consumer = null;
    }
  }
}
