package io.changelake.cli;

import io.changelake.format.BinaryRowCodec;
import io.changelake.format.IndexManifestEntry;
import io.changelake.format.ManifestEntry;
import io.changelake.format.SerializedRow;
import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaEvolution;
import io.changelake.schema.TableSchema;
import io.changelake.store.ObjectStore;
import io.changelake.table.Snapshot;
import io.changelake.table.Table;
import io.changelake.table.TablePath;
import io.changelake.types.DataField;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Prints what a table is and holds: schema, options, snapshots, files, consumers. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Prints a table's schema and options, its schema history (every version, what changed),"
          + " its newest snapshots (kind, commit, time, record"
          + " counts), the live files of the latest snapshot per partition, bucket and level,"
          + " and its consumers."
    })
final class InspectCommand implements Callable<Integer> {

  @Mixin TableLocation location;

  @Option(
      names = "--snapshots",
      paramLabel = "N",
      defaultValue = "20",
      description = "List the N newest snapshots (default: ${DEFAULT-VALUE}).")
  int snapshotCount;

  /** The files of one partition, bucket and level, summed. */
  private record FileGroup(String partition, int bucket, int level) {}

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    try (ObjectStore store = location.openStore()) {
      Table table = location.open(store);
      TableSchema schema = table.schema();
      out.println("table         " + table.location());
      out.println("schema        " + schema.id());
      for (DataField field : schema.rowType().fields()) {
        out.println("  " + field.name() + " " + field.type());
      }
      out.println("primary key   " + schema.primaryKeys());
      out.println(
          "partitioned   "
              + (schema.partitionKeys().isEmpty() ? "no" : "by " + schema.partitionKeys()));
      out.println("options");
      for (Map.Entry<String, String> option : schema.options().asMap().entrySet()) {
        out.println("  " + option.getKey() + " = " + option.getValue());
      }
      out.println(
          "  (changelog-producer "
              + schema.options().changelogProducer()
              + ", merge-engine "
              + schema.options().mergeEngine()
              + " in effect)");
      printSchemaHistory(table, out);
      printSnapshots(table, out);
      printFiles(table, out);
      printIndex(table, out);
      printConsumers(table, out);
    }
    return 0;
  }

  /** Every schema version: id, when, its columns, and what changed from the one before. */
  private static void printSchemaHistory(Table table, PrintStream out) throws Exception {
    long latest = table.schema().id();
    out.println("schema history " + (latest + 1) + " version" + (latest == 0 ? "" : "s"));
    TableSchema before = null;
    for (long id = 0; id <= latest; id++) {
      TableSchema schema = table.schemas().read(id);
      out.println(
          "  "
              + id
              + "  "
              + Instant.ofEpochMilli(schema.timeMillis())
              + "  "
              + schema.rowType().fields().stream()
                  .map(f -> f.name() + " " + f.type())
                  .collect(Collectors.joining(", ")));
      if (before == null) {
        out.println("     created");
      } else {
        for (SchemaChange change : SchemaEvolution.changesBetween(before, schema)) {
          out.println("     " + change.describe());
        }
      }
      before = schema;
    }
  }

  private void printSnapshots(Table table, PrintStream out) throws Exception {
    List<Long> ids = table.snapshots().listIds();
    List<Long> shown = ids.subList(Math.max(0, ids.size() - snapshotCount), ids.size());
    out.println(
        "snapshots     "
            + (ids.isEmpty()
                ? "none"
                : ids.size()
                    + " ("
                    + ids.get(0)
                    + " to "
                    + ids.get(ids.size() - 1)
                    + "), the newest "
                    + shown.size()
                    + " listed"));
    TextTable listing =
        new TextTable("id", "kind", "commit", "time (UTC)", "total", "delta", "changelog");
    Progress progress = new Progress("reading snapshot", shown.size());
    for (int i = 0; i < shown.size(); i++) {
      progress.at(i + 1);
      Snapshot s = table.snapshots().read(shown.get(i));
      listing.add(
          s.id(),
          s.commitKind(),
          s.commitUser() + "#" + s.commitIdentifier(),
          Instant.ofEpochMilli(s.timeMillis()),
          s.totalRecordCount(),
          s.deltaRecordCount(),
          s.changelogRecordCount());
    }
    if (!listing.isEmpty()) {
      listing.print(out, "  ");
    }
  }

  private static void printFiles(Table table, PrintStream out) throws Exception {
    Optional<Snapshot> latest = table.snapshots().latest();
    if (latest.isEmpty()) {
      out.println("files         none");
      return;
    }
    TableSchema schema = table.schema();
    BinaryRowCodec partitions = new BinaryRowCodec(schema.partitionType());
    Map<SerializedRow, String> partitionNames = new TreeMap<>();
    Map<FileGroup, long[]> groups =
        new TreeMap<>(
            Comparator.comparing(FileGroup::partition)
                .thenComparingInt(FileGroup::bucket)
                .thenComparingInt(FileGroup::level));
    for (ManifestEntry e : table.newScan().liveFiles(latest.get())) {
      String partition =
          partitionNames.computeIfAbsent(
              e.partition(),
              bytes ->
                  schema.partitionKeys().isEmpty()
                      ? "-"
                      : TablePath.partitionPath(
                          schema.partitionType(),
                          partitions.decode(bytes.bytes()),
                          schema.options().partitionDefaultName()));
      long[] sums =
          groups.computeIfAbsent(
              new FileGroup(partition, e.bucket(), e.file().level()), g -> new long[3]);
      sums[0]++;
      sums[1] += e.file().rowCount();
      sums[2] += e.file().fileSize();
    }
    out.println("files         live in snapshot " + latest.get().id());
    TextTable listing = new TextTable("partition", "bucket", "level", "files", "rows", "bytes");
    for (Map.Entry<FileGroup, long[]> g : groups.entrySet()) {
      long[] sums = g.getValue();
      listing.add(
          g.getKey().partition(),
          g.getKey().bucket(),
          g.getKey().level(),
          sums[0],
          sums[1],
          sums[2]);
    }
    listing.print(out, "  ");
  }

  /**
   * A dynamic-bucket table's hash index in the latest snapshot: one file per (partition, bucket),
   * holding its keys' hashes. Nothing for a table without an index.
   */
  private static void printIndex(Table table, PrintStream out) throws Exception {
    Optional<Snapshot> latest = table.snapshots().latest();
    if (latest.isEmpty() || latest.get().indexManifest() == null) {
      if (table.schema().options().dynamicBucket()) {
        out.println("index         none (dynamic bucket mode, nothing written yet)");
      }
      return;
    }
    TableSchema schema = table.schema();
    BinaryRowCodec partitions = new BinaryRowCodec(schema.partitionType());
    List<IndexManifestEntry> entries = new ArrayList<>(table.newScan().indexFiles(latest.get()));
    entries.sort(
        Comparator.comparing(IndexManifestEntry::partition)
            .thenComparingInt(IndexManifestEntry::bucket));
    out.println(
        "index         "
            + latest.get().indexManifest()
            + ": "
            + entries.size()
            + " index files in snapshot "
            + latest.get().id());
    TextTable listing = new TextTable("partition", "bucket", "type", "file", "keys", "bytes");
    for (IndexManifestEntry e : entries) {
      listing.add(
          schema.partitionKeys().isEmpty()
              ? "-"
              : TablePath.partitionPath(
                  schema.partitionType(),
                  partitions.decode(e.partition().bytes()),
                  schema.options().partitionDefaultName()),
          e.bucket(),
          e.file().indexType(),
          e.file().fileName(),
          e.file().rowCount(),
          e.file().fileSize());
    }
    listing.print(out, "  ");
  }

  private static void printConsumers(Table table, PrintStream out) throws Exception {
    Map<String, Long> consumers = table.consumers().list();
    out.println("consumers     " + (consumers.isEmpty() ? "none" : consumers.size()));
    if (!consumers.isEmpty()) {
      TextTable listing = new TextTable("consumer", "next snapshot");
      consumers.forEach(listing::add);
      listing.print(out, "  ");
    }
  }
}
