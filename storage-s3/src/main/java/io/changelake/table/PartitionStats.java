package io.changelake.table;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.format.SimpleStats;
import io.changelake.types.RowComparator;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The partition statistics of a manifest, as Paimon records them in the manifest list: per
 * partition column the least and greatest value and the count of nulls over the manifest's entries,
 * so that a reader filtering on partitions can skip the whole manifest.
 */
final class PartitionStats {

  private final RowType partitionType;
  private final BinaryRowCodec codec;
  private final RowComparator order;

  PartitionStats(RowType partitionType) {
    this.partitionType = partitionType;
    this.codec = new BinaryRowCodec(partitionType);
    this.order = new RowComparator(partitionType);
  }

  /** The statistics of the partitions of {@code entries}; empty rows for an unpartitioned table. */
  SimpleStats of(List<ManifestEntry> entries) {
    int fields = partitionType.size();
    if (fields == 0) {
      SerializedRow empty = new SerializedRow(codec.encode(new Object[0]));
      return new SimpleStats(empty, empty, List.of());
    }
    Object[] min = new Object[fields];
    Object[] max = new Object[fields];
    long[] nulls = new long[fields];
    // Many entries share a partition: decode each partition once.
    Map<SerializedRow, Object[]> decoded = new HashMap<>();
    for (ManifestEntry e : entries) {
      Object[] values = decoded.computeIfAbsent(e.partition(), p -> codec.decode(p.bytes()));
      for (int i = 0; i < fields; i++) {
        Object v = values[i];
        if (v == null) {
          nulls[i]++;
          continue;
        }
        if (min[i] == null || order.compareField(i, v, min[i]) < 0) {
          min[i] = v;
        }
        if (max[i] == null || order.compareField(i, v, max[i]) > 0) {
          max[i] = v;
        }
      }
    }
    List<Long> nullCounts = new ArrayList<>(fields);
    for (long n : nulls) {
      nullCounts.add(n);
    }
    return new SimpleStats(
        new SerializedRow(codec.encode(min)), new SerializedRow(codec.encode(max)), nullCounts);
  }
}
