package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.BinaryRowCodec;
import io.changelake.schema.TableSchema;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The partition a row goes to is its own, whatever the rows before it: the assigner keeps the last
 * row's partition for the rows that share it, and must never hand it to a row that does not.
 */
class BucketAssignerTest {

  private static final RowType ROWS =
      RowType.of(
          new String[] {"id", "dt", "price", "ratio"},
          new DataType[] {
            DataType.bigint().notNull(),
            DataType.string().notNull(),
            DataType.decimal(6, 2).notNull(),
            DataType.doubleType().notNull()
          });

  @Test
  void everyRowGetsItsOwnPartitionWhenPartitionsAlternate() throws Exception {
    TableSchema schema =
        TableSchema.create(
            ROWS,
            List.of("dt", "price", "ratio"),
            List.of("dt", "price", "ratio", "id"),
            Map.of("bucket", "2"),
            null);
    BucketAssigner assigner = new BucketAssigner(schema, "test.db/t");
    BinaryRowCodec partitions = new BinaryRowCodec(schema.partitionType());
    double otherNaN = Double.longBitsToDouble(0x7ff8000000000001L);
    Object[][] rows = {
      {1L, "2026-12-01", new BigDecimal("1.5"), 0.5},
      {2L, "2026-12-01", new BigDecimal("1.5"), 0.5},
      {3L, "2026-12-02", new BigDecimal("1.5"), 0.5},
      {4L, "2026-12-01", new BigDecimal("1.5"), 0.5},
      // The same decimal at another scale: the same bytes, but a folder named as given.
      {5L, "2026-12-01", new BigDecimal("1.50"), 0.5},
      // NaNs that Double.equals calls equal, with other bits.
      {6L, "2026-12-01", new BigDecimal("1.5"), Double.NaN},
      {7L, "2026-12-01", new BigDecimal("1.5"), otherNaN},
    };
    for (Object[] row : rows) {
      BucketAssigner.RowBucket target = assigner.assign(row);
      Object[] partition = {row[1], row[2], row[3]};
      assertArrayEquals(partitions.encode(partition), target.partition().bytes(), "row " + row[0]);
      assertEquals(
          TablePath.partitionPath(
              schema.partitionType(), partition, schema.options().partitionDefaultName()),
          target.partitionPath(),
          "row " + row[0]);
    }
  }
}
