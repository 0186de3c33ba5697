package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our alters write the schema file Paimon 1.3.1's {@code SchemaManager.commitChanges} writes for
 * the same change, field for field (all but the creation time), and refuse what Paimon refuses.
 * Where Paimon allows more than changelake (type changes that are casts, not widenings, such as INT
 * to STRING), changelake refuses: see {@link io.changelake.types.TypeWidening}.
 */
class SchemaEvolutionMatchesPaimonTest {

  private static final TablePath PATH = new TablePath("db", "evolving");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path warehouse;

  /** The starting schema: a partitioned key, then columns of the widenable kinds. */
  static TableSchema base() {
    return TableSchema.create(
        new RowType(
            List.of(
                new DataField(0, "id", DataType.bigint().notNull()),
                new DataField(1, "dt", DataType.string().notNull()),
                new DataField(2, "small", DataType.tinyint()),
                new DataField(3, "f", DataType.floatType()),
                new DataField(4, "d", DataType.decimal(5, 2)),
                new DataField(5, "v", DataType.varchar(10)),
                new DataField(6, "n", DataType.intType().notNull()),
                new DataField(7, "s", DataType.bigint()))),
        List.of("dt"),
        List.of("dt", "id"),
        Map.of("bucket", "2", "file.format", "parquet", "sequence.field", "s"),
        null);
  }

  /** A change as changelake and as Paimon spell it. */
  record Alter(
      String name, List<SchemaChange> ours, List<org.apache.paimon.schema.SchemaChange> paimon) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static org.apache.paimon.types.DataType paimon(DataType type) {
    return PaimonTypes.toPaimon(type);
  }

  static Stream<Alter> accepted() {
    return Stream.of(
        new Alter(
            "add column last, with a comment",
            List.of(
                new SchemaChange.AddColumn(
                    "remark", DataType.string(), "free text", ColumnPosition.last())),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "remark", paimon(DataType.string()), "free text"))),
        new Alter(
            "add column first",
            List.of(
                new SchemaChange.AddColumn(
                    "a", DataType.intType(), null, ColumnPosition.atFirst())),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "a",
                    paimon(DataType.intType()),
                    null,
                    org.apache.paimon.schema.SchemaChange.Move.first("a")))),
        new Alter(
            "add column after",
            List.of(
                new SchemaChange.AddColumn(
                    "a", DataType.intType(), null, ColumnPosition.afterColumn("small"))),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "a",
                    paimon(DataType.intType()),
                    null,
                    org.apache.paimon.schema.SchemaChange.Move.after("a", "small")))),
        new Alter(
            "drop then add: the new column gets a new id",
            List.of(
                new SchemaChange.DropColumn("v"),
                new SchemaChange.AddColumn("v", DataType.varchar(10), null, ColumnPosition.last())),
            List.of(
                org.apache.paimon.schema.SchemaChange.dropColumn("v"),
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "v", paimon(DataType.varchar(10))))),
        new Alter(
            "rename a value column named by sequence.field",
            List.of(new SchemaChange.RenameColumn("s", "seq")),
            List.of(org.apache.paimon.schema.SchemaChange.renameColumn("s", "seq"))),
        new Alter(
            "rename a primary-key column",
            List.of(new SchemaChange.RenameColumn("id", "order_id")),
            List.of(org.apache.paimon.schema.SchemaChange.renameColumn("id", "order_id"))),
        new Alter(
            "drop a column",
            List.of(new SchemaChange.DropColumn("f")),
            List.of(org.apache.paimon.schema.SchemaChange.dropColumn("f"))),
        new Alter(
            "widen TINYINT to SMALLINT to BIGINT, FLOAT to DOUBLE, DECIMAL and VARCHAR",
            List.of(
                new SchemaChange.UpdateColumnType("small", DataType.bigint()),
                new SchemaChange.UpdateColumnType("f", DataType.doubleType()),
                new SchemaChange.UpdateColumnType("d", DataType.decimal(9, 2)),
                new SchemaChange.UpdateColumnType("v", DataType.varchar(20))),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "small", paimon(DataType.bigint()), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "f", paimon(DataType.doubleType()), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "d", paimon(DataType.decimal(9, 2)), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "v", paimon(DataType.varchar(20)), true))),
        new Alter(
            "widen a NOT NULL column: it stays NOT NULL",
            List.of(new SchemaChange.UpdateColumnType("n", DataType.bigint())),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "n", paimon(DataType.bigint()), true))),
        new Alter(
            "NOT NULL to nullable",
            List.of(new SchemaChange.MakeColumnNullable("n")),
            List.of(org.apache.paimon.schema.SchemaChange.updateColumnNullability("n", true))),
        new Alter(
            "column and table comments",
            List.of(
                new SchemaChange.UpdateColumnComment("v", "a short text"),
                new SchemaChange.UpdateComment("orders of the shop")),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnComment("v", "a short text"),
                org.apache.paimon.schema.SchemaChange.updateComment("orders of the shop"))),
        new Alter(
            "set and reset options",
            List.of(
                new SchemaChange.SetOption("snapshot.num-retained.min", "5"),
                new SchemaChange.ResetOption("sequence.field")),
            List.of(
                org.apache.paimon.schema.SchemaChange.setOption("snapshot.num-retained.min", "5"),
                org.apache.paimon.schema.SchemaChange.removeOption("sequence.field"))));
  }

  static Stream<Alter> refused() {
    return Stream.of(
        new Alter(
            "add a NOT NULL column",
            List.of(
                new SchemaChange.AddColumn(
                    "x", DataType.intType().notNull(), null, ColumnPosition.last())),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "x", paimon(DataType.intType().notNull())))),
        new Alter(
            "add a column that exists",
            List.of(
                new SchemaChange.AddColumn("v", DataType.intType(), null, ColumnPosition.last())),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn("v", paimon(DataType.intType())))),
        new Alter(
            "drop a primary-key column",
            List.of(new SchemaChange.DropColumn("id")),
            List.of(org.apache.paimon.schema.SchemaChange.dropColumn("id"))),
        new Alter(
            "drop a partition column",
            List.of(new SchemaChange.DropColumn("dt")),
            List.of(org.apache.paimon.schema.SchemaChange.dropColumn("dt"))),
        new Alter(
            "rename a partition column",
            List.of(new SchemaChange.RenameColumn("dt", "day")),
            List.of(org.apache.paimon.schema.SchemaChange.renameColumn("dt", "day"))),
        new Alter(
            "change the type of a primary-key column",
            List.of(new SchemaChange.UpdateColumnType("id", DataType.decimal(20, 0))),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "id", paimon(DataType.decimal(20, 0)), true))),
        new Alter(
            "make a primary-key column nullable",
            List.of(new SchemaChange.MakeColumnNullable("id")),
            List.of(org.apache.paimon.schema.SchemaChange.updateColumnNullability("id", true))));
  }

  /** Changes Paimon allows as casts, which changelake refuses as they lose values. */
  static Stream<Alter> refusedByChangelakeOnly() {
    return Stream.of(
        new Alter(
            "narrow VARCHAR(10) to VARCHAR(5)",
            List.of(new SchemaChange.UpdateColumnType("v", DataType.varchar(5))),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "v", paimon(DataType.varchar(5)), true))),
        new Alter(
            "INT to STRING",
            List.of(new SchemaChange.UpdateColumnType("n", DataType.string())),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "n", paimon(DataType.string()), true))),
        new Alter(
            "BIGINT to INT",
            List.of(new SchemaChange.UpdateColumnType("s", DataType.intType())),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "s", paimon(DataType.intType()), true))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void anAlterWritesTheSchemaFilePaimonWrites(Alter alter) throws Exception {
    Path oursFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    try (LocalObjectStore store = new LocalObjectStore(oursFolder)) {
      Table table = Table.create(store, PATH, base());
      PaimonTables.create(paimonFolder.resolve(PATH.root()), base());
      assertEquals(schemaFile(paimonFolder, 0), schemaFile(oursFolder, 0), "schema-0");

      Table altered = table.alter(alter.ours());
      paimonSchemas(paimonFolder).commitChanges(alter.paimon());

      assertEquals(1, altered.schema().id());
      assertEquals(schemaFile(paimonFolder, 1), schemaFile(oursFolder, 1), alter.name());
      assertEquals(
          new String(altered.schema().toJson(), java.nio.charset.StandardCharsets.UTF_8),
          new String(
              Table.open(store, PATH).schema().toJson(), java.nio.charset.StandardCharsets.UTF_8),
          "read back");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void anAlterPaimonRefusesIsRefusedWithTheReason(Alter alter) throws Exception {
    Path oursFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    try (LocalObjectStore store = new LocalObjectStore(oursFolder)) {
      Table table = Table.create(store, PATH, base());
      PaimonTables.create(paimonFolder.resolve(PATH.root()), base());

      IllegalArgumentException ours =
          assertThrows(IllegalArgumentException.class, () -> table.alter(alter.ours()));
      assertThrows(
          Exception.class, () -> paimonSchemas(paimonFolder).commitChanges(alter.paimon()));

      assertTrue(ours.getMessage().startsWith("cannot "), ours.getMessage());
      assertEquals(0, Table.open(store, PATH).schema().id(), "nothing written");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedByChangelakeOnly")
  void aTypeChangeThatIsNoWideningIsRefusedThoughPaimonCastsIt(Alter alter) throws Exception {
    Path oursFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    try (LocalObjectStore store = new LocalObjectStore(oursFolder)) {
      Table table = Table.create(store, PATH, base());
      PaimonTables.create(paimonFolder.resolve(PATH.root()), base());

      IllegalArgumentException ours =
          assertThrows(IllegalArgumentException.class, () -> table.alter(alter.ours()));
      paimonSchemas(paimonFolder).commitChanges(alter.paimon());

      assertTrue(ours.getMessage().contains("only widening is allowed"), ours.getMessage());
    }
  }

  @org.junit.jupiter.api.Test
  void onATableWithDataTheOptionsPaimonHoldsImmutableAndTheBucketCountAreRefused()
      throws Exception {
    Path oursFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    TableSchema schema = base();
    Object[] row = {1L, "2026-12-01", (byte) 1, 1.5f, new BigDecimal("1.25"), "a", 7, 1L};
    try (LocalObjectStore store = new LocalObjectStore(oursFolder)) {
      Table table = Table.create(store, PATH, schema);
      try (TableWriter writer = table.newWriter()) {
        writer.write(RowKind.INSERT, row);
        table.newCommit("test").commit(1, writer.prepareCommit(1));
      }
      FileStoreTable paimonTable = PaimonTables.create(paimonFolder.resolve(PATH.root()), schema);
      PaimonTables.write(paimonTable, schema, List.<Object[]>of(row), RowKind.INSERT);

      for (SchemaChange change :
          List.of(
              new SchemaChange.SetOption("merge-engine", "first-row"),
              new SchemaChange.SetOption("bucket", "4"),
              new SchemaChange.ResetOption("bucket"))) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> table.alter(List.of(change)));
        assertTrue(e.getMessage().contains("table that holds data"), e.getMessage());
      }
      assertThrows(
          Exception.class,
          () ->
              paimonSchemas(paimonFolder)
                  .commitChanges(
                      org.apache.paimon.schema.SchemaChange.setOption(
                          "merge-engine", "first-row")));
      // Paimon takes a new bucket count and leaves the data to a rescale job; changelake has no
      // rescale, so it refuses.
      paimonSchemas(paimonFolder)
          .commitChanges(org.apache.paimon.schema.SchemaChange.setOption("bucket", "4"));
    }
  }

  private static SchemaManager paimonSchemas(Path warehouseFolder) {
    return new SchemaManager(
        LocalFileIO.create(),
        new org.apache.paimon.fs.Path(warehouseFolder.resolve(PATH.root()).toUri()));
  }

  /** A schema file as a JSON tree, without its creation time. */
  private static ObjectNode schemaFile(Path warehouseFolder, long id) throws Exception {
    Path file = warehouseFolder.resolve(PATH.root()).resolve("schema").resolve("schema-" + id);
    ObjectNode tree = (ObjectNode) JSON.readTree(Files.readAllBytes(file));
    tree.remove("timeMillis");
    return tree;
  }
}
