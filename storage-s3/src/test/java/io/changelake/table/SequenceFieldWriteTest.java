package io.changelake.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.changelake.format.PaimonRows;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.RowKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With {@code sequence.field}, the version with the greatest field wins, the later written among
 * equal fields, however the versions of a key meet: in one write buffer (sorted there by key, then
 * field), across commits, through compactions. Paimon 1.3.1 reads the same rows.
 */
class SequenceFieldWriteTest {

  @TempDir Path warehouse;

  @ParameterizedTest(name = "{0} commits")
  @ValueSource(ints = {1, 3, 12})
  void theGreatestSequenceFieldWinsAndTheLaterWrittenAmongEqualOnes(int commits) throws Exception {
    Random random = new Random(commits);
    TreeMap<Long, Object[]> expected = new TreeMap<>();
    try (LocalObjectStore store = new LocalObjectStore(warehouse)) {
      Table table =
          Table.create(
              store,
              RandomChangeStream.PATH,
              Orders.schema(Map.of("sequence.field", "amount", "write-buffer-size", "64 kb")));
      SnapshotCommit commit = table.newCommit("test");
      try (TableWriter writer = table.newWriter()) {
        for (long id = 1; id <= commits; id++) {
          for (int i = 0; i < 3000 / commits; i++) {
            // Key 0 is hot, so that a buffer holds many versions of it.
            long key = random.nextInt(5) == 0 ? 0 : random.nextInt(200);
            Object[] row = Orders.row(key, (long) i, (long) random.nextInt(20));
            writer.write(RowKind.INSERT, row);
            Object[] winner = expected.get(key);
            if (winner == null || (Long) row[2] >= (Long) winner[2]) {
              expected.put(key, row);
            }
          }
          commit.commit(id, writer.prepareCommit(id));
        }
      }
      List<String> rows = new ArrayList<>();
      for (Object[] row : table.newRead().readAll()) {
        rows.add(Arrays.toString(row));
      }
      rows.sort(null);
      List<String> wanted = new ArrayList<>();
      expected.values().forEach(row -> wanted.add(Arrays.toString(row)));
      wanted.sort(null);
      assertEquals(wanted, rows);
      assertEquals(wanted, paimonRows());
    }
  }

  /** Paimon's batch read of the latest snapshot, sorted. */
  private List<String> paimonRows() throws Exception {
    FileStoreTable paimon = PaimonTables.open(warehouse.resolve(RandomChangeStream.PATH.root()));
    PaimonRows converter = new PaimonRows(Orders.ROW_TYPE);
    ReadBuilder builder = paimon.newReadBuilder();
    List<String> rows = new ArrayList<>();
    try (RecordReader<InternalRow> reader =
        builder.newRead().createReader(builder.newScan().plan().splits())) {
      reader.forEachRemaining(row -> rows.add(Arrays.toString(converter.toJava(row))));
    }
    rows.sort(null);
    return rows;
  }
}
