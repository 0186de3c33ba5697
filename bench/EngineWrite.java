import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.SnapshotCommit;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.table.TableWriter;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The workload of {@code bench/pinned-ab}: writes of 2,000,000 upserts over 500,000 keys into one
 * bucket of a new table on local disk, a commit every 200,000, one after another in this JVM, and
 * prints for each the CPU time of the writing thread and of the process and the bytes every thread
 * allocated per row. It uses only the storage engine's public API, so one source serves any two
 * revisions being compared.
 *
 * <p>Arguments: the changelog producer, the number of writes, and table options as {@code
 * key=value,key=value} ({@code -} for none), e.g. {@code lookup 6 merge-engine=first-row}. Among
 * them, {@code bench.key=order_id+shard} is no table option: it adds a column {@code shard =
 * order_id % 4} (NOT NULL) and keys the table by both columns, the same rows otherwise.
 */
public final class EngineWrite {

  private static final int ROWS = 2_000_000;
  private static final int KEYS = 500_000;
  private static final int COMMIT_EVERY = 200_000;

  /** The workload's own option: the primary key, {@code order_id} or {@code order_id+shard}. */
  private static final String KEY_OPTION = "bench.key";

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException(
          "usage: EngineWrite <changelog-producer> <writes> <key=value,...|->");
    }
    Map<String, String> options = new HashMap<>();
    options.put("bucket", "1");
    options.put("changelog-producer", args[0]);
    if (!args[2].equals("-")) {
      for (String option : args[2].split(",")) {
        String[] keyValue = option.split("=", 2);
        options.put(keyValue[0], keyValue[1]);
      }
    }
    int writes = Integer.parseInt(args[1]);
    for (int write = 0; write < writes; write++) {
      Path warehouse = Files.createTempDirectory("engine-write");
      try {
        System.out.println("write=" + write + " " + measure(warehouse, options));
      } finally {
        delete(warehouse);
      }
    }
  }

  private static String measure(Path warehouse, Map<String, String> options) throws IOException {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean process =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Map<String, String> tableOptions = new HashMap<>(options);
    String keyOption = tableOptions.remove(KEY_OPTION);
    List<String> primaryKey = List.of((keyOption == null ? "order_id" : keyOption).split("\\+"));
    boolean shard = primaryKey.contains("shard");
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      RowType rowType =
          shard
              ? RowType.of(
                  new String[] {"order_id", "shard", "store_id", "amount"},
                  new DataType[] {
                    DataType.bigint().notNull(),
                    DataType.bigint().notNull(),
                    DataType.bigint(),
                    DataType.bigint()
                  })
              : RowType.of(
                  new String[] {"order_id", "store_id", "amount"},
                  new DataType[] {
                    DataType.bigint().notNull(), DataType.bigint(), DataType.bigint()
                  });
      Table table =
          Table.create(
              store,
              new TablePath("db", "orders"),
              TableSchema.create(rowType, List.of(), primaryKey, tableOptions, null));
      SnapshotCommit commit = table.newCommit("bench");
      Random random = new Random(1);
      Map<Long, Long> allocatedBefore = new HashMap<>();
      for (long id : threads.getAllThreadIds()) {
        allocatedBefore.put(id, threads.getThreadAllocatedBytes(id));
      }
      long processCpu = process.getProcessCpuTime();
      long threadCpu = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      long allocated = 0;
      try (TableWriter writer = table.newWriter()) {
        long commitId = 0;
        for (int i = 1; i <= ROWS; i++) {
          long key = random.nextInt(KEYS);
          long storeId = random.nextInt(10);
          long amount = random.nextInt(1000);
          writer.write(
              RowKind.INSERT,
              shard
                  ? new Object[] {key, key % 4, storeId, amount}
                  : new Object[] {key, storeId, amount});
          if (i % COMMIT_EVERY == 0) {
            commitId++;
            commit.commit(commitId, writer.prepareCommit(commitId));
          }
        }
        // Threads that ended before this point are not counted: a writer's threads live with it.
        for (long id : threads.getAllThreadIds()) {
          long bytes = threads.getThreadAllocatedBytes(id);
          if (bytes > 0) {
            allocated += bytes - allocatedBefore.getOrDefault(id, 0L);
          }
        }
      }
      return String.format(
          "wall=%.3f main=%.3f cpu=%.3f bytes/row=%.1f",
          (System.nanoTime() - start) / 1e9,
          (threads.getCurrentThreadCpuTime() - threadCpu) / 1e9,
          (process.getProcessCpuTime() - processCpu) / 1e9,
          (double) allocated / ROWS);
    }
  }

  private static void delete(Path folder) throws IOException {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
