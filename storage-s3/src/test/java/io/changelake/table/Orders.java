package io.changelake.table;

import io.changelake.schema.TableSchema;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.util.List;
import java.util.Map;

/**
 * Test fixture: the conformance table {@code orders(order_id BIGINT NOT NULL PRIMARY KEY, store_id
 * BIGINT, amount BIGINT)}.
 */
public final class Orders {

  public static final RowType ROW_TYPE =
      RowType.of(
          new String[] {"order_id", "store_id", "amount"},
          new DataType[] {DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()});

  private Orders() {}

  public static TableSchema schema(Map<String, String> options) {
    return TableSchema.create(ROW_TYPE, List.of(), List.of("order_id"), options, null);
  }

  public static Object[] row(long orderId, Long storeId, Long amount) {
    return new Object[] {orderId, storeId, amount};
  }
}
