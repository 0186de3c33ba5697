package io.changelake.table;

import io.changelake.format.PaimonRows;
import io.changelake.schema.TableSchema;
import io.changelake.types.DataField;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * Test fixture: Apache Paimon 1.3.1 itself, as the reference, on a table folder of local disk.
 * Creates tables, writes rows and reads them back through Paimon's own API.
 */
public final class PaimonTables {

  private PaimonTables() {}

  /** Opens, with Paimon, the table in {@code folder} (written by either side). */
  public static FileStoreTable open(Path folder) {
    return FileStoreTableFactory.create(
        LocalFileIO.create(), new org.apache.paimon.fs.Path(folder.toUri()));
  }

  /** Creates, with Paimon, a table of our schema's columns, keys and options in {@code folder}. */
  public static FileStoreTable create(Path folder, TableSchema schema) throws Exception {
    return create(folder, schema, Map.of());
  }

  /**
   * Creates, with Paimon, a table of our schema's columns and keys, with its options changed by
   * {@code changed}: a key mapped to null is left out.
   */
  public static FileStoreTable create(Path folder, TableSchema schema, Map<String, String> changed)
      throws Exception {
    Map<String, String> options = new TreeMap<>(schema.options().asMap());
    options.put("file.format", "parquet");
    for (Map.Entry<String, String> e : changed.entrySet()) {
      if (e.getValue() == null) {
        options.remove(e.getKey());
      } else {
        options.put(e.getKey(), e.getValue());
      }
    }
    Schema.Builder builder = Schema.newBuilder();
    for (DataField f : schema.rowType().fields()) {
      builder.column(f.name(), PaimonTypes.toPaimon(f.type()));
    }
    builder.partitionKeys(schema.partitionKeys());
    builder.primaryKey(schema.primaryKeys());
    options.forEach(builder::option);
    new SchemaManager(LocalFileIO.create(), new org.apache.paimon.fs.Path(folder.toUri()))
        .createTable(builder.build());
    return open(folder);
  }

  /** Writes and commits rows with Paimon's batch writer, one commit. */
  public static void write(
      FileStoreTable table, TableSchema schema, List<Object[]> rows, RowKind kind)
      throws Exception {
    write(table, schema, rows, kind, null);
  }

  /**
   * Writes and commits rows with Paimon's batch writer, one commit, spilling to {@code ioTemp}: a
   * lookup table needs it (null for none).
   */
  public static void write(
      FileStoreTable table, TableSchema schema, List<Object[]> rows, RowKind kind, Path ioTemp)
      throws Exception {
    write(table, schema, rows, kind, ioTemp, 0);
  }

  /**
   * Writes rows as {@link #write(FileStoreTable, TableSchema, List, RowKind)} does, then waits
   * {@code pauseMillis} before committing them: for an expiry by update time at commit, which sees
   * a file as old only once its threshold has passed since the file was written.
   */
  public static void writeThenPause(
      FileStoreTable table, TableSchema schema, List<Object[]> rows, long pauseMillis)
      throws Exception {
    write(table, schema, rows, RowKind.INSERT, null, pauseMillis);
  }

  private static void write(
      FileStoreTable table,
      TableSchema schema,
      List<Object[]> rows,
      RowKind kind,
      Path ioTemp,
      long pauseMillis)
      throws Exception {
    PaimonRows converter = new PaimonRows(schema.rowType());
    BatchWriteBuilder builder = table.newBatchWriteBuilder();
    try (BatchTableWrite write = builder.newWrite();
        BatchTableCommit commit = builder.newCommit()) {
      if (ioTemp != null) {
        write.withIOManager(IOManager.create(ioTemp.toString()));
      }
      for (Object[] row : rows) {
        GenericRow generic = converter.toGenericRow(row);
        generic.setRowKind(org.apache.paimon.types.RowKind.fromByteValue(kind.toByteValue()));
        write.write(generic);
      }
      List<CommitMessage> messages = write.prepareCommit();
      Thread.sleep(pauseMillis);
      commit.commit(messages);
    }
  }

  /** Every row of the table's latest snapshot, as Paimon's batch reader returns them. */
  public static List<Object[]> readAll(FileStoreTable table, TableSchema schema) throws Exception {
    PaimonRows converter = new PaimonRows(schema.rowType());
    ReadBuilder read = table.newReadBuilder();
    List<Object[]> rows = new ArrayList<>();
    try (RecordReader<InternalRow> reader =
        read.newRead().createReader(read.newScan().plan().splits())) {
      reader.forEachRemaining(row -> rows.add(converter.toJava(row)));
    }
    return rows;
  }
}
