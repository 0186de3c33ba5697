package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.RandomRows;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.DataField;
import io.changelake.types.DataType;
import io.changelake.types.PaimonTypes;
import io.changelake.types.RowKind;
import io.changelake.types.RowType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table format is Paimon's: Paimon 1.3.1 reads what changelake writes, and changelake reads
 * what Paimon writes, for a partitioned table with several buckets, nulls and every type.
 */
class PaimonCompatibilityTest {

  private static final TablePath PATH = new TablePath("db", "every_type");

  @TempDir Path warehouse;

  /** id, two partition columns (one with characters Paimon escapes), then every type. */
  static TableSchema everyTypeSchema(Map<String, String> options) {
    List<DataField> fields = new ArrayList<>();
    fields.add(new DataField(0, "id", DataType.bigint().notNull()));
    fields.add(new DataField(1, "region", DataType.string().notNull()));
    fields.add(new DataField(2, "day", DataType.intType().notNull()));
    DataType[] types = PaimonTypes.EVERY_TYPE;
    for (int i = 0; i < types.length; i++) {
      fields.add(new DataField(3 + i, "c" + i, types[i]));
    }
    return TableSchema.create(
        new RowType(fields),
        List.of("region", "day"),
        List.of("region", "day", "id"),
        options,
        null);
  }

  /** Random rows over 150 keys in four partitions, so keys repeat and the last version wins. */
  static List<Object[]> randomRows(TableSchema schema, long seed, int count) {
    RandomRows random = new RandomRows(seed);
    Random keys = new Random(seed);
    String[] regions = {"eu", "us/west:1"};
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Object[] row = random.row(schema.rowType());
      row[0] = (long) keys.nextInt(150);
      row[1] = regions[keys.nextInt(regions.length)];
      row[2] = 20260101 + keys.nextInt(2);
      rows.add(row);
    }
    return rows;
  }

  /**
   * The table after applying batches of (kind, row) in order: last version per key, no retracted
   * keys.
   */
  static List<Object[]> expectedState(List<List<Object[]>> insertBatches, List<Object[]> deletes) {
    Map<String, Object[]> state = new LinkedHashMap<>();
    for (List<Object[]> batch : insertBatches) {
      for (Object[] row : batch) {
        state.put(key(row), row);
      }
    }
    for (Object[] row : deletes) {
      state.remove(key(row));
    }
    return new ArrayList<>(state.values());
  }

  private static String key(Object[] row) {
    return row[0] + "/" + row[1] + "/" + row[2];
  }

  @Test
  void paimonReadsAPartitionedMultiBucketTableWithEveryTypeThatWeWrite() throws Exception {
    TableSchema schema = everyTypeSchema(Map.of("bucket", "3"));
    List<Object[]> first = randomRows(schema, 1, 400);
    List<Object[]> second = randomRows(schema, 2, 200);
    List<Object[]> deletes = first.subList(0, 40);
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.create(store, PATH, schema);
      SnapshotCommit commit = table.newCommit("test-writer");
      try (TableWriter writer = table.newWriter()) {
        for (Object[] row : first) {
          writer.write(RowKind.INSERT, row);
        }
        commit.commit(1, writer.prepareCommit(1));
        for (Object[] row : second) {
          writer.write(RowKind.UPDATE_AFTER, row);
        }
        for (Object[] row : deletes) {
          writer.write(RowKind.DELETE, row);
        }
        commit.commit(2, writer.prepareCommit(2));
      }
      // Deletes were written after the second batch, so they win over it too.
      List<Object[]> expected = expectedState(List.of(first, second), deletes);

      Rows.assertSameRows(expected, table.newRead().readAll());
      Rows.assertSameRows(
          expected,
          PaimonTables.readAll(PaimonTables.open(warehouse.resolve(PATH.root())), schema));
    }
  }

  @Test
  void weReadAPartitionedMultiBucketTableWithEveryTypeThatPaimonWrites() throws Exception {
    TableSchema schema = everyTypeSchema(Map.of("bucket", "3"));
    Path folder = warehouse.resolve(PATH.root());
    var paimon = PaimonTables.create(folder, schema);
    List<Object[]> first = randomRows(schema, 3, 400);
    List<Object[]> second = randomRows(schema, 4, 200);
    PaimonTables.write(paimon, schema, first, RowKind.INSERT);
    PaimonTables.write(paimon, schema, second, RowKind.UPDATE_AFTER);
    PaimonTables.write(paimon, schema, first.subList(0, 40), RowKind.DELETE);

    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table = Table.open(store, PATH);
      assertEquals(schema.rowType(), table.schema().rowType());
      assertEquals(schema.primaryKeys(), table.schema().primaryKeys());
      assertEquals(schema.partitionKeys(), table.schema().partitionKeys());
      Rows.assertSameRows(
          expectedState(List.of(first, second), first.subList(0, 40)), table.newRead().readAll());
      Rows.assertSameRows(PaimonTables.readAll(paimon, schema), table.newRead().readAll());
    }
  }

  @Test
  void weReadTheReferenceTablesThatPaimonWrote() throws Exception {
    for (String producer : List.of("lookup", "input")) {
      Path copy = warehouse.resolve(producer);
      copyResource("/paimon-1.3.1/" + producer + "/orders", copy.resolve("db.db/orders"));
      try (LocalObjectStore store = new LocalObjectStore(copy)) {
        Table table = Table.open(store, new TablePath("db", "orders"));
        assertEquals(producer, table.options().changelogProducer().value());
        List<Object[]> rows = table.newRead().readAll();
        Rows.assertSameRows(List.<Object[]>of(new Object[] {1001L, 10L, 80L}), rows);
      }
    }
  }

  static void copyResource(String resource, Path target) throws IOException {
    Path source;
    try {
      source = Path.of(PaimonCompatibilityTest.class.getResource(resource).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Path to = target.resolve(source.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(to);
        } else {
          Files.copy(file, to);
        }
      }
    }
  }
}
