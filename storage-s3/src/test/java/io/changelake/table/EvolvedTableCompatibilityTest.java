package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.schema.SchemaChange;
import io.changelake.schema.SchemaChange.ColumnPosition;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.table.PaimonStreams.Change;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import io.changelake.types.TypeWidening;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables whose schema changes between writes, read across every schema version: Paimon 1.3.1 reads
 * what changelake evolved and wrote, changelake reads what Paimon evolved (through its {@code
 * SchemaManager}) and wrote, and the lookup changelog of keys whose older version lives in a file
 * of an older schema is the one Paimon produces (both changelogs read by changelake: Paimon's own
 * streaming read gives older schemas' changelog rows in their files' own layout, for either
 * engine's table; see {@link
 * #paimonsStreamingReadGivesOlderSchemasChangelogRowsInTheirOwnLayoutForEitherEngine}). Each step
 * alters the table and then writes keys that overlap the earlier steps', plus deletes of keys
 * written under the first schema.
 */
class EvolvedTableCompatibilityTest {

  private static final TablePath PATH = new TablePath("db", "evolving");

  @TempDir Path warehouse;

  /** An alter as changelake and as Paimon spell it, then the keys written after it. */
  record Step(
      String name,
      List<SchemaChange> ours,
      List<org.apache.paimon.schema.SchemaChange> paimon,
      int firstKey,
      int keys) {}

  static TableSchema first(Map<String, String> options) {
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
        options,
        null);
  }

  private static org.apache.paimon.types.DataType paimon(DataType type) {
    return PaimonTypes.toPaimon(type);
  }

  /** Every alter kind, each followed by writes. */
  static List<Step> steps() {
    return List.of(
        new Step("schema 0", List.of(), List.of(), 0, 40),
        new Step(
            "add column remark after v",
            List.of(
                new SchemaChange.AddColumn(
                    "remark", DataType.string(), "free text", ColumnPosition.afterColumn("v"))),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn(
                    "remark",
                    paimon(DataType.string()),
                    "free text",
                    org.apache.paimon.schema.SchemaChange.Move.after("remark", "v"))),
            20,
            30),
        new Step(
            "rename v to label, and the key id to order_id",
            List.of(
                new SchemaChange.RenameColumn("v", "label"),
                new SchemaChange.RenameColumn("id", "order_id")),
            List.of(
                org.apache.paimon.schema.SchemaChange.renameColumn("v", "label"),
                org.apache.paimon.schema.SchemaChange.renameColumn("id", "order_id")),
            30,
            30),
        new Step(
            "widen small to INT, f to DOUBLE, d to DECIMAL(9, 2), label to VARCHAR(20)",
            List.of(
                new SchemaChange.UpdateColumnType("small", DataType.intType()),
                new SchemaChange.UpdateColumnType("f", DataType.doubleType()),
                new SchemaChange.UpdateColumnType("d", DataType.decimal(9, 2)),
                new SchemaChange.UpdateColumnType("label", DataType.varchar(20))),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "small", paimon(DataType.intType()), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "f", paimon(DataType.doubleType()), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "d", paimon(DataType.decimal(9, 2)), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "label", paimon(DataType.varchar(20)), true)),
            50,
            20),
        new Step(
            "drop s",
            List.of(new SchemaChange.DropColumn("s")),
            List.of(org.apache.paimon.schema.SchemaChange.dropColumn("s")),
            10,
            15),
        new Step(
            "n nullable, comments, an option",
            List.of(
                new SchemaChange.MakeColumnNullable("n"),
                new SchemaChange.UpdateColumnComment("label", "a label"),
                new SchemaChange.UpdateComment("evolved"),
                new SchemaChange.SetOption("snapshot.num-retained.min", "20")),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnNullability("n", true),
                org.apache.paimon.schema.SchemaChange.updateColumnComment("label", "a label"),
                org.apache.paimon.schema.SchemaChange.updateComment("evolved"),
                org.apache.paimon.schema.SchemaChange.setOption("snapshot.num-retained.min", "20")),
            0,
            70));
  }

  /** A row of {@code type} for key {@code key}, its values telling the step that wrote it. */
  static Object[] row(RowType type, long key, int step) {
    Object[] row = new Object[type.size()];
    for (int i = 0; i < row.length; i++) {
      DataField f = type.field(i);
      boolean isNull = f.type().nullable() && (key + step) % 7 == 0;
      row[i] =
          f.id() == 0
              ? (Object) key
              : f.id() == 1 ? "d" + key % 2 : isNull ? null : value(f.type(), key, step);
    }
    return row;
  }

  private static Object value(DataType type, long key, int step) {
    long v = key * 10 + step;
    return switch (type.root()) {
      case TINYINT -> (byte) (v % 100);
      case SMALLINT -> (short) v;
      case INT -> (int) v;
      case BIGINT -> v;
      case FLOAT -> v / 4f;
      case DOUBLE -> v / 8d;
      case DECIMAL -> BigDecimal.valueOf(v, type.scale());
      default -> "k" + key + "-s" + step;
    };
  }

  /** The expected rows after a schema change: matched by field id, converted when widened. */
  static Map<Long, Object[]> evolve(Map<Long, Object[]> rows, RowType from, RowType to) {
    Map<Long, Object[]> evolved = new TreeMap<>();
    rows.forEach(
        (key, row) -> {
          Object[] next = new Object[to.size()];
          for (int i = 0; i < next.length; i++) {
            for (int j = 0; j < from.size(); j++) {
              if (from.field(j).id() == to.field(i).id()) {
                next[i] = TypeWidening.convert(row[j], to.type(i));
              }
            }
          }
          evolved.put(key, next);
        });
    return evolved;
  }

  /** One side that alters and writes: changelake or Paimon. */
  interface Writer {
    void alter(Step step) throws Exception;

    /** The schema as changelake reads it from the table folder. */
    TableSchema schema() throws Exception;

    void write(List<Object[]> upserts, List<Object[]> deletes) throws Exception;
  }

  /** Runs every step, checking both readers against the expected rows after each. */
  private List<Object[]> runSteps(Writer writer, LocalObjectStore store, Path tableFolder)
      throws Exception {
    Map<Long, Object[]> expected = new TreeMap<>();
    for (int s = 0; s < steps().size(); s++) {
      Step step = steps().get(s);
      RowType before = writer.schema().rowType();
      if (!step.ours().isEmpty()) {
        writer.alter(step);
      }
      TableSchema schema = writer.schema();
      expected = evolve(expected, before, schema.rowType());
      List<Object[]> upserts = new ArrayList<>();
      for (long k = step.firstKey(); k < step.firstKey() + step.keys(); k++) {
        Object[] row = row(schema.rowType(), k, s);
        upserts.add(row);
        expected.put(k, row);
      }
      List<Object[]> deletes = new ArrayList<>();
      if (s >= 2 && s < steps().size() - 1) {
        // Keys 2, 3, 4 were written under schema 0 only; the last step writes them again.
        Object[] deleted = expected.remove((long) s);
        if (deleted != null) {
          deletes.add(deleted);
        }
      }
      writer.write(upserts, deletes);

      String context = step.name() + " " + schema.rowType().names();
      Table table = Table.open(store, PATH);
      Rows.assertSameRows(expected.values(), table.newRead().readAll());
      assertEquals(
          Rows.canonical(expected.values()),
          Rows.canonical(PaimonTables.readAll(PaimonTables.open(tableFolder), schema)),
          context);
    }
    return new ArrayList<>(expected.values());
  }

  /** Changelake alters and writes its table. */
  private final class OurWriter implements Writer {
    private Table table;
    private long identifier;

    OurWriter(Table table) {
      this.table = table;
    }

    @Override
    public void alter(Step step) throws Exception {
      table = table.alter(step.ours());
    }

    @Override
    public TableSchema schema() {
      return table.schema();
    }

    @Override
    public void write(List<Object[]> upserts, List<Object[]> deletes) throws Exception {
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : upserts) {
          writer.write(RowKind.INSERT, row);
        }
        for (Object[] row : deletes) {
          writer.write(RowKind.DELETE, row);
        }
        identifier++;
        table.newCommit("evolving").commit(identifier, writer.prepareCommit(identifier));
      }
    }
  }

  /** Paimon alters (its SchemaManager) and writes its table. */
  private static final class PaimonWriter implements Writer {
    private final LocalObjectStore store;
    private final Path folder;

    PaimonWriter(LocalObjectStore store, Path folder) {
      this.store = store;
      this.folder = folder;
    }

    @Override
    public void alter(Step step) throws Exception {
      new SchemaManager(LocalFileIO.create(), new org.apache.paimon.fs.Path(folder.toUri()))
          .commitChanges(step.paimon());
    }

    @Override
    public TableSchema schema() throws Exception {
      return Table.open(store, PATH).schema();
    }

    @Override
    public void write(List<Object[]> upserts, List<Object[]> deletes) throws Exception {
      FileStoreTable table = PaimonTables.open(folder);
      Path ioTemp =
          java.nio.file.Files.createDirectories(
              folder.getParent().getParent().resolveSibling("paimon-io"));
      PaimonTables.write(table, schema(), upserts, RowKind.INSERT, ioTemp);
      if (!deletes.isEmpty()) {
        PaimonTables.write(table, schema(), deletes, RowKind.DELETE, ioTemp);
      }
    }
  }

  private static final Map<String, String> LOOKUP =
      Map.of("bucket", "2", "file.format", "parquet", "changelog-producer", "lookup");

  @Test
  void paimonReadsEveryStepOfATableWeEvolveAndOurChangelogAcrossSchemas() throws Exception {
    Path folder = warehouse.resolve("ours");
    try (LocalObjectStore store = new LocalObjectStore(folder)) {
      Table table = Table.create(store, PATH, first(LOOKUP));
      List<Object[]> expected = runSteps(new OurWriter(table), store, folder.resolve(PATH.root()));

      Table latest = Table.open(store, PATH);
      List<Change> ours = ChangelogScanTest.changelog(latest, 1);
      assertFalse(ours.isEmpty());
      Rows.assertSameRows(expected, replay(ours));

      latest.newCompaction().run(true, "");
      Rows.assertSameRows(expected, Table.open(store, PATH).newRead().readAll());
      Rows.assertSameRows(
          expected,
          PaimonTables.readAll(PaimonTables.open(folder.resolve(PATH.root())), latest.schema()));
    }
  }

  @Test
  void weReadEveryStepOfATablePaimonEvolvesAndItsChangelogAcrossSchemas() throws Exception {
    Path folder = warehouse.resolve("paimon");
    Path tableFolder = folder.resolve(PATH.root());
    try (LocalObjectStore store = new LocalObjectStore(folder)) {
      PaimonTables.create(tableFolder, first(LOOKUP));
      List<Object[]> expected = runSteps(new PaimonWriter(store, tableFolder), store, tableFolder);

      Table latest = Table.open(store, PATH);
      assertEquals(steps().size() - 1, latest.schema().id());
      List<Change> paimons = ChangelogScanTest.changelog(latest, 1);
      assertFalse(paimons.isEmpty());
      Rows.assertSameRows(expected, replay(paimons));
    }
  }

  /**
   * A scan of some of the latest schema's columns reads files of every schema as a scan of every
   * column does, cut down to those columns: the added, renamed and widened ones included, the key
   * left out.
   */
  @Test
  void aScanOfSomeColumnsReadsFilesOfEverySchemaAsAScanOfEveryColumn() throws Exception {
    Path folder = warehouse.resolve("ours");
    try (LocalObjectStore store = new LocalObjectStore(folder)) {
      Table table = Table.create(store, PATH, first(LOOKUP));
      runSteps(new OurWriter(table), store, folder.resolve(PATH.root()));
      Table latest = Table.open(store, PATH);
      List<Change> every = ChangelogScanTest.changelog(latest, 1);
      int size = latest.schema().rowType().size();
      int[] lastFirst = new int[size];
      for (int i = 0; i < size; i++) {
        lastFirst[i] = size - 1 - i;
      }
      int id = latest.schema().rowType().indexOf("id");
      for (int[] columns : new int[][] {lastFirst, {size - 1, 2}, {id == 0 ? 1 : 0}}) {
        ChangelogScan some = latest.newChangelogScan().withColumns(columns);
        assertEquals(
            ChangelogScanTest.cut(every, columns),
            ChangelogScanTest.read(
                some, some.between(0, latest.snapshots().latestId().orElseThrow())),
            "columns " + Arrays.toString(columns) + " of " + latest.schema().rowType());
      }
    }
  }

  /**
   * Why Paimon's own streaming read is not among the checks above: Paimon 1.3.1's stream scan and
   * table read ({@link PaimonStreams#changelog}) hand out the rows of a changelog file written
   * under an older schema in that file's own column layout, without the field-id mapping and casts
   * its batch read applies (the value row is an {@code OffsetRow} straight over the file's {@code
   * ColumnarRow}), so reading them as the latest schema's columns throws a ClassCastException. It
   * does so for the table Paimon itself evolved and wrote exactly as for ours, which makes it
   * Paimon's read path, not our files: the same files read right through Paimon's batch read and
   * ours. If a Paimon upgrade makes this test fail, compare Paimon's streaming changelog here too.
   */
  @Test
  void paimonsStreamingReadGivesOlderSchemasChangelogRowsInTheirOwnLayoutForEitherEngine()
      throws Exception {
    for (String engine : List.of("ours", "paimon")) {
      Path folder = warehouse.resolve("stream-" + engine);
      Path tableFolder = folder.resolve(PATH.root());
      try (LocalObjectStore store = new LocalObjectStore(folder)) {
        if (engine.equals("ours")) {
          runSteps(new OurWriter(Table.create(store, PATH, first(LOOKUP))), store, tableFolder);
        } else {
          PaimonTables.create(tableFolder, first(LOOKUP));
          runSteps(new PaimonWriter(store, tableFolder), store, tableFolder);
        }
        TableSchema latest = Table.open(store, PATH).schema();
        ClassCastException misread =
            assertThrows(
                ClassCastException.class,
                () -> PaimonStreams.changelog(PaimonTables.open(tableFolder), latest, 1),
                engine);
        assertTrue(misread.getMessage().contains("org.apache.paimon.data.columnar"), engine);
      }
    }
  }

  @Test
  void theLookupChangelogOfKeysWhoseOldVersionIsInAnOlderSchemasFileIsPaimons() throws Exception {
    Path ourFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    Path paimonTable = paimonFolder.resolve(PATH.root());
    try (LocalObjectStore ourStore = new LocalObjectStore(ourFolder);
        LocalObjectStore paimonStore = new LocalObjectStore(paimonFolder)) {
      runSteps(
          new OurWriter(Table.create(ourStore, PATH, first(LOOKUP))),
          ourStore,
          ourFolder.resolve(PATH.root()));
      PaimonTables.create(paimonTable, first(LOOKUP));
      runSteps(new PaimonWriter(paimonStore, paimonTable), paimonStore, paimonTable);

      assertEquals(
          perKey(ChangelogScanTest.changelog(Table.open(paimonStore, PATH), 1)),
          perKey(ChangelogScanTest.changelog(Table.open(ourStore, PATH), 1)));
    }
  }

  /**
   * Writes {@code batches} into a changelake table and into a Paimon table, applying {@code alters}
   * (one per batch after the first) on each side, then checks that both engines read {@code
   * expected} from both tables and that both changelogs agree.
   */
  private void bothWays(
      TableSchema first, List<Step> alters, List<List<Object[]>> batches, List<Object[]> expected)
      throws Exception {
    Path ourFolder = warehouse.resolve("ours");
    Path paimonFolder = warehouse.resolve("paimon");
    Path ourTable = ourFolder.resolve(PATH.root());
    Path paimonTable = paimonFolder.resolve(PATH.root());
    try (LocalObjectStore ourStore = new LocalObjectStore(ourFolder);
        LocalObjectStore paimonStore = new LocalObjectStore(paimonFolder)) {
      PaimonTables.create(paimonTable, first);
      List<Writer> writers =
          List.of(
              new OurWriter(Table.create(ourStore, PATH, first)),
              new PaimonWriter(paimonStore, paimonTable));
      for (Writer writer : writers) {
        for (int b = 0; b < batches.size(); b++) {
          if (b > 0) {
            writer.alter(alters.get(b - 1));
          }
          writer.write(batches.get(b), List.of());
        }
      }
      for (LocalObjectStore store : List.of(ourStore, paimonStore)) {
        Table table = Table.open(store, PATH);
        Rows.assertSameRows(expected, table.newRead().readAll());
        Path folder = store == ourStore ? ourTable : paimonTable;
        Rows.assertSameRows(
            expected, PaimonTables.readAll(PaimonTables.open(folder), table.schema()));
      }
      assertEquals(
          perKey(ChangelogScanTest.changelog(Table.open(paimonStore, PATH), 1)),
          perKey(ChangelogScanTest.changelog(Table.open(ourStore, PATH), 1)));
    }
  }

  @Test
  void partialUpdateFillsAColumnAddedAfterTheKeysOlderVersionsAsPaimonDoes() throws Exception {
    TableSchema first =
        TableSchema.create(
            new RowType(
                List.of(
                    new DataField(0, "id", DataType.bigint().notNull()),
                    new DataField(1, "a", DataType.string()),
                    new DataField(2, "b", DataType.string()))),
            List.of(),
            List.of("id"),
            Map.of(
                "bucket", "1",
                "file.format", "parquet",
                "merge-engine", "partial-update",
                "changelog-producer", "lookup"),
            null);
    Step addC =
        new Step(
            "add column c",
            List.of(
                new SchemaChange.AddColumn("c", DataType.intType(), null, ColumnPosition.last())),
            List.of(
                org.apache.paimon.schema.SchemaChange.addColumn("c", paimon(DataType.intType()))),
            0,
            0);
    bothWays(
        first,
        List.of(addC),
        List.of(
            List.of(new Object[] {1L, "x", null}, new Object[] {2L, "y", "z"}),
            List.of(new Object[] {1L, null, "w", 5}, new Object[] {3L, null, null, 7})),
        List.of(
            new Object[] {1L, "x", "w", 5},
            new Object[] {2L, "y", "z", null},
            new Object[] {3L, null, null, 7}));
  }

  @Test
  void aggregationSumsAWidenedColumnPastTheOldTypesRangeAsPaimonDoes() throws Exception {
    TableSchema first =
        TableSchema.create(
            new RowType(
                List.of(
                    new DataField(0, "id", DataType.bigint().notNull()),
                    new DataField(1, "total", DataType.intType()),
                    new DataField(2, "cnt", DataType.tinyint()))),
            List.of(),
            List.of("id"),
            Map.of(
                "bucket", "1",
                "file.format", "parquet",
                "merge-engine", "aggregation",
                "fields.total.aggregate-function", "sum",
                "fields.cnt.aggregate-function", "sum",
                "changelog-producer", "lookup"),
            null);
    Step widen =
        new Step(
            "widen total to BIGINT, cnt to INT",
            List.of(
                new SchemaChange.UpdateColumnType("total", DataType.bigint()),
                new SchemaChange.UpdateColumnType("cnt", DataType.intType())),
            List.of(
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "total", paimon(DataType.bigint()), true),
                org.apache.paimon.schema.SchemaChange.updateColumnType(
                    "cnt", paimon(DataType.intType()), true)),
            0,
            0);
    bothWays(
        first,
        List.of(widen),
        List.of(
            List.of(new Object[] {1L, 2_147_483_000, (byte) 100}, new Object[] {2L, 1, (byte) 1}),
            List.<Object[]>of(new Object[] {1L, 1000L, 100})),
        List.of(new Object[] {1L, 2_147_484_000L, 200}, new Object[] {2L, 1L, 1}));
  }

  /**
   * Each key's changes in the order read (readers may order keys differently), without the snapshot
   * that carries each (the two writers' snapshot ids differ: the Paimon side commits its deletes
   * separately).
   */
  private static Map<Object, List<String>> perKey(List<Change> changes) {
    Map<Object, List<String>> byKey = new TreeMap<>();
    for (Change change : changes) {
      byKey
          .computeIfAbsent(change.row().get(0), k -> new ArrayList<>())
          .add(change.kind().shortString() + change.row());
    }
    return byKey;
  }

  /** The rows a changelog read from the first snapshot leaves when applied in order. */
  private static List<Object[]> replay(List<Change> changes) {
    Map<Object, Object[]> state = new TreeMap<>();
    for (Change change : changes) {
      if (change.kind() == RowKind.INSERT || change.kind() == RowKind.UPDATE_AFTER) {
        state.put(change.row().get(0), change.row().toArray());
      } else if (change.kind() == RowKind.DELETE) {
        state.remove(change.row().get(0));
      }
    }
    return new ArrayList<>(state.values());
  }
}
