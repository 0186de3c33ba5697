package io.changelake.table;

import io.changelake.schema.TableSchema;
import io.changelake.table.PaimonCrossPartitionWrites.Change;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.table.FileStoreTable;

/**
 * Test fixture: the cross-partition upsert table (primary key id, partition day, bucket = -1) and
 * the batches of changes the storage and Beam writes are checked on against Paimon 1.3.1, and the
 * changelog as Paimon reads it.
 */
public final class CrossPartitionStories {

  private CrossPartitionStories() {}

  /** day INT (partition), id BIGINT (primary key), v STRING, n BIGINT. */
  public static TableSchema schema(Map<String, String> options) {
    RowType rowType =
        new RowType(
            List.of(
                new DataField(0, "day", DataType.intType().notNull()),
                new DataField(1, "id", DataType.bigint().notNull()),
                new DataField(2, "v", DataType.string()),
                new DataField(3, "n", DataType.bigint())));
    Map<String, String> all = new TreeMap<>(options);
    all.put("bucket", "-1");
    return TableSchema.create(rowType, List.of("day"), List.of("id"), all, null);
  }

  public static Object[] row(int day, long id, String v, Long n) {
    return new Object[] {day, id, v, n};
  }

  /**
   * A fixed story of key 1 (moves 1 -> 2 -> 3, a -D in its day, back to 1, a -D naming another
   * day), then random batches over 8 keys and 3 days; -D and +U only where the engine takes them.
   */
  public static List<List<Change>> batches(String engine, long seed) {
    boolean deletes = engine.equals("deduplicate");
    boolean nulls = engine.equals("partial-update");
    List<List<Change>> out = new ArrayList<>();
    List<Change> story = new ArrayList<>();
    story.add(new Change(RowKind.INSERT, row(1, 1, "a", 1L)));
    story.add(new Change(RowKind.INSERT, row(2, 1, "b", 2L)));
    story.add(new Change(RowKind.INSERT, row(3, 1, "c", 3L)));
    story.add(new Change(RowKind.INSERT, row(1, 2, "x", 1L)));
    if (deletes) {
      story.add(new Change(RowKind.DELETE, row(3, 1, "c", 3L)));
    }
    story.add(new Change(RowKind.INSERT, row(1, 1, "d", 4L)));
    out.add(story);
    List<Change> second = new ArrayList<>();
    if (deletes) {
      second.add(new Change(RowKind.DELETE, row(2, 1, "d", 4L)));
      second.add(new Change(RowKind.INSERT, row(3, 2, "y", 2L)));
    }
    second.add(new Change(RowKind.INSERT, row(2, 1, "e", 5L)));
    second.add(new Change(RowKind.INSERT, row(2, 3, "z", 1L)));
    out.add(second);
    Random random = new Random(seed);
    for (int b = 0; b < 3; b++) {
      List<Change> batch = new ArrayList<>();
      for (int i = 0; i < 14; i++) {
        int day = 1 + random.nextInt(3);
        long id = random.nextInt(8);
        String v = nulls && random.nextInt(3) == 0 ? null : "b" + b + "r" + i;
        Long n = nulls && random.nextInt(3) == 0 ? null : (long) (1 + random.nextInt(5));
        int k = random.nextInt(10);
        RowKind kind =
            !deletes
                ? RowKind.INSERT
                : k < 2 ? RowKind.DELETE : k < 3 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
        batch.add(new Change(kind, row(day, id, v, n)));
      }
      out.add(batch);
    }
    return out;
  }

  public static Map<String, String> options(String engine, String producer) {
    Map<String, String> options = new TreeMap<>();
    options.put("merge-engine", engine);
    options.put("changelog-producer", producer);
    options.put("dynamic-bucket.target-row-num", "2");
    options.put("cross-partition-upsert.bootstrap-parallelism", "1");
    if (engine.equals("aggregation")) {
      options.put("fields.n.aggregate-function", "sum");
    }
    return options;
  }

  /**
   * The changelog Paimon reads: per snapshot with changes, in order, its changes sorted (buckets
   * have no order between them). Snapshot ids are left out: Paimon's batch commit of a lookup table
   * makes a compaction snapshot of its own, ours one snapshot.
   */
  public static List<List<String>> changelog(FileStoreTable table, TableSchema schema)
      throws Exception {
    Map<Long, List<String>> bySnapshot = new TreeMap<>();
    for (PaimonStreams.Change c : PaimonStreams.changelog(table, schema, 1)) {
      bySnapshot
          .computeIfAbsent(c.snapshotId(), s -> new ArrayList<>())
          .add(c.kind().shortString() + c.row());
    }
    List<List<String>> out = new ArrayList<>();
    bySnapshot.values().forEach(changes -> out.add(changes.stream().sorted().toList()));
    return out;
  }
}
