package io.changelake.table;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.changelake.format.HashIndexFile;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures the memory of a dynamic-bucket writer's hash index: heap per key held by {@link
 * DynamicBuckets} after assigning many distinct keys in one partition, and bytes per key of the
 * index files written. Prints, asserts nothing about the figures. Off by default (minutes and a
 * large heap): {@code mvn -B -o test -pl storage-s3 -Dtest=DynamicBucketsScaleTest
 * -Ddynbucket.keys=10000000 -DargLine=-Xmx2g}.
 */
class DynamicBucketsScaleTest {

  @TempDir Path warehouse;

  @Test
  void heapAndIndexBytesPerKey() throws Exception {
    String property = System.getProperty("dynbucket.keys");
    assumeTrue(property != null, "set -Ddynbucket.keys=N to measure");
    int keys = Integer.parseInt(property);
    TableSchema schema = Orders.schema(Map.of("bucket", "-1"));
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      HashIndexFile files = new HashIndexFile(store, "index/");
      long before = usedAfterGc();
      DynamicBuckets buckets = new DynamicBuckets(schema.options(), List::of, files);
      SerializedRow partition = new SerializedRow(new byte[12]);
      Random random = new Random(1);
      long start = System.nanoTime();
      for (int i = 0; i < keys; i++) {
        buckets.assign(partition, random.nextInt());
      }
      long assignNanos = System.nanoTime() - start;
      long held = usedAfterGc() - before;
      long indexBytes = 0;
      for (var meta : buckets.writeChanged().values()) {
        indexBytes += meta.fileSize();
      }
      System.out.printf(
          "RESULT keys=%d heap_bytes_per_key=%.1f index_bytes_per_key=%.1f assign_keys_per_s=%.0f"
              + "%n",
          keys, (double) held / keys, (double) indexBytes / keys, keys / (assignNanos / 1e9));
      // Keeps the index reachable until it is measured.
      System.out.println("buckets assigned to a last key: " + buckets.assign(partition, 42));
    }
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
