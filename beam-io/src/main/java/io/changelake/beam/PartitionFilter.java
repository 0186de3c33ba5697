package io.changelake.beam;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.SerializedRow;
import io.changelake.table.Table;
import java.io.Serializable;
import java.util.function.Predicate;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;

/**
 * Which partitions a read takes: the user's predicate over a Row of the partition columns, applied
 * when tasks are planned, so a skipped partition costs no file read.
 */
final class PartitionFilter implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Schema partitionSchema;
  private final SerializableFunction<Row, Boolean> predicate;

  private PartitionFilter(Schema partitionSchema, SerializableFunction<Row, Boolean> predicate) {
    this.partitionSchema = partitionSchema;
    this.predicate = predicate;
  }

  /**
   * The partitions of {@code table} for which {@code predicate} holds, given a Row of the partition
   * columns; every partition if the predicate is null.
   *
   * @throws IllegalArgumentException if a predicate is given for an unpartitioned table
   */
  static PartitionFilter forTable(Table table, SerializableFunction<Row, Boolean> predicate) {
    if (predicate == null) {
      return new PartitionFilter(null, null);
    }
    if (table.schema().partitionKeys().isEmpty()) {
      throw new IllegalArgumentException(
          "table " + table.location() + " has no partition columns: drop the partition filter");
    }
    return new PartitionFilter(
        BeamSchemaMapping.schemaOf(table.schema().partitionType()), predicate);
  }

  /** The filter over the serialized partition values of {@code table}. */
  Predicate<SerializedRow> bind(Table table) {
    if (predicate == null) {
      return partition -> true;
    }
    BinaryRowCodec codec = new BinaryRowCodec(table.schema().partitionType());
    return partition -> {
      Row values =
          Row.withSchema(partitionSchema).addValues(codec.decode(partition.bytes())).build();
      return Boolean.TRUE.equals(predicate.apply(values));
    };
  }
}
