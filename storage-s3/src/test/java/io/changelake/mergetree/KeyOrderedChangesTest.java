package io.changelake.mergetree;

import static io.changelake.mergetree.RandomRuns.assertGettersAgree;
import static io.changelake.mergetree.RandomRuns.closeAll;
import static io.changelake.mergetree.RandomRuns.open;
import static io.changelake.mergetree.RandomRuns.schema;
import static io.changelake.mergetree.RandomRuns.text;
import static io.changelake.mergetree.RandomRuns.writeChangeRuns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.changelake.format.KeyValueFileReader;
import io.changelake.mergetree.RandomRuns.Key;
import io.changelake.schema.TableSchema;
import io.changelake.store.LocalObjectStore;
import io.changelake.types.ChangeRow;
import io.changelake.types.KeyValue;
import io.changelake.types.RowComparator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link KeyOrderedChanges} gives the records of random runs of changes (a key up to three times in
 * a run, sequence numbers in any order, tying between runs now and then) as the runs read one after
 * the other and then sorted stably by key: equal keys run by run, each run's in its own order,
 * never by sequence number; each record a view whose getters agree with {@link ChangeRow#get}.
 */
class KeyOrderedChangesTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("io.changelake.mergetree.RandomRuns#keysAndSeeds")
  void givesEqualKeysRunByRunEachRunInItsOwnOrder(Key key, long seed) throws Exception {
    TableSchema schema = schema(key, false);
    RowComparator keyOrder = new RowComparator(schema.keyType());
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<List<String>> runs = writeChangeRuns(store, schema, seed);
      List<KeyValue> written = new ArrayList<>();
      for (List<String> run : runs) {
        List<KeyValueFileReader> files = open(store, schema, run);
        try {
          files.forEach(file -> file.forEachRemaining(written::add));
        } finally {
          closeAll(files);
        }
      }
      // List.sort is stable: equal keys keep the order the runs were read in.
      written.sort(Comparator.comparing(KeyValue::key, keyOrder));
      List<String> expected = written.stream().map(RandomRuns::text).toList();

      List<String> actual = new ArrayList<>();
      List<BatchedRun> batchedRuns = new ArrayList<>();
      for (List<String> run : runs) {
        batchedRuns.add(
            new BatchedRun(
                run.stream().map(path -> Bucket.file(path, 1, 0)).toList(),
                f ->
                    KeyValueFileReader.open(
                        store, f.fileName(), schema.keyType(), schema.rowType())));
      }
      try {
        KeyOrderedChanges changes = new KeyOrderedChanges(batchedRuns, keyOrder);
        for (ChangeRow change = changes.next(); change != null; change = changes.next()) {
          assertGettersAgree(change);
          actual.add(text(change.toKeyValue()));
        }
      } finally {
        closeAll(batchedRuns);
      }
      assertEquals(expected, actual);
      assertTrue(actual.size() > runs.size(), "records " + actual.size());
    }
  }
}
