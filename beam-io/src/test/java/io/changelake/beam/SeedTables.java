package io.changelake.beam;

import io.changelake.store.LocalObjectStore;
import io.changelake.table.Orders;
import io.changelake.table.RandomOrderChanges;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.beam.sdk.coders.KvCoder;
import org.apache.beam.sdk.coders.VarLongCoder;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.transforms.Sum;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptors;

/**
 * Test fixture: the orders table written at storage level (our TableWriter and committer), the seed
 * story, random change streams, and the downstream aggregate the story is about.
 */
public final class SeedTables {

  public static final TablePath ORDERS = new TablePath("shop", "orders");

  private SeedTables() {}

  /** Creates the orders table with {@code options} (bucket 2 unless given). */
  public static Table create(LocalObjectStore store, Map<String, String> options)
      throws IOException {
    Map<String, String> withBucket = new HashMap<>(options);
    withBucket.putIfAbsent("bucket", "2");
    return Table.create(store, ORDERS, Orders.schema(withBucket));
  }

  /**
   * The order-price-correction story in two commits: order 1001 of store 10 costs 100, then 80.
   * With {@code completeInput} the correction carries its -U, as database CDC gives it.
   */
  public static void writeSeedStory(Table table, boolean completeInput) throws IOException {
    try (TableWriter writer = table.newWriter()) {
      writer.write(RowKind.INSERT, Orders.row(1001, 10L, 100L));
      table.newCommit("seed").commit(1, writer.prepareCommit(1));
      if (completeInput) {
        writer.write(RowKind.UPDATE_BEFORE, Orders.row(1001, 10L, 100L));
      }
      writer.write(RowKind.UPDATE_AFTER, Orders.row(1001, 10L, 80L));
      table.newCommit("seed").commit(2, writer.prepareCommit(2));
    }
  }

  /**
   * Writes {@link RandomOrderChanges} in {@code commits} commits with our writer and committer,
   * continuing from {@code state} (updated in place) with commit identifiers from {@code
   * firstIdentifier}.
   */
  static void writeRandomChanges(
      Table table, TreeMap<Long, Object[]> state, Random random, long firstIdentifier, int commits)
      throws IOException {
    try (TableWriter writer = table.newWriter()) {
      RandomOrderChanges.write(
          new RandomOrderChanges.Sink<IOException>() {
            @Override
            public void write(RowKind kind, Object[] row) throws IOException {
              writer.write(kind, row);
            }

            @Override
            public void commit(long identifier) throws IOException {
              table.newCommit("random").commit(identifier, writer.prepareCommit(identifier));
            }
          },
          state,
          random,
          firstIdentifier,
          commits);
    }
  }

  /** SUM(amount) GROUP BY store_id over a changelog: adds count, retractions subtract. */
  static PCollection<KV<Long, Long>> sumPerStore(PCollection<Row> changes) {
    return changes
        .apply(
            "SignedAmount",
            MapElements.into(TypeDescriptors.kvs(TypeDescriptors.longs(), TypeDescriptors.longs()))
                .via(
                    row ->
                        KV.of(
                            row.getInt64("store_id"),
                            RowKind.fromShortString(row.getString("_row_kind")).isAdd()
                                ? row.getInt64("amount")
                                : -row.getInt64("amount"))))
        .setCoder(KvCoder.of(VarLongCoder.of(), VarLongCoder.of()))
        .apply("SumPerStore", Sum.longsPerKey());
  }

  /** A change as text with its snapshot: {@code s3 -U[1001, 10, 100]}, to compare multisets. */
  static String change(Row row) {
    return "s"
        + row.getInt64("snapshot")
        + " "
        + row.getString("_row_kind")
        + List.of(row.getInt64("order_id"), row.getInt64("store_id"), row.getInt64("amount"));
  }
}
