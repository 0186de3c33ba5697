package io.changelake.cli;

import io.changelake.format.DataFileMeta;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.TableOptions;
import io.changelake.table.BucketSplit;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TableRead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The rows of a snapshot that its changelog has published: what a reader of the changelog up to
 * that snapshot can know. Under {@code none} and {@code input} that is every row; under {@code
 * lookup} the rows above level 0 (level-0 rows reach the changelog when they are compacted); under
 * {@code full-compaction} the top level (the rest reaches it at the next full compaction). The same
 * cut as a streaming read that starts with the latest state, so that an audit of a table whose last
 * commit is not compacted yet does not blame the changelog for rows it will publish.
 */
final class PublishedState {

  private PublishedState() {}

  /** Which levels of a bucket the table's changelog has published. */
  static IntPredicate levels(TableOptions options) {
    switch (options.changelogProducer()) {
      case LOOKUP:
        return level -> level > 0;
      case FULL_COMPACTION:
        int top = options.numLevels() - 1;
        return level -> level == top;
      default:
        return level -> true;
    }
  }

  /** A person's words for {@link #levels}. */
  static String describeLevels(TableOptions options) {
    switch (options.changelogProducer()) {
      case LOOKUP:
        return "levels above 0 (level-0 rows are published when compacted)";
      case FULL_COMPACTION:
        return "the top level "
            + (options.numLevels() - 1)
            + " (lower rows are published at the next full compaction)";
      default:
        return "all levels";
    }
  }

  /** The published rows of the snapshot, merged per key, reporting progress per bucket. */
  static List<Object[]> read(Table table, Snapshot snapshot) throws IOException {
    IntPredicate published = levels(table.options());
    record Bucket(SerializedRow partition, int bucket) {}
    Map<Bucket, List<DataFileMeta>> buckets = new LinkedHashMap<>();
    for (ManifestEntry e : table.newScan().liveFiles(snapshot)) {
      if (published.test(e.file().level())) {
        buckets
            .computeIfAbsent(new Bucket(e.partition(), e.bucket()), b -> new ArrayList<>())
            .add(e.file());
      }
    }
    TableRead read = table.newRead();
    List<Object[]> rows = new ArrayList<>();
    Progress progress =
        new Progress("reading snapshot " + snapshot.id() + " bucket", buckets.size());
    int done = 0;
    for (Map.Entry<Bucket, List<DataFileMeta>> b : buckets.entrySet()) {
      progress.at(++done);
      BucketSplit split =
          new BucketSplit(snapshot.id(), b.getKey().partition(), b.getKey().bucket(), b.getValue());
      try (TableRead.MergedRows merged = read.read(split)) {
        merged.forEachRemaining(rows::add);
      }
    }
    return rows;
  }
}
