package io.changelake.conformance;

import io.changelake.conformance.ConformanceScript.Action;
import io.changelake.conformance.ConformanceScript.Commit;
import io.changelake.conformance.ConformanceScript.Write;
import io.changelake.format.PaimonRows;
import io.changelake.schema.TableSchema;
import io.changelake.table.PaimonStreams;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.table.PaimonTables;
import io.changelake.types.DataField;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Test fixture: Apache Paimon 1.3.1 runs a conformance script as the reference driver of {@code
 * shared/conformance/README.md} does, and reads a table (its own, or one changelake wrote) into a
 * {@link ConformanceReport}.
 *
 * <p>The driver: commit identifiers 1, 2, 3, ... one per COMMIT, COMPACT or COMPACT_FULL; a COMMIT
 * waits for compaction when Paimon's writer would (lookup tables and first-row tables with {@code
 * lookup-wait}); with {@code full-compaction.delta-commits} = N (1 for the full-compaction producer
 * by default) a COMMIT whose identifier is a multiple of N first fully compacts each bucket written
 * since the last full compaction, and waits; COMPACT and COMPACT_FULL compact every bucket of every
 * partition written so far (normal or full) and wait.
 *
 * <p>Compactions run on a {@link DeferredCompactions} executor instead of Paimon's background
 * thread: a compaction nobody waits for finishes right after the commit that started it, so it
 * lands with the next commit, whatever the machine's speed. That is the timing {@code
 * lookup-wait=false} is for (a commit that does not wait for the lookup compaction), and the one
 * changelake implements; with Paimon's own thread the answer would depend on whether the compaction
 * wins the race against the commit.
 */
final class PaimonConformanceRun {

  private PaimonConformanceRun() {}

  /**
   * Runs the script on a new Paimon table in {@code tableDir} and returns the report Paimon's
   * reader gives, or {@code ERROR <message>} when Paimon rejects the table or a write. A comment
   * line says how many sorted runs Paimon's write buffer spilled to {@code ioTemp}.
   */
  static String run(
      ConformanceScript script, Map<String, String> options, Path tableDir, Path ioTemp) {
    FileStoreTable table;
    try {
      table = create(tableDir, script, options);
    } catch (Exception e) {
      return "ERROR " + e;
    }
    CountingIOManager io = new CountingIOManager(IOManager.create(ioTemp.toString()));
    try (io) {
      drive(table, script, options, io);
    } catch (Exception e) {
      return "ERROR " + e;
    }
    return "# paimon write buffer spills: " + io.written() + "\n" + report(tableDir, script);
  }

  /** What Paimon's streaming read from snapshot 1 and its batch read return for a table. */
  static String report(Path tableDir, ConformanceScript script) {
    try {
      TableSchema rowsOf = schemaOf(script);
      FileStoreTable table = PaimonTables.open(tableDir);
      ConformanceReport report = new ConformanceReport();
      Long latest = table.snapshotManager().latestSnapshotId();
      if (latest != null) {
        long snapshot = -1;
        for (Change c : PaimonStreams.changelog(table, rowsOf, 1)) {
          if (c.snapshotId() != snapshot) {
            snapshot = c.snapshotId();
            report.snapshot(
                snapshot, table.snapshotManager().snapshot(snapshot).commitKind().toString());
          }
          report.change(c.kind(), c.row().toArray());
        }
        PaimonRows rows = new PaimonRows(rowsOf.rowType());
        ReadBuilder read = table.newReadBuilder();
        try (RecordReader<InternalRow> reader =
            read.newRead().createReader(read.newScan().plan().splits())) {
          reader.forEachRemaining(
              row ->
                  report.stateRow(
                      RowKind.fromByteValue(row.getRowKind().toByteValue()), rows.toJava(row)));
        }
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      report.print(new PrintStream(out, true, StandardCharsets.UTF_8));
      return out.toString(StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "ERROR reading " + tableDir + ": " + e;
    }
  }

  /** Our schema of the script's table, used only to convert Paimon's rows. */
  private static TableSchema schemaOf(ConformanceScript script) {
    return TableSchema.create(
        script.rowType(),
        script.partitionKeys(),
        script.primaryKeys(),
        Map.of("bucket", "1"),
        null);
  }

  private static FileStoreTable create(
      Path folder, ConformanceScript script, Map<String, String> options) throws Exception {
    Schema.Builder builder = Schema.newBuilder();
    for (DataField field : script.rowType().fields()) {
      builder.column(field.name(), PaimonTypes.toPaimon(field.type()));
    }
    builder.partitionKeys(script.partitionKeys()).primaryKey(script.primaryKeys());
    options.forEach(builder::option);
    new SchemaManager(LocalFileIO.create(), new org.apache.paimon.fs.Path(folder.toUri()))
        .createTable(builder.build());
    return PaimonTables.open(folder);
  }

  private static void drive(
      FileStoreTable table, ConformanceScript script, Map<String, String> options, IOManager io)
      throws Exception {
    String producer = options.get("changelog-producer");
    String engine = options.get("merge-engine");
    boolean lookupWait = !"false".equals(options.get("lookup-wait"));
    boolean waitOnCommit = lookupWait && (producer.equals("lookup") || engine.equals("first-row"));
    Integer deltaCommits =
        options.containsKey("full-compaction.delta-commits")
            ? Integer.valueOf(options.get("full-compaction.delta-commits"))
            : producer.equals("full-compaction") ? Integer.valueOf(1) : null;
    PaimonRows rows = new PaimonRows(script.rowType());
    // Dynamic bucket mode: one assigner, as a Flink job with assigner parallelism 1 runs it.
    HashBucketAssigner assigner =
        "-1".equals(options.get("bucket"))
            ? new HashBucketAssigner(
                table.snapshotManager(),
                "conformance",
                table.store().newIndexFileHandler(),
                1,
                1,
                0,
                table.coreOptions().dynamicBucketTargetRowNum(),
                table.coreOptions().dynamicBucketMaxBuckets())
            : null;
    DynamicBucketRowKeyExtractor keys =
        assigner == null ? null : new DynamicBucketRowKeyExtractor(table.schema());
    StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("conformance");
    DeferredCompactions compactions = new DeferredCompactions();
    try (StreamTableWrite write = builder.newWrite();
        StreamTableCommit commit = builder.newCommit()) {
      write.withIOManager(io);
      ((TableWriteImpl<?>) write).withCompactExecutor(compactions);
      Set<List<Object>> written = new LinkedHashSet<>();
      Set<List<Object>> writtenSinceFull = new LinkedHashSet<>();
      long identifier = 0;
      for (Action action : withFinalCommit(script.actions())) {
        if (action instanceof Write w) {
          GenericRow row = rows.toGenericRow(w.row());
          row.setRowKind(org.apache.paimon.types.RowKind.fromByteValue(w.kind().toByteValue()));
          int bucket;
          if (assigner == null) {
            bucket = write.getBucket(row);
          } else {
            keys.setRecord(row);
            bucket = assigner.assign(keys.partition(), keys.trimmedPrimaryKey().hashCode());
          }
          List<Object> partitionAndBucket = List.of(write.getPartition(row).copy(), bucket);
          written.add(partitionAndBucket);
          writtenSinceFull.add(partitionAndBucket);
          write.write(row, bucket);
          continue;
        }
        Commit.Kind kind = ((Commit) action).kind();
        identifier++;
        boolean wait = waitOnCommit;
        if (kind == Commit.Kind.COMMIT) {
          if (deltaCommits != null && identifier % deltaCommits == 0) {
            for (List<Object> bucket : writtenSinceFull) {
              write.compact((BinaryRow) bucket.get(0), (Integer) bucket.get(1), true);
            }
            wait = wait || !writtenSinceFull.isEmpty();
            writtenSinceFull.clear();
          }
        } else {
          for (List<Object> bucket : written) {
            write.compact(
                (BinaryRow) bucket.get(0),
                (Integer) bucket.get(1),
                kind == Commit.Kind.COMPACT_FULL);
          }
          if (kind == Commit.Kind.COMPACT_FULL) {
            writtenSinceFull.clear();
          }
          wait = true;
        }
        if (assigner != null) {
          assigner.prepareCommit(identifier);
        }
        commit.commit(identifier, write.prepareCommit(wait, identifier));
        compactions.runPending();
      }
    }
  }

  /** The actions, with the COMMIT that rows left uncommitted at the end get. */
  private static List<Action> withFinalCommit(List<Action> actions) {
    if (actions.isEmpty() || actions.get(actions.size() - 1) instanceof Commit) {
      return actions;
    }
    List<Action> all = new ArrayList<>(actions);
    all.add(new Commit(-1, Commit.Kind.COMMIT));
    return all;
  }
}
