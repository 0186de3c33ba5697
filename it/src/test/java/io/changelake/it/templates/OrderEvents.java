package io.changelake.it.templates;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Debezium change-event files of orders (order_id, store_id, amount) for the template tests, from a
 * PostgreSQL-like source: each event carries a {@code source.lsn} that grows with every event made
 * in this JVM, as the log position of a later change does.
 */
final class OrderEvents {

  private static final AtomicLong LSN = new AtomicLong(24_000_000);

  static final String COLUMNS = "order_id:BIGINT,store_id:BIGINT,amount:BIGINT";

  private final List<String> lines = new ArrayList<>();

  static String image(long order, long store, long amount) {
    return "{\"order_id\":" + order + ",\"store_id\":" + store + ",\"amount\":" + amount + "}";
  }

  private static String source() {
    return ",\"source\":{\"connector\":\"postgresql\",\"lsn\":" + LSN.addAndGet(8) + "}";
  }

  OrderEvents create(long order, long store, long amount) {
    lines.add(
        "{\"before\":null,\"after\":"
            + image(order, store, amount)
            + ",\"op\":\"c\",\"ts_ms\":1"
            + source()
            + "}");
    return this;
  }

  OrderEvents update(long order, long store, long oldAmount, long newAmount) {
    lines.add(
        "{\"payload\":{\"before\":"
            + image(order, store, oldAmount)
            + ",\"after\":"
            + image(order, store, newAmount)
            + ",\"op\":\"u\",\"ts_ms\":2"
            + source()
            + "}}");
    return this;
  }

  OrderEvents delete(long order, long store, long amount) {
    lines.add(
        "{\"before\":"
            + image(order, store, amount)
            + ",\"after\":null,\"op\":\"d\",\"ts_ms\":3"
            + source()
            + "}");
    return this;
  }

  OrderEvents bad(String line) {
    lines.add(line);
    return this;
  }

  Path writeTo(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.write(file, lines);
  }
}
