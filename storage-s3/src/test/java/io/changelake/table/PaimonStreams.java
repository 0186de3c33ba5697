package io.changelake.table;

import io.changelake.format.PaimonRows;
import io.changelake.schema.ChangelogProducer;
import io.changelake.schema.TableSchema;
import io.changelake.types.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.StreamTableScan;

/**
 * Test fixture: Paimon 1.3.1's streaming writer (commits with identifiers 1, 2, 3, ..., waiting for
 * compaction, as the conformance driver does) and its streaming changelog reader.
 */
public final class PaimonStreams {

  /** One changelog row as a reader emits it. */
  public record Change(long snapshotId, RowKind kind, List<Object> row) {
    @Override
    public String toString() {
      return "s" + snapshotId + " " + kind.shortString() + row;
    }
  }

  private PaimonStreams() {}

  /** A Paimon streaming writer of one table; close it when done. */
  public static final class Writer implements AutoCloseable {
    private final FileStoreTable table;
    private final PaimonRows rows;
    private final StreamTableWrite write;
    private final StreamTableCommit commit;
    private final boolean fullCompaction;
    private long identifier;

    public Writer(FileStoreTable table, TableSchema schema, Path ioTemp) {
      this.table = table;
      this.rows = new PaimonRows(schema.rowType());
      StreamWriteBuilder builder = table.newStreamWriteBuilder().withCommitUser("paimon-writer");
      this.write = builder.newWrite();
      this.write.withIOManager(IOManager.create(ioTemp.toString()));
      this.commit = builder.newCommit();
      this.fullCompaction =
          ChangelogProducer.FULL_COMPACTION
              .value()
              .equals(table.options().get("changelog-producer"));
    }

    public void write(RowKind kind, Object[] row) throws Exception {
      GenericRow generic = rows.toGenericRow(row);
      generic.setRowKind(org.apache.paimon.types.RowKind.fromByteValue(kind.toByteValue()));
      write.write(generic);
    }

    /** Flushes and commits; a full-compaction table fully compacts every bucket first. */
    public void commit() throws Exception {
      identifier++;
      if (fullCompaction) {
        for (int bucket = 0; bucket < table.coreOptions().bucket(); bucket++) {
          write.compact(BinaryRow.EMPTY_ROW, bucket, true);
        }
      }
      commit.commit(identifier, write.prepareCommit(true, identifier));
    }

    @Override
    public void close() throws Exception {
      write.close();
      commit.close();
    }
  }

  /**
   * What Paimon's own streaming read emits from {@code fromSnapshot} up to the latest snapshot, in
   * order ({@code scan.mode=from-snapshot}).
   */
  public static List<Change> changelog(FileStoreTable table, TableSchema schema, long fromSnapshot)
      throws Exception {
    long latest = table.snapshotManager().latestSnapshotId();
    ReadBuilder builder =
        table
            .copy(
                Map.of(
                    "scan.mode", "from-snapshot", "scan.snapshot-id", Long.toString(fromSnapshot)))
            .newReadBuilder();
    StreamTableScan scan = builder.newStreamScan();
    org.apache.paimon.table.source.TableRead read = builder.newRead();
    PaimonRows rows = new PaimonRows(schema.rowType());
    List<Change> changes = new ArrayList<>();
    while (scan.checkpoint() == null || scan.checkpoint() <= latest) {
      for (Split split : scan.plan().splits()) {
        long snapshotId = ((DataSplit) split).snapshotId();
        try (RecordReader<InternalRow> reader = read.createReader(split)) {
          reader.forEachRemaining(
              row ->
                  changes.add(
                      new Change(
                          snapshotId,
                          RowKind.fromByteValue(row.getRowKind().toByteValue()),
                          Arrays.asList(rows.toJava(row)))));
        }
      }
    }
    return changes;
  }

  /** Every row of snapshot {@code snapshotId}, as Paimon's batch reader returns them. */
  public static List<Object[]> readSnapshot(
      FileStoreTable table, TableSchema schema, long snapshotId) throws Exception {
    return PaimonTables.readAll(
        table.copy(Map.of("scan.snapshot-id", Long.toString(snapshotId))), schema);
  }

  /** Options of a lookup table whose expiry keeps few snapshots: 2 buckets, at least 3 retained. */
  public static final Map<String, String> EXPIRING_LOOKUP =
      Map.of("bucket", "2", "changelog-producer", "lookup", "snapshot.num-retained.min", "3");

  /**
   * Creates, with Paimon, the table {@code path} of {@code schema} under {@code warehouse} and
   * writes {@link #writeRandomChanges} of {@code seed} into it in 8 commits: for a lookup table,
   * APPEND and COMPACT snapshots 1 to 16.
   */
  public static FileStoreTable writeEightCommits(
      Path warehouse, TablePath path, TableSchema schema, long seed) throws Exception {
    FileStoreTable paimon = PaimonTables.create(warehouse.resolve(path.root()), schema);
    try (Writer writer =
        new Writer(paimon, schema, Files.createDirectories(warehouse.resolve("io")))) {
      writeRandomChanges(writer, seed, 8);
    }
    return paimon;
  }

  /**
   * {@link RandomOrderChanges} of {@code seed} in {@code commits} commits, written by Paimon;
   * returns the final state by key.
   */
  public static Map<Long, Object[]> writeRandomChanges(Writer writer, long seed, int commits)
      throws Exception {
    Map<Long, Object[]> state = new TreeMap<>();
    RandomOrderChanges.write(
        new RandomOrderChanges.Sink<Exception>() {
          @Override
          public void write(RowKind kind, Object[] row) throws Exception {
            writer.write(kind, row);
          }

          @Override
          public void commit(long identifier) throws Exception {
            writer.commit();
          }
        },
        state,
        new Random(seed),
        1,
        commits);
    return state;
  }
}
