package io.changelake.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The demo's input: the order-price-correction story (order 1001, the only order of store 10, costs
 * 100 in the first batch and is corrected to 80 in the second) beside a random stream of orders
 * created, re-priced and deleted, cut into batches; and the truth, SUM and COUNT of the live
 * orders' amounts per store, computed from the events themselves.
 *
 * <p>Each batch is written as a Debezium JSON file twice: once with a before-image on every update
 * (database CDC with full row images) and once without (an upsert-only source), so the demo can
 * show what the {@code input} producer makes of each. Deletes carry their before-image in both.
 */
final class DemoOrders {

  static final long STORY_ORDER = 1001;
  static final long STORY_STORE = 10;
  // Store 10 holds only the story's order, so its line reads as the story: 80, or 180.
  private static final long[] STORES = {11, 12, 13, 14};
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One order row. */
  record Order(long orderId, long storeId, long amount) {}

  /** One change event: op c, u or d, with the images it has. */
  record Event(String op, Order before, Order after) {}

  /** The totals of one store. */
  record Totals(long sum, long count) {}

  private final List<List<Event>> batches = new ArrayList<>();
  private final Map<Long, Order> live = new LinkedHashMap<>();

  /** About {@code events} random events over {@code batchCount} batches, with the story inside. */
  DemoOrders(int events, int batchCount, long seed) {
    Random random = new Random(seed);
    long nextOrder = 2000;
    for (int b = 0; b < batchCount; b++) {
      List<Event> batch = new ArrayList<>();
      batches.add(batch);
      if (b == 0) {
        apply(batch, new Event("c", null, new Order(STORY_ORDER, STORY_STORE, 100)));
      } else if (b == 1) {
        Order old = live.get(STORY_ORDER);
        apply(batch, new Event("u", old, new Order(STORY_ORDER, STORY_STORE, 80)));
      }
      for (int i = 0; i < events / batchCount; i++) {
        int dice = random.nextInt(10);
        List<Long> ids = new ArrayList<>(live.keySet());
        ids.remove(STORY_ORDER);
        if (dice < 5 || ids.size() < 10) {
          long store = STORES[random.nextInt(STORES.length)];
          apply(
              batch, new Event("c", null, new Order(nextOrder++, store, 10 + random.nextInt(190))));
        } else {
          Order old = live.get(ids.get(random.nextInt(ids.size())));
          apply(
              batch,
              dice < 8
                  ? new Event(
                      "u", old, new Order(old.orderId(), old.storeId(), 10 + random.nextInt(190)))
                  : new Event("d", old, null));
        }
      }
    }
  }

  private void apply(List<Event> batch, Event event) {
    batch.add(event);
    if (event.after() != null) {
      live.put(event.after().orderId(), event.after());
    } else {
      live.remove(event.before().orderId());
    }
  }

  int batchCount() {
    return batches.size();
  }

  int eventCount() {
    return batches.stream().mapToInt(List::size).sum();
  }

  /** The truth after all batches: SUM and COUNT of amount per store. */
  Map<Long, Totals> truth() {
    Map<Long, Totals> totals = new TreeMap<>();
    for (Order o : live.values()) {
      totals.merge(
          o.storeId(),
          new Totals(o.amount(), 1),
          (a, b) -> new Totals(a.sum() + b.sum(), a.count() + b.count()));
    }
    return totals;
  }

  /**
   * Writes batch {@code index} as one Debezium JSON event a line; every tenth event inside the
   * {@code {"payload": ...}} envelope, as Kafka Connect's JSON converter with schemas writes them.
   * {@code badEvents} lines that are not valid events are appended, to show the dead letters.
   */
  void writeBatch(int index, boolean beforeImages, int badEvents, Path file) throws IOException {
    StringBuilder lines = new StringBuilder();
    long ts = 1_700_000_000_000L + index * 60_000L;
    int n = 0;
    for (Event e : batches.get(index)) {
      ObjectNode event = JSON.createObjectNode();
      event.set("before", image(e.op().equals("u") && !beforeImages ? null : e.before()));
      event.set("after", image(e.after()));
      event.put("op", e.op()).put("ts_ms", ts + n);
      ObjectNode line = n++ % 10 == 9 ? JSON.createObjectNode().set("payload", event) : event;
      lines.append(JSON.writeValueAsString(line)).append('\n');
    }
    List<String> bad =
        List.of(
            "{\"op\": \"c\", \"after\": {\"order_id\": 9, \"store_id\": 11, \"amount\": \"a lot\"}}",
            "{\"op\": \"c\", \"after\": {\"store_id\": 11, \"amount\": 5}}",
            "{\"op\": \"c\", \"after\": ");
    for (int i = 0; i < badEvents; i++) {
      lines.append(bad.get(i % bad.size())).append('\n');
    }
    Files.createDirectories(file.getParent());
    Files.writeString(file, lines);
  }

  private static ObjectNode image(Order order) {
    if (order == null) {
      return null;
    }
    return JSON.createObjectNode()
        .put("order_id", order.orderId())
        .put("store_id", order.storeId())
        .put("amount", order.amount());
  }
}
