package io.changelake.beam;

import io.changelake.format.SerializedRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.state.BagState;
import org.apache.beam.sdk.values.KV;

/**
 * The numbers an assigner stage ({@link AssignHashBucketFn}, {@link AssignCrossPartitionFn}) gives
 * the partitions it has seen, so that each key its state records names its partition in a byte or
 * two: the stage's {@code partitions} bag state holds each (number, partition bytes) once, and an
 * assigner rebuilt from state reads them all back. Not thread-safe.
 */
final class PartitionNumbers {
  private final Map<SerializedRow, Integer> numbers = new HashMap<>();
  private final List<SerializedRow> partitions = new ArrayList<>();

  /** The numbering a stage's state recorded. */
  static PartitionNumbers recorded(BagState<KV<Integer, byte[]>> state) {
    PartitionNumbers numbering = new PartitionNumbers();
    for (KV<Integer, byte[]> p : state.read()) {
      numbering.put(p.getKey(), new SerializedRow(p.getValue()));
    }
    return numbering;
  }

  /** A partition's number; a partition seen for the first time gets the next one, in state. */
  int numberOf(SerializedRow partition, BagState<KV<Integer, byte[]>> state) {
    Integer number = numbers.get(partition);
    if (number == null) {
      number = numbers.size();
      put(number, partition);
      state.add(KV.of(number, partition.bytes()));
    }
    return number;
  }

  /** The number of a partition already numbered. */
  int numberOf(SerializedRow partition) {
    return numbers.get(partition);
  }

  /** The partition of a number. */
  SerializedRow partition(int number) {
    return partitions.get(number);
  }

  private void put(int number, SerializedRow partition) {
    numbers.put(partition, number);
    while (partitions.size() <= number) {
      partitions.add(null);
    }
    partitions.set(number, partition);
  }
}
