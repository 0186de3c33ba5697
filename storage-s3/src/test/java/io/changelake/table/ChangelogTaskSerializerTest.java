package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.SerializedRow;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Changelog tasks survive the trip through bytes field for field, and a foreign version fails. */
class ChangelogTaskSerializerTest {

  @TempDir Path warehouse;

  static byte[] bytes(ChangelogTask task) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ChangelogTaskSerializer.write(task, new DataOutputStream(bytes));
    return bytes.toByteArray();
  }

  static ChangelogTask back(byte[] bytes) throws IOException {
    return ChangelogTaskSerializer.read(new DataInputStream(new ByteArrayInputStream(bytes)));
  }

  @Test
  void tasksOfAPaimonWrittenTableRoundTripFieldForField() throws Exception {
    TablePath path = new TablePath("db", "orders");
    TableSchema schema =
        Orders.schema(Map.of("bucket", "2", "changelog-producer", "lookup", "lookup-wait", "true"));
    FileStoreTable paimon = PaimonTables.create(warehouse.resolve(path.root()), schema);
    try (PaimonStreams.Writer writer =
        new PaimonStreams.Writer(paimon, schema, warehouse.resolve("io"))) {
      PaimonStreams.writeRandomChanges(writer, 7, 4);
    }
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, path);
      ChangelogScan scan = table.newChangelogScan();
      List<ChangelogTask> tasks = new ArrayList<>(scan.start(StartingPoint.latestFull()).state());
      tasks.addAll(scan.between(0, table.snapshots().latestId().orElseThrow()));
      assertFalse(tasks.isEmpty());
      for (ChangelogTask task : tasks) {
        assertEquals(task, back(bytes(task)));
      }
    }
  }

  @Test
  void anUnknownFormatVersionIsRefusedWithAMessage() throws Exception {
    byte[] bytes =
        bytes(
            new ChangelogTask(
                3, new SerializedRow(new byte[0]), 0, List.of(), ChangelogTask.Content.CHANGES));
    bytes[0] = 9;
    IOException e = assertThrows(IOException.class, () -> back(bytes));
    assertTrue(e.getMessage().contains("format version 9"), e.getMessage());
  }
}
