package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.ManifestFileMeta;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.store.ObjectInfo;
import io.changelake.store.ObjectStore;
import io.changelake.types.RowKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad schemas, options, snapshots and manifests fail with the file or option named; nothing is
 * lost.
 */
class BadInputTest {

  static final TablePath PATH = new TablePath("db", "orders");

  @TempDir Path warehouse;

  static void assertMentions(Throwable e, String... words) {
    for (String word : words) {
      assertTrue(e.getMessage().contains(word), "'" + word + "' not in: " + e.getMessage());
    }
  }

  @Test
  void anUnknownOptionIsRejectedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Orders.schema(Map.of("bukcet", "2")));
    assertMentions(e, "bukcet", "not an option");
  }

  @Test
  void aMalformedOptionValueIsRejectedWithTheOptionAndTheFix() {
    assertMentions(
        assertThrows(IllegalArgumentException.class, () -> Orders.schema(Map.of("bucket", "0"))),
        "'bucket'",
        "at least 1");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> Orders.schema(Map.of("changelog-producer", "lookups"))),
        "changelog-producer",
        "lookup",
        "full-compaction");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> Orders.schema(Map.of("fields.amount.aggregate-function", "median"))),
        "fields.amount.aggregate-function",
        "sum");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class, () -> Orders.schema(Map.of("bucket-key", "amount"))),
        "bucket-key",
        "primary key");
  }

  @Test
  void impossibleOptionCombinationsAreRejectedWithTheFix() {
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Orders.schema(Map.of("merge-engine", "first-row", "changelog-producer", "input"))),
        "first-row",
        "lookup");
  }

  @Test
  void aSchemaWithoutPrimaryKeyOrWithAStrayKeyIsRejected() {
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () -> TableSchema.create(Orders.ROW_TYPE, List.of(), List.of(), Map.of(), null)),
        "primary key");
    assertMentions(
        assertThrows(
            IllegalArgumentException.class,
            () ->
                TableSchema.create(
                    Orders.ROW_TYPE, List.of("nope"), List.of("order_id"), Map.of(), null)),
        "nope",
        "not a column");
  }

  @Test
  void aMalformedSchemaFileIsNamedInTheError() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      store.write(
          PATH.schemaFolder() + "schema-0", "{\"fields\": [".getBytes(StandardCharsets.UTF_8));
      IOException e = assertThrows(IOException.class, () -> Table.open(store, PATH));
      assertMentions(e, "schema-0", "not valid JSON");
    }
  }

  @Test
  void aMissingTableIsNamedWithItsLocation() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      assertMentions(
          assertThrows(TableNotFoundException.class, () -> Table.open(store, PATH)),
          "db.orders",
          "db.db/orders");
    }
  }

  @Test
  void aSnapshotThatIsNotJsonFailsReadsAndCommitsWithoutTouchingAnything() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      table.newCommit("job").commit(1, SnapshotCommitTest.writeRows(table, 0, 5));
      List<CommitMessage> next = SnapshotCommitTest.writeRows(table, 5, 10);
      store.write(
          PATH.snapshotFolder() + "snapshot-2", "not json".getBytes(StandardCharsets.UTF_8));
      List<ObjectInfo> before = store.list(PATH.root());

      assertMentions(
          assertThrows(IOException.class, () -> table.newRead().readAll()), "snapshot-2");
      assertMentions(
          assertThrows(IOException.class, () -> table.newCommit("job").commit(2, next)),
          "snapshot-2");

      assertEquals(before, store.list(PATH.root()));
      assertEquals(
          "not json",
          new String(store.read(PATH.snapshotFolder() + "snapshot-2"), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aMissingManifestIsNamedAndNothingIsDeleted() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, Orders.row(1, 1L, 1L));
        table.newCommit("job").commit(1, writer.prepareCommit(1));
      }
      Snapshot s = table.snapshots().latest().orElseThrow();
      ManifestFileMeta manifest = table.newScan().manifestsOf(s.deltaManifestList(), s).get(0);
      store.delete(PATH.manifestFolder() + manifest.fileName());
      List<ObjectInfo> before = store.list(PATH.root());

      IOException e =
          assertThrows(IOException.class, () -> Table.open(store, PATH).newRead().readAll());
      assertMentions(e, manifest.fileName(), "missing");
      assertEquals(before, store.list(PATH.root()));
    }
  }

  @Test
  void aRowWithANullKeyOrAWrongTypeIsRefusedAndNotBuffered() throws Exception {
    try (ObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, Orders.schema(Map.of()));
      try (TableWriter writer = table.newWriter()) {
        assertMentions(
            assertThrows(
                IllegalArgumentException.class,
                () -> writer.write(RowKind.INSERT, new Object[] {null, 1L, 1L})),
            "order_id",
            "primary key");
        assertMentions(
            assertThrows(
                IllegalArgumentException.class,
                () -> writer.write(RowKind.INSERT, new Object[] {1L, "ten", 1L})),
            "store_id",
            "BIGINT",
            "String");
        assertEquals(List.of(), writer.prepareCommit(1));
      }
      assertTrue(
          store.list(PATH.root()).stream().allMatch(o -> o.path().startsWith(PATH.schemaFolder())));
    }
  }
}
