package io.changelake.beam;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import io.changelake.table.HashBucketAssigner;
import io.changelake.table.HashBucketAssigner.Assignment;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowType;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures what {@link AssignHashBucketFn} holds per key of a dynamic-bucket table: the heap of its
 * assigner after a collection, and the bytes of its Beam state in the worst case, a batch write in
 * which every key is new and none is committed yet (a {@link PendingKey} a key, all in partition
 * number 0). Prints, asserts nothing about the figures. Off by default (minutes and a large heap):
 * {@code mvn -B -o -pl beam-io -am test -Dtest=DynamicBucketStateTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Ddynbucket.beam.keys=10000000 -DargLine=-Xmx3g}.
 */
class DynamicBucketStateTest {

  @TempDir Path warehouse;

  @Test
  void heapAndStateBytesPerKeyOfOneAssigner() throws Exception {
    String property = System.getProperty("dynbucket.beam.keys");
    assumeTrue(property != null, "set -Ddynbucket.beam.keys=N to measure");
    int keys = Integer.parseInt(property);
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string())));
    TableSchema schema =
        TableSchema.create(
            rowType, List.of("day"), List.of("day", "id"), Map.of("bucket", "-1"), null);
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, new TablePath("db", "t"), schema);
      long before = usedAfterGc();
      HashBucketAssigner assigner = table.newHashBucketAssigner(0);
      ByteArrayOutputStream encoded = new ByteArrayOutputStream();
      long stateBytes = 0;
      Random random = new Random(1);
      Object[] row = {20260101, 0L, "v"};
      long start = System.nanoTime();
      for (int i = 0; i < keys; i++) {
        row[1] = random.nextLong();
        assigner.assign(row);
        for (Assignment a : assigner.takeNewAssignments()) {
          encoded.reset();
          PendingKeyCoder.of().encode(new PendingKey(0, a.keyHash(), a.bucket()), encoded);
          stateBytes += encoded.size();
        }
      }
      long nanos = System.nanoTime() - start;
      long held = usedAfterGc() - before;
      System.out.printf(
          "RESULT keys=%d assigner_heap_bytes_per_key=%.1f state_bytes_per_key=%.1f"
              + " assign_keys_per_s=%.0f%n",
          keys, (double) held / keys, (double) stateBytes / keys, keys / (nanos / 1e9));
      // Keeps the assigner reachable until it is measured.
      System.out.println("bucket of a last key: " + assigner.assign(row).bucket());
    }
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
