package io.changelake.beam;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.CrossPartitionUpsert;
import io.changelake.table.CrossPartitionUpsert.Placement;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures what {@link AssignCrossPartitionFn} holds per key of a cross-partition upsert table
 * (BIGINT key, 8 day partitions): the bytes of its Beam state ({@link KeyPlacementCoder}, one entry
 * per new key and per move, as the stage adds them), the heap of its assigner after a collection,
 * and its key index on local disk, for N new keys and then N / 10 of them moving to another day.
 * Prints, asserts nothing about the figures. Off by default: {@code mvn -B -o -pl beam-io -am test
 * -Dtest=CrossPartitionStateTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dcrosspart.beam.keys=1000000}.
 */
class CrossPartitionStateTest {

  @TempDir Path warehouse;

  @Test
  void stateHeapAndDiskBytesPerKeyOfOneAssigner() throws Exception {
    String property = System.getProperty("crosspart.beam.keys");
    assumeTrue(property != null, "set -Dcrosspart.beam.keys=N to measure");
    int keys = Integer.parseInt(property);
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string())));
    TableSchema schema =
        TableSchema.create(rowType, List.of("day"), List.of("id"), Map.of("bucket", "-1"), null);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "t"), schema);
      Path folder = warehouse.resolve("key-index");
      long before = usedAfterGc();
      try (CrossPartitionUpsert upsert = table.newCrossPartitionUpsert(0, folder)) {
        Map<Object, Integer> partitionNumbers = new HashMap<>();
        ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        long[] stateBytes = new long[2];
        long start = System.nanoTime();
        for (int pass = 0; pass < 2; pass++) {
          // Pass 0: every key new; pass 1: a tenth of them move to the next day.
          Random ids = new Random(2);
          int rows = pass == 0 ? keys : keys / 10;
          for (int i = 0; i < rows; i++) {
            long id = ids.nextLong();
            Object[] row = {20260101 + (int) Math.floorMod(id + pass, 8L), id, "v"};
            upsert.write(RowKind.INSERT, row, (kind, values, bucket) -> {});
            for (Placement p : upsert.takeNewPlacements()) {
              int number =
                  partitionNumbers.computeIfAbsent(p.partition(), k -> partitionNumbers.size());
              encoded.reset();
              KeyPlacementCoder.of()
                  .encode(new KeyPlacement(p.key(), p.keyHash(), number, p.bucket()), encoded);
              stateBytes[pass] += encoded.size();
            }
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long held = usedAfterGc() - before;
        System.out.printf(
            "RESULT keys=%d state_bytes_per_new_key=%.1f state_bytes_per_move=%.1f"
                + " assigner_heap_bytes_per_key=%.1f index_disk_bytes_per_key=%.1f"
                + " rows_per_s=%.0f%n",
            keys,
            (double) stateBytes[0] / keys,
            (double) stateBytes[1] / (keys / 10),
            (double) held / keys,
            (double) sizeOf(folder) / keys,
            (keys + keys / 10) / seconds);
      }
    }
  }

  private static long sizeOf(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      long total = 0;
      for (Path f : files.toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
