package io.changelake.templates;

import java.util.ArrayList;
import java.util.List;

/**
 * Test fixture: PostgreSQL-like Debezium change events in the schema envelope, for the source
 * tables {@code orders}, {@code customers} and {@code visits} the database-mode tests replicate.
 */
public final class DebeziumEnvelopes {

  /** One column of an envelope: name and Connect type. */
  public record Field(String name, String type) {}

  public static final List<Field> ORDERS =
      List.of(
          new Field("order_id", "int64"),
          new Field("store_id", "int64"),
          new Field("amount", "int64"));
  public static final List<Field> CUSTOMERS =
      List.of(
          new Field("customer_id", "int64"),
          new Field("name", "string"),
          new Field("store_id", "int64"));
  public static final List<Field> VISITS =
      List.of(
          new Field("visit_id", "int64"),
          new Field("customer_id", "int64"),
          new Field("page", "string"));

  private DebeziumEnvelopes() {}

  /**
   * An event of source table {@code db.table}.
   *
   * @param before the before-image as a JSON object, or {@code null}
   * @param after the after-image as a JSON object, or {@code null}
   * @param lsn the source position
   * @param snapshot the {@code source.snapshot} flag, or null to leave it out (the op then tells)
   */
  public static String event(
      String db,
      String table,
      List<Field> fields,
      String op,
      String before,
      String after,
      long lsn,
      String snapshot) {
    return "{\"schema\":{\"type\":\"struct\",\"fields\":["
        + struct("before", fields)
        + ","
        + struct("after", fields)
        + "]},\"payload\":{\"before\":"
        + before
        + ",\"after\":"
        + after
        + ",\"op\":\""
        + op
        + "\",\"ts_ms\":1,\"source\":{\"connector\":\"postgresql\",\"db\":\""
        + db
        + "\",\"table\":\""
        + table
        + "\",\"lsn\":"
        + lsn
        + (snapshot == null ? "" : ",\"snapshot\":\"" + snapshot + "\"")
        + "}}}";
  }

  private static String struct(String image, List<Field> fields) {
    List<String> parts = new ArrayList<>();
    for (Field f : fields) {
      parts.add("{\"field\":\"" + f.name() + "\",\"type\":\"" + f.type() + "\"}");
    }
    return "{\"field\":\""
        + image
        + "\",\"type\":\"struct\",\"optional\":true,\"fields\":["
        + String.join(",", parts)
        + "]}";
  }

  public static String order(long id, long store, long amount) {
    return "{\"order_id\":" + id + ",\"store_id\":" + store + ",\"amount\":" + amount + "}";
  }

  public static String customer(long id, String name, long store) {
    return "{\"customer_id\":" + id + ",\"name\":\"" + name + "\",\"store_id\":" + store + "}";
  }

  public static String visit(long id, long customer, String page) {
    return "{\"visit_id\":" + id + ",\"customer_id\":" + customer + ",\"page\":\"" + page + "\"}";
  }
}
