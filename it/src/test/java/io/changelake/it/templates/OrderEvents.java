package io.changelake.it.templates;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Debezium change-event files of orders (order_id, store_id, amount) for the template tests. */
final class OrderEvents {

  static final String COLUMNS = "order_id:BIGINT,store_id:BIGINT,amount:BIGINT";

  private final List<String> lines = new ArrayList<>();

  static String image(long order, long store, long amount) {
    return "{\"order_id\":" + order + ",\"store_id\":" + store + ",\"amount\":" + amount + "}";
  }

  OrderEvents create(long order, long store, long amount) {
    lines.add("{\"before\":null,\"after\":" + image(order, store, amount) + ",\"op\":\"c\",\"ts_ms\":1}");
    return this;
  }

  OrderEvents update(long order, long store, long oldAmount, long newAmount) {
    lines.add("{\"payload\":{\"before\":" + image(order, store, oldAmount) + ",\"after\":"
        + image(order, store, newAmount) + ",\"op\":\"u\",\"ts_ms\":2}}");
    return this;
  }

  OrderEvents delete(long order, long store, long amount) {
    lines.add("{\"before\":" + image(order, store, amount) + ",\"after\":null,\"op\":\"d\",\"ts_ms\":3}");
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
